/* ---------------------------------------------------------------- */
/* The harness: the same text for every test                          */

#define CHECK(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf(stderr, "%s: %s: %s\n", test_name, #call, \
              cudaGetErrorString(err_)); \
      exit(1); \
    } \
  } while (0)

/* --sm: which instances count, by the SMs their blocks ran on */
#define SM_ANY 0       /* all (the roles' SM ids are not read) */
#define SM_SAME 1      /* those whose blocks all ran on one SM */
#define SM_DIFFERENT 2 /* those whose blocks ran on several SMs */
static const char *const sm_word[] = {"any", "same", "different"};

struct params {
  unsigned *gmem;          /* NLOCS arrays of ninst copies, spacing apart */
  int *regs;               /* ninst x NREGS final registers */
  unsigned *hung;          /* ninst flags */
  unsigned *shfinal;       /* NSHARED x ninst final __shared__ words */
  const int *roles;        /* blocks x threads: inst * NROLES + role, -1 */
  const int *shinst;       /* blocks x m: the instance of shared slot j */
  unsigned *scratch;       /* stress target when spacing == 1 */
  unsigned *blocksm;       /* --sm same|different: each block's SM */
  const int *grpblk;       /* NGROUPS x blocks: the block of group g of
                            * the instances of instance block ib */
  unsigned long long ninst, scratch_words;
  int m, spacing, budget, stress_blocks, stress_iters;
  int sm;                  /* SM_ANY, SM_SAME or SM_DIFFERENT */
  int probe;               /* 1: each block notes its SM and returns */
};

__global__ void reset_kernel(params p) {
  unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long i0 = (unsigned long long)blockIdx.x * blockDim.x +
                          threadIdx.x;
  unsigned long long words = (unsigned long long)NLOCS * p.ninst * p.spacing;
  for (unsigned long long i = i0; i < words; i += step) {
    unsigned long long copy = i / p.spacing;
    p.gmem[i] = i % p.spacing == 0 ? (unsigned)loc_init[copy / p.ninst] : 0u;
  }
  for (unsigned long long i = i0; i < p.ninst; i += step)
    p.hung[i] = 0;
}

/* Loads and stores on the test's cache lines (the words between the
 * instances' copies) or on a scratch area, from blocks of their own. */
static __device__ void stress(const params &p) {
  unsigned long long x = ((unsigned long long)blockIdx.x << 10 | threadIdx.x)
                         * 0x9E3779B97F4A7C15ULL + 1;
  unsigned acc = 0;
  for (int it = 0; it < p.stress_iters; it++) {
    unsigned long long r;
    volatile unsigned *a;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r = (x * 0x2545F4914F6CDD1DULL) >> 11;
    if (p.spacing > 1) {
      unsigned long long copy = r % ((unsigned long long)NLOCS * p.ninst);
      a = p.gmem + copy * p.spacing + 1 + (r >> 40) % (p.spacing - 1);
    } else {
      a = p.scratch + r % p.scratch_words;
    }
    if (it & 1)
      acc += *a;
    else
      *a = acc + it;
  }
  if (acc == 0xFFFFFFFFu)
    p.hung[0] = 0; /* keeps the loads */
}

extern __shared__ unsigned smem[];

/* The SM the calling thread's block runs on (PTX %smid): with --sm same
 * or --sm different each block's thread 0 notes it before the roles start
 * (one store a block: a store per role after its statement halved MP's
 * rate on an H200), and count_kernel classifies each instance by whether
 * its blocks ran on one SM or on several. */
static __device__ __forceinline__ unsigned sm_id(void) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__global__ void test_kernel(params p) {
  int b, code;
  if (p.sm != SM_ANY && threadIdx.x == 0)
    p.blocksm[blockIdx.x] = sm_id();
  if (p.probe)
    return;
  if ((int)blockIdx.x < p.stress_blocks) {
    stress(p);
    return;
  }
  b = (int)blockIdx.x - p.stress_blocks;
  code = p.roles[(size_t)b * blockDim.x + threadIdx.x];
#if NSHARED > 0
  for (int k = threadIdx.x; k < NSHARED * p.m; k += blockDim.x)
    smem[k] = (unsigned)sh_init[k / p.m];
  __syncthreads();
#endif
  if (code >= 0) {
    unsigned long long inst = (unsigned)code / NROLES;
    int role = (unsigned)code % NROLES;
    int j = (int)(inst % (unsigned long long)p.m);
    unsigned *loc[NLOCS + 1];
    (void)j;
    for (int l = 0; l < NLOCS; l++)
      loc[l] = loc_shidx[l] >= 0
                   ? &smem[loc_shidx[l] * p.m + j]
                   : &p.gmem[((unsigned long long)l * p.ninst + inst) *
                             p.spacing];
    dispatch(role, loc, p.regs + inst * NREGS, p.hung + inst, p.budget);
  }
#if NSHARED > 0
  __syncthreads();
  for (int k = threadIdx.x; k < NSHARED * p.m; k += blockDim.x) {
    int s = k / p.m, j = k % p.m;
    int inst = p.shinst[(size_t)b * p.m + j];
    if (inst >= 0)
      p.shfinal[(unsigned long long)s * p.ninst + inst] = smem[k];
  }
#endif
}

/* An open-addressing table of final states, filled on the GPU. */
#define HSLOTS 16384
struct slot {
  unsigned state; /* 0 empty, 1 being written, 2 ready */
  unsigned pad;
  unsigned long long count;
  int vals[NVALS + 1];
};

__global__ void count_kernel(params p, slot *tab, unsigned long long *misc) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x +
                         threadIdx.x;
  int v[NVALS + 1];
  unsigned h = 2166136261u;
  if (i >= p.ninst)
    return;
  if (p.sm != SM_ANY) {
    /* one SM (misc[2]) or several (misc[3]); only the asked class counts */
    bool one = true;
    unsigned long long ib = i / (unsigned)p.m, nb = p.ninst / (unsigned)p.m;
    unsigned sm0 = p.blocksm[p.stress_blocks + p.grpblk[ib]];
    for (int g = 1; g < NGROUPS; g++)
      one = one && p.blocksm[p.stress_blocks + p.grpblk[g * nb + ib]] == sm0;
    atomicAdd(&misc[one ? 2 : 3], 1ULL);
    if (one != (p.sm == SM_SAME))
      return;
  }
  if (p.hung[i]) {
    /* 1: hung (misc[0]); 2: a value left 32 bits (misc[4]) */
    atomicAdd(&misc[p.hung[i] == 2u ? 4 : 0], 1ULL);
    return;
  }
  for (int r = 0; r < NREGS; r++)
    v[r] = p.regs[i * NREGS + r];
  for (int l = 0; l < NLOCS; l++)
    v[NREGS + l] =
        loc_shidx[l] >= 0
            ? (int)p.shfinal[(unsigned long long)loc_shidx[l] * p.ninst + i]
            : (int)p.gmem[((unsigned long long)l * p.ninst + i) * p.spacing];
  for (int k = 0; k < NVALS; k++)
    h = (h ^ (unsigned)v[k]) * 16777619u;
  for (int probe = 0; probe < HSLOTS; probe++) {
    slot *s = &tab[(h + probe) & (HSLOTS - 1)];
    unsigned st = atomicCAS(&s->state, 0u, 1u);
    bool same = true;
    if (st == 0u) {
      for (int k = 0; k < NVALS; k++)
        s->vals[k] = v[k];
      __threadfence();
      atomicExch(&s->state, 2u);
      atomicAdd(&s->count, 1ULL);
      return;
    }
    while (atomicAdd(&s->state, 0u) == 1u)
      ;
    __threadfence();
    for (int k = 0; k < NVALS; k++)
      same = same && ((volatile int *)s->vals)[k] == v[k];
    if (same) {
      atomicAdd(&s->count, 1ULL);
      return;
    }
  }
  atomicAdd(&misc[1], 1ULL);
}

static unsigned long long rng;

static unsigned long long rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1DULL;
}

static void shuffle_ints(int *a, int n) {
  for (int i = n - 1; i > 0; i--) {
    int k = (int)(rnd() % (unsigned long long)(i + 1)), x = a[i];
    a[i] = a[k];
    a[k] = x;
  }
}

/* One table of roles: instance block ib's group g goes to block
 * blk[g * B + ib], a permutation of the blocks for each g, distinct
 * blocks for the groups of one ib; in its block, role r takes region r
 * (m threads) at a position drawn per region.  By default (sm == NULL)
 * blk[g * B + ib] = (pi[ib] + g * off) % B.  With --sm same, sm gives each
 * block's SM in a probe launch of the same shape: the blocks are cut
 * into runs of one SM each (a run with fewer blocks than NGROUPS joins
 * others), and the groups of an instance block are rotations within
 * one run, so that they share an SM where the scheduler puts the blocks
 * as it did in the probe (counting checks the SMs they really had). */
static void build_roles(int *tab, int *shinst, int *blk, int B, int S,
                        int m, int shuffle, const unsigned *sm) {
  std::vector<int> pi(B), pos(m);
  int off = 0;
  for (int k = 0; k < B * S; k++)
    tab[k] = -1;
  for (int k = 0; k < B * m; k++)
    shinst[k] = -1;
  for (int k = 0; k < B; k++)
    pi[k] = k;
  if (shuffle)
    shuffle_ints(pi.data(), B);
  if (sm == NULL) {
    if (NGROUPS > 1) {
      int maxoff = (B - 1) / (NGROUPS > 1 ? NGROUPS - 1 : 1);
      off = shuffle ? 1 + (int)(rnd() % (unsigned long long)maxoff) : 1;
    }
    for (int ib = 0; ib < B; ib++)
      for (int g = 0; g < NGROUPS; g++)
        blk[(size_t)g * B + ib] = (int)((pi[ib] + (long long)g * off) % B);
  } else {
    std::vector<std::vector<int> > runs;
    std::vector<int> small;
    std::vector<int> order(pi); /* blocks in drawn order, then by SM */
    std::stable_sort(order.begin(), order.end(),
                     [sm](int a, int b) { return sm[a] < sm[b]; });
    for (int k = 0; k < B;) {
      int e = k;
      while (e < B && sm[order[e]] == sm[order[k]])
        e++;
      if (e - k >= NGROUPS)
        runs.push_back(std::vector<int>(order.begin() + k,
                                        order.begin() + e));
      else
        small.insert(small.end(), order.begin() + k, order.begin() + e);
      k = e;
    }
    if (!small.empty()) {
      if ((int)small.size() >= NGROUPS || runs.empty())
        runs.push_back(small);
      else
        runs.back().insert(runs.back().end(), small.begin(), small.end());
    }
    int ib = 0;
    for (size_t q = 0; q < runs.size(); q++) {
      int k = (int)runs[q].size();
      int maxoff = NGROUPS > 1 ? (k - 1) / (NGROUPS - 1) : 1;
      off = shuffle && maxoff > 1 ? 1 + (int)(rnd() % (unsigned long long)
                                              maxoff)
                                  : 1;
      for (int i = 0; i < k; i++, ib++)
        for (int g = 0; g < NGROUPS; g++)
          blk[(size_t)g * B + ib] = runs[q][(i + g * off) % k];
    }
  }
  for (int ib = 0; ib < B; ib++)
    for (int r = 0; r < NROLES; r++) {
      int beta = blk[(size_t)role_group[r] * B + ib];
      for (int j = 0; j < m; j++)
        pos[j] = j;
      if (shuffle)
        shuffle_ints(pos.data(), m);
      for (int j = 0; j < m; j++) {
        int inst = ib * m + j;
        tab[(size_t)beta * S + r * m + pos[j]] = inst * NROLES + r;
        if (role_group[r] == SHGROUP)
          shinst[(size_t)beta * m + j] = inst;
      }
    }
}

struct outcome {
  unsigned long long count;
  int vals[NVALS + 1];
};

static bool by_vals(const outcome &a, const outcome &b) {
  for (int k = 0; k < NVALS; k++)
    if (a.vals[k] != b.vals[k])
      return a.vals[k] < b.vals[k];
  return false;
}

static int is_sc(const int *v) {
  for (long s = 0; s < n_sc; s++) {
    int k;
    for (k = 0; k < NVALS; k++)
      if (sc_states[s][k] != (long long)v[k])
        break;
    if (k == NVALS)
      return 1;
  }
  return 0;
}

/* The options carry warplab cuda's names (--blocks N or --blocks=N);
 * the short forms of earlier programs (-b N) still work. */
static const char *prog = "test";

/* The value of option argv[*i] when it is lng or shrt, else NULL. */
static const char *opt_val(int argc, char **argv, int *i, const char *lng,
                           const char *shrt) {
  const char *a = argv[*i];
  size_t n = strlen(lng);
  if (strncmp(a, lng, n) == 0 && a[n] == '=')
    return a + n + 1;
  if (strcmp(a, lng) != 0 && (shrt == NULL || strcmp(a, shrt) != 0))
    return NULL;
  if (*i + 1 >= argc) {
    fprintf(stderr, "%s: %s needs a value (see --help)\n", prog, a);
    exit(2);
  }
  return argv[++*i];
}

static long opt_num(const char *opt, const char *v, long lo, long hi) {
  char *end;
  long x = strtol(v, &end, 10);
  if (end == v || *end != '\0' || x < lo || x > hi) {
    fprintf(stderr, "%s: %s takes %ld..%ld, not '%s'\n", prog, opt, lo, hi,
            v);
    exit(2);
  }
  return x;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [options]  (test %s)\n"
          "  --blocks N        test blocks per launch (-b; default %d)\n"
          "  --threads N       threads per block (-t; %d)\n"
          "  --launches N      launches (-n; %d)\n"
          "  --stress N        extra blocks of memory stress (-s; %d)\n"
          "  --stress-iters N  accesses per stress thread (-i; %d)\n"
          "  --spacing N       words between instances' copies (-w; %d)\n"
          "  --seed S          seed of the thread-to-role tables (-r; %llu)\n"
          "  --budget N        backward branches per role (-B; %d)\n"
          "  --no-shuffle      roles in order, not drawn at random\n"
          "  --sm any|same|different\n"
          "                    count the instances by the SMs their blocks\n"
          "                    ran on (-S; %s)\n"
          "  --perms N         tables of roles (-p; 16)\n"
          "  --device D        the CUDA device (-d; 0)\n"
          "  --rounds N        accepted, unused: two-GPU programs only\n"
          "  --help            this text (-h)\n",
          prog, test_name, DEF_BLOCKS, DEF_THREADS, DEF_LAUNCHES, DEF_STRESS,
          DEF_STRESS_ITERS, DEF_SPACING, (unsigned long long)DEF_SEED,
          DEF_BUDGET, sm_word[DEF_SM]);
}

int main(int argc, char **argv) {
  int blocks = DEF_BLOCKS, threads = DEF_THREADS, launches = DEF_LAUNCHES;
  int nstress = DEF_STRESS, stress_iters = DEF_STRESS_ITERS;
  int spacing = DEF_SPACING, budget = DEF_BUDGET, shuffle = DEF_SHUFFLE;
  int device = 0, perms = 16, m, drv = 0, rtv = 0;
  unsigned long long seed = DEF_SEED, hung = 0, overflow = 0, pos = 0,
                     neg = 0, wide = 0, misc[5];
  int sm = DEF_SM, resident = 0;
  cudaDeviceProp prop;
  params p;
  slot *dtab;
  unsigned long long *dmisc;
  int *droles, *dshinst, *dgrpblk;
  cudaEvent_t ev0, ev1;
  float ms = 0;
  char date[64];
  time_t now = time(NULL);
  prog = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = opt_val(argc, argv, &i, "--blocks", "-b")) != NULL)
      blocks = (int)opt_num("--blocks", v, 1, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--threads", "-t")) != NULL)
      threads = (int)opt_num("--threads", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--launches", "-n")) != NULL)
      launches = (int)opt_num("--launches", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--stress", "-s")) != NULL)
      nstress = (int)opt_num("--stress", v, 0, 1 << 16);
    else if ((v = opt_val(argc, argv, &i, "--stress-iters", "-i")) != NULL)
      stress_iters = (int)opt_num("--stress-iters", v, 0, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--spacing", "-w")) != NULL)
      spacing = (int)opt_num("--spacing", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--budget", "-B")) != NULL)
      budget = (int)opt_num("--budget", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--perms", "-p")) != NULL)
      perms = (int)opt_num("--perms", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--device", "-d")) != NULL)
      device = (int)opt_num("--device", v, 0, 64);
    else if ((v = opt_val(argc, argv, &i, "--seed", "-r")) != NULL)
      seed = (unsigned long long)opt_num("--seed", v, 0, 2147483647);
    else if ((v = opt_val(argc, argv, &i, "--rounds", NULL)) != NULL)
      (void)opt_num("--rounds", v, 1, 1 << 20);
    else if (strcmp(argv[i], "--no-shuffle") == 0)
      shuffle = 0;
    else if ((v = opt_val(argc, argv, &i, "--sm", "-S")) != NULL) {
      if (strcmp(v, "any") == 0)
        sm = SM_ANY;
      else if (strcmp(v, "same") == 0)
        sm = SM_SAME;
      else if (strcmp(v, "different") == 0)
        sm = SM_DIFFERENT;
      else {
        fprintf(stderr, "%s: --sm takes any, same or different, not '%s'\n",
                prog, v);
        return 2;
      }
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[i]);
      usage(stderr);
      return 2;
    }
  }
  m = threads / NROLES;
  if (m >= 32)
    m -= m % 32; /* whole warps per role: roles in different warps */
  if (m < 1 || blocks < NGROUPS ||
      (long long)blocks * threads > 0x7FFFFFFFLL / NROLES) {
    fprintf(stderr, "%s: %d blocks of %d threads cannot hold the test\n",
            test_name, blocks, threads);
    return 2;
  }
  if (sm != SM_ANY && NGROUPS < 2) {
    fprintf(stderr, "%s: --sm %s: the test's threads are in one CTA, so "
            "every instance runs on one SM\n", test_name, sm_word[sm]);
    return 2;
  }
  rng = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  CHECK(cudaSetDevice(device));
  CHECK(cudaGetDeviceProperties(&prop, device));
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rtv));
  memset(&p, 0, sizeof p);
  p.ninst = (unsigned long long)blocks * m;
  p.m = m;
  p.spacing = spacing;
  p.budget = budget;
  p.stress_blocks = nstress;
  p.stress_iters = stress_iters;
  p.scratch_words = 1 << 20;
  p.sm = sm;
  CHECK(cudaMalloc(&p.gmem, (size_t)NLOCS * p.ninst * spacing * 4 + 4));
  CHECK(cudaMalloc(&p.regs, (size_t)p.ninst * NREGS * 4 + 4));
  CHECK(cudaMalloc(&p.hung, (size_t)p.ninst * 4 + 4));
  CHECK(cudaMalloc(&p.shfinal, (size_t)NSHARED * p.ninst * 4 + 4));
  CHECK(cudaMalloc(&p.scratch, (size_t)p.scratch_words * 4));
  CHECK(cudaMemset(p.scratch, 0, (size_t)p.scratch_words * 4));
  CHECK(cudaMalloc(&dtab, sizeof(slot) * HSLOTS));
  CHECK(cudaMemset(dtab, 0, sizeof(slot) * HSLOTS));
  CHECK(cudaMalloc(&dmisc, sizeof misc));
  CHECK(cudaMemset(dmisc, 0, sizeof misc));
  CHECK(cudaMalloc(&p.blocksm, (size_t)(nstress + blocks) * 4));
  std::vector<unsigned> blocksm(nstress + blocks);
  if (sm == SM_SAME) {
    /* a probe launch of the test's shape: where the blocks go */
    p.probe = 1;
    test_kernel<<<nstress + blocks, threads,
                  (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4>>>(p);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(blocksm.data(), p.blocksm, blocksm.size() * 4,
                     cudaMemcpyDeviceToHost));
    p.probe = 0;
  }
  {
    std::vector<int> tab((size_t)perms * blocks * threads);
    std::vector<int> sh((size_t)perms * blocks * m);
    std::vector<int> gb((size_t)perms * NGROUPS * blocks);
    for (int k = 0; k < perms; k++)
      build_roles(&tab[(size_t)k * blocks * threads],
                  &sh[(size_t)k * blocks * m],
                  &gb[(size_t)k * NGROUPS * blocks], blocks, threads, m,
                  shuffle, sm == SM_SAME ? blocksm.data() + nstress : NULL);
    CHECK(cudaMalloc(&dgrpblk, gb.size() * sizeof(int)));
    CHECK(cudaMemcpy(dgrpblk, gb.data(), gb.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&droles, tab.size() * sizeof(int)));
    CHECK(cudaMalloc(&dshinst, sh.size() * sizeof(int)));
    CHECK(cudaMemcpy(droles, tab.data(), tab.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dshinst, sh.data(), sh.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
  }
  CHECK(cudaEventCreate(&ev0));
  CHECK(cudaEventCreate(&ev1));
  CHECK(cudaEventRecord(ev0));
  for (int l = 0; l < launches; l++) {
    int k = l % perms;
    p.roles = droles + (size_t)k * blocks * threads;
    p.shinst = dshinst + (size_t)k * blocks * m;
    p.grpblk = dgrpblk + (size_t)k * NGROUPS * blocks;
    reset_kernel<<<1024, 256>>>(p);
    test_kernel<<<nstress + blocks, threads,
                  (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4>>>(p);
    count_kernel<<<(unsigned)((p.ninst + 255) / 256), 256>>>(p, dtab,
                                                            dmisc);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev1));
  if (sm != SM_ANY)
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, test_kernel, threads,
        (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4));
  CHECK(cudaEventSynchronize(ev1));
  CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  std::vector<slot> tab(HSLOTS);
  std::vector<outcome> outs;
  CHECK(cudaMemcpy(tab.data(), dtab, sizeof(slot) * HSLOTS,
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(misc, dmisc, sizeof misc, cudaMemcpyDeviceToHost));
  hung = misc[0];
  overflow = misc[1];
  wide = misc[4];
  for (int k = 0; k < HSLOTS; k++)
    if (tab[k].state == 2u) {
      outcome o;
      o.count = tab[k].count;
      memcpy(o.vals, tab[k].vals, sizeof o.vals);
      outs.push_back(o);
    }
  std::sort(outs.begin(), outs.end(), by_vals);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  printf("# warplab cuda: test %s (%s)\n", test_name, test_file);
  printf("# gpu: %s (sm_%d%d, %d SMs), CUDA driver API %d.%d, "
         "runtime %d.%d\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         drv / 1000, drv % 1000 / 10, rtv / 1000, rtv % 1000 / 10);
  printf("# date: %s\n", date);
  printf("# harness: blocks %d threads %d roles %d instances/launch %llu "
         "launches %d stress %d iters %d spacing %d shuffle %d perms %d "
         "seed %llu budget %d\n",
         blocks, threads, NROLES, p.ninst, launches, nstress, stress_iters,
         spacing, shuffle, perms, seed, budget);
  if (sm != SM_ANY)
    printf("# sm: %s (counted: the instances whose CTAs' blocks ran on %s); "
           "instances on one SM %llu, on several SMs %llu; blocks a launch "
           "%d, resident at once at most %d\n",
           sm_word[sm], sm == SM_SAME ? "one SM" : "several SMs", misc[2],
           misc[3], nstress + blocks, resident * prop.multiProcessorCount);
  if (sm == SM_SAME)
    printf("# sm: the CTAs of an instance were put in blocks that a probe "
           "launch saw on one SM\n");
  printf("Test %s %s\nHistogram (%zu states)\n", test_name,
         COND_KIND == 0 ? "Allowed" : COND_KIND == 2 ? "Required"
                                                     : "Forbidden",
         outs.size());
  for (size_t k = 0; k < outs.size(); k++) {
    int sat = cond_holds(outs[k].vals);
    printf("%-10llu%s", outs[k].count, sat ? "*>" : ":>");
    for (int v = 0; v < NVALS; v++) {
      if (var_thread[v] >= 0)
        printf("%s%d:", v ? " " : "", var_thread[v]);
      else if (v)
        printf(" ");
      printf("%s=%d;", var_name[v], outs[k].vals[v]);
    }
    if (n_sc >= 0 && !is_sc(outs[k].vals))
      printf(" weak");
    printf("\n");
    if (sat)
      pos += outs[k].count;
    else
      neg += outs[k].count;
  }
  {
    int ok = COND_KIND == 0 ? pos > 0 : COND_KIND == 2 ? neg == 0 : pos == 0;
    printf("%s\nWitnesses\nPositive: %llu, Negative: %llu\n",
           ok ? "Ok" : "No", pos, neg);
    printf("Condition %s %s is %svalidated\n",
           COND_KIND == 0 ? "exists" : COND_KIND == 2 ? "forall" : "~exists",
           cond_text, ok ? "" : "NOT ");
    printf("Observation %s %s %llu %llu\n", test_name,
           pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes", pos, neg);
    if (hung)
      printf("Hung %s %llu of %llu runs did not terminate\n", test_name,
             hung, (unsigned long long)launches * p.ninst);
    if (wide)
      printf("Wide %s %llu of %llu runs made a value outside 32 bits (not "
             "counted: the model's values are 64-bit)\n", test_name, wide,
             (unsigned long long)launches * p.ninst);
    if (overflow)
      printf("# %llu outcomes not counted: the table of states is full\n",
             overflow);
    printf("Time %s %.2f\n\n", test_name, ms / 1000.0);
  }
  return overflow ? 1 : 0;
}

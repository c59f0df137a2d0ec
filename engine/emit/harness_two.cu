/* ---------------------------------------------------------------- */
/* The two-GPU harness: the same text for every test                  */

#define CHECK(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf(stderr, "%s: %s: %s\n", test_name, #call, \
              cudaGetErrorString(err_)); \
      exit(1); \
    } \
  } while (0)

struct params {
  unsigned *gmem[2];       /* per GPU: NLOCS arrays of ninst copies, spacing
                              apart (a location uses its home's) */
  int *regs[2];            /* per GPU: ninst x NREGS, its roles' registers */
  unsigned *hung[2];       /* per GPU: ninst flags */
  unsigned *done;          /* NROLES x nslots: rounds finished (on HS_GPU) */
  const int *roles;        /* this GPU's table: blocks x threads:
                              slot * NROLES + role, or -1 */
  unsigned *scratch;       /* this GPU's stress target when spacing == 1 */
  unsigned long long nslots, ninst, scratch_words, timeout_ns;
  int gpu, m, rounds, spacing, budget, stress_blocks, stress_iters;
};

__global__ void reset_kernel(params p) {
  unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long i0 = (unsigned long long)blockIdx.x * blockDim.x +
                          threadIdx.x;
  unsigned long long words = (unsigned long long)NLOCS * p.ninst * p.spacing;
  unsigned *g = p.gmem[p.gpu];
  for (unsigned long long i = i0; i < words; i += step) {
    unsigned long long copy = i / p.spacing;
    g[i] = i % p.spacing == 0 ? (unsigned)loc_init[copy / p.ninst] : 0u;
  }
  for (unsigned long long i = i0; i < p.ninst; i += step)
    p.hung[p.gpu][i] = 0;
  if (p.gpu == HS_GPU)
    for (unsigned long long i = i0; i < NROLES * p.nslots; i += step)
      p.done[i] = 0;
}

static __device__ __forceinline__ unsigned ld_sys(const unsigned *a) {
  unsigned v;
  asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(a)
               : "memory");
  return v;
}

static __device__ __forceinline__ void st_sys(unsigned *a, unsigned v) {
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(a), "r"(v)
               : "memory");
}

static __device__ __forceinline__ unsigned long long now_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Loads and stores on the test's cache lines in this GPU's memory (the
 * words between the instances' copies) or on a scratch area. */
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
      a = p.gmem[p.gpu] + copy * p.spacing + 1 + (r >> 40) % (p.spacing - 1);
    } else {
      a = p.scratch + r % p.scratch_words;
    }
    if (it & 1)
      acc += *a;
    else
      *a = acc + it;
  }
  if (acc == 0xFFFFFFFFu)
    p.hung[p.gpu][0] = 0; /* keeps the loads */
}

/* Waits until every other role of the slot has finished round r - 1;
 * false after timeout_ns. */
static __device__ bool wait_round(const params &p, unsigned long long slot,
                                  int role, int r) {
  unsigned long long t0 = 0;
  for (int q = 0; q < NROLES; q++) {
    const unsigned *d = p.done + (unsigned long long)q * p.nslots + slot;
    unsigned spins = 0;
    if (q == role)
      continue;
    while (ld_sys(d) < (unsigned)r)
      if ((++spins & 255u) == 0u) {
        unsigned long long t = now_ns();
        if (t0 == 0)
          t0 = t;
        else if (t - t0 > p.timeout_ns)
          return false;
      }
  }
  return true;
}

__global__ void test_kernel(params p) {
  int b, code, role;
  unsigned long long slot;
  unsigned *mine;
  if ((int)blockIdx.x < p.stress_blocks) {
    stress(p);
    return;
  }
  b = (int)blockIdx.x - p.stress_blocks;
  code = p.roles[(size_t)b * blockDim.x + threadIdx.x];
  if (code < 0)
    return;
  slot = (unsigned)code / NROLES;
  role = (unsigned)code % NROLES;
  mine = p.done + (unsigned long long)role * p.nslots + slot;
  for (int r = 0; r < p.rounds; r++) {
    unsigned long long inst = (unsigned long long)r * p.nslots + slot;
    unsigned *loc[NLOCS + 1];
    if (!wait_round(p, slot, role, r)) {
      for (; r < p.rounds; r++)
        p.hung[p.gpu][(unsigned long long)r * p.nslots + slot] = 1;
      asm volatile("fence.sc.sys;" ::: "memory");
      st_sys(mine, (unsigned)p.rounds); /* the others go on without it */
      return;
    }
    for (int l = 0; l < NLOCS; l++)
      loc[l] = &p.gmem[loc_home[l]][((unsigned long long)l * p.ninst + inst) *
                                    p.spacing];
    dispatch(role, loc, p.regs[p.gpu] + inst * NREGS, p.hung[p.gpu] + inst,
             p.budget);
    asm volatile("fence.sc.sys;" ::: "memory");
    st_sys(mine, (unsigned)r + 1);
  }
}

/* An open-addressing table of final states, filled on GPU 0. */
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
  if (p.hung[0][i] || p.hung[1][i]) {
    /* 1: hung (misc[0]); 2 only: a value left 32 bits (misc[2]) */
    atomicAdd(&misc[(p.hung[0][i] | p.hung[1][i]) == 2u ? 2 : 0], 1ULL);
    return;
  }
  for (int r = 0; r < NREGS; r++)
    v[r] = p.regs[reg_gpu[r]][i * NREGS + r];
  for (int l = 0; l < NLOCS; l++)
    v[NREGS + l] =
        (int)p.gmem[loc_home[l]][((unsigned long long)l * p.ninst + i) *
                                 p.spacing];
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

/* GPU g's table of roles: slot block ib's group c goes to block
 * (pi[ib] + c * off) % B, so groups of one slot are in distinct blocks;
 * in its block, role r takes region r (m threads) at a position drawn
 * per region.  Roles of the other GPU leave their regions idle. */
static void build_roles(int *tab, int g, int B, int S, int m, int shuffle) {
  std::vector<int> pi(B), pos(m);
  int off = 0;
  for (int k = 0; k < B * S; k++)
    tab[k] = -1;
  for (int k = 0; k < B; k++)
    pi[k] = k;
  if (shuffle)
    shuffle_ints(pi.data(), B);
  if (NGROUPS > 1) {
    int maxoff = (B - 1) / (NGROUPS > 1 ? NGROUPS - 1 : 1);
    off = shuffle ? 1 + (int)(rnd() % (unsigned long long)maxoff) : 1;
  }
  for (int ib = 0; ib < B; ib++)
    for (int r = 0; r < NROLES; r++) {
      int beta = (int)((pi[ib] + (long long)role_group[r] * off) % B);
      if (role_gpu[r] != g)
        continue;
      for (int j = 0; j < m; j++)
        pos[j] = j;
      if (shuffle)
        shuffle_ints(pos.data(), m);
      for (int j = 0; j < m; j++)
        tab[(size_t)beta * S + r * m + pos[j]] = (ib * m + j) * NROLES + r;
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
          "usage: %s [options]  (test %s, on GPUs 0 and 1)\n"
          "  --blocks N        test blocks per launch (-b; default %d)\n"
          "  --threads N       threads per block (-t; %d)\n"
          "  --launches N      launches (-n; %d)\n"
          "  --rounds N        instances each slot runs per launch (-R; %d)\n"
          "  --stress N        extra blocks of memory stress (-s; %d)\n"
          "  --stress-iters N  accesses per stress thread (-i; %d)\n"
          "  --spacing N       words between instances' copies (-w; %d)\n"
          "  --seed S          seed of the thread-to-role tables (-r; %llu)\n"
          "  --budget N        backward branches per role (-B; %d)\n"
          "  --no-shuffle      roles in order, not drawn at random\n"
          "  --perms N         tables of roles (-p; 16)\n"
          "  --timeout-ms N    how long a role waits for its slot (-T; 2000)\n"
          "  --sm any          accepted: two GPUs count every instance\n"
          "  --help            this text (-h)\n",
          prog, test_name, DEF_BLOCKS, DEF_THREADS, DEF_LAUNCHES, DEF_ROUNDS,
          DEF_STRESS, DEF_STRESS_ITERS, DEF_SPACING,
          (unsigned long long)DEF_SEED, DEF_BUDGET);
}

/* The one-GPU harness's option that a is (--harness or --harness=...),
 * or NULL. */
static const char *one_gpu_option(const char *a) {
  static const char *const names[] = {
      "--harness", "--sync", "--sync-spins", "--place", "--pre-stress",
      "--stress-pattern", "--stress-lines", "--line-words", "--delay",
      "--gap", "--tune", "--check-roles", NULL};
  for (int k = 0; names[k] != NULL; k++) {
    size_t n = strlen(names[k]);
    if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '='))
      return names[k];
  }
  return NULL;
}

static void sync_both(void) {
  for (int g = 0; g < 2; g++) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaDeviceSynchronize());
  }
}

int main(int argc, char **argv) {
  int blocks = DEF_BLOCKS, threads = DEF_THREADS, launches = DEF_LAUNCHES;
  int nstress = DEF_STRESS, stress_iters = DEF_STRESS_ITERS;
  int spacing = DEF_SPACING, budget = DEF_BUDGET, shuffle = DEF_SHUFFLE;
  int rounds = DEF_ROUNDS, timeout_ms = 2000, has[2] = {0, 0};
  int perms = 16, m, drv = 0, rtv = 0, ngpus = 0, peer01 = 0, peer10 = 0;
  unsigned long long seed = DEF_SEED, hung = 0, overflow = 0, pos = 0,
                     neg = 0, wide = 0, misc[3];
  cudaDeviceProp prop[2];
  params p[2];
  slot *dtab;
  unsigned long long *dmisc;
  unsigned *done;
  int *droles[2];
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
    else if ((v = opt_val(argc, argv, &i, "--rounds", "-R")) != NULL)
      rounds = (int)opt_num("--rounds", v, 1, 1 << 20);
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
    else if ((v = opt_val(argc, argv, &i, "--timeout-ms", "-T")) != NULL)
      timeout_ms = (int)opt_num("--timeout-ms", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--seed", "-r")) != NULL)
      seed = (unsigned long long)opt_num("--seed", v, 0, 2147483647);
    else if (strcmp(argv[i], "--no-shuffle") == 0)
      shuffle = 0;
    else if ((v = opt_val(argc, argv, &i, "--sm", "-S")) != NULL) {
      if (strcmp(v, "any") != 0) {
        fprintf(stderr, "%s: --sm %s: a two-GPU program counts every "
                "instance (--sm any)\n", prog, v);
        return 2;
      }
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (one_gpu_option(argv[i]) != NULL) {
      fprintf(stderr, "%s: %s is an option of one-GPU programs; this "
              "two-GPU program holds the roles of a slot to rounds (see "
              "--help)\n", prog, one_gpu_option(argv[i]));
      return 2;
    } else if (strncmp(argv[i], "--stream", 8) == 0) {
      fprintf(stderr, "%s: --stream: the streaming program is another "
              "program (warplab cuda --stream K)\n", prog);
      return 2;
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
      (long long)blocks * threads > 0x7FFFFFFFLL / NROLES ||
      (long long)blocks * m * rounds > 0x7FFFFFFFLL) {
    fprintf(stderr, "%s: %d blocks of %d threads and %d rounds cannot hold "
            "the test\n", test_name, blocks, threads, rounds);
    return 2;
  }
  for (int r = 0; r < NROLES; r++)
    has[role_gpu[r]] = 1;
  rng = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  CHECK(cudaGetDeviceCount(&ngpus));
  if (ngpus < 2) {
    fprintf(stderr, "%s: the test runs on two GPUs; this machine has %d\n",
            test_name, ngpus);
    return 2;
  }
  CHECK(cudaDeviceCanAccessPeer(&peer01, 0, 1));
  CHECK(cudaDeviceCanAccessPeer(&peer10, 1, 0));
  if (!peer01 || !peer10) {
    fprintf(stderr, "%s: GPUs 0 and 1 have no peer access to each other "
            "(%s); the test needs it\n", test_name,
            !peer01 && !peer10 ? "both ways" : !peer01 ? "0 to 1" : "1 to 0");
    return 2;
  }
  for (int g = 0; g < 2; g++) {
    cudaError_t e;
    int per_sm = 0;
    CHECK(cudaSetDevice(g));
    e = cudaDeviceEnablePeerAccess(1 - g, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
      (void)cudaGetLastError();
    else
      CHECK(e);
    CHECK(cudaGetDeviceProperties(&prop[g], g));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, test_kernel,
                                                        threads, 0));
    if (has[g] && (long long)per_sm * prop[g].multiProcessorCount < blocks) {
      fprintf(stderr, "%s: GPU %d holds %d blocks of %d threads at once, "
              "fewer than %d: the rounds need every block running\n",
              test_name, g, per_sm * prop[g].multiProcessorCount, threads,
              blocks);
      return 2;
    }
  }
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rtv));
  memset(p, 0, sizeof p);
  p[0].nslots = (unsigned long long)blocks * m;
  p[0].ninst = p[0].nslots * rounds;
  p[0].m = m;
  p[0].rounds = rounds;
  p[0].spacing = spacing;
  p[0].budget = budget;
  p[0].stress_blocks = nstress;
  p[0].stress_iters = stress_iters;
  p[0].scratch_words = 1 << 20;
  p[0].timeout_ns = (unsigned long long)timeout_ms * 1000000ULL;
  for (int g = 0; g < 2; g++) {
    size_t ninst = p[0].ninst;
    CHECK(cudaSetDevice(g));
    CHECK(cudaMalloc(&p[0].gmem[g], (size_t)NLOCS * ninst * spacing * 4 + 4));
    CHECK(cudaMalloc(&p[0].regs[g], ninst * NREGS * 4 + 4));
    CHECK(cudaMalloc(&p[0].hung[g], ninst * 4 + 4));
    if (g == HS_GPU) {
      CHECK(cudaMalloc(&done, (size_t)NROLES * p[0].nslots * 4));
      p[0].done = done;
    }
  }
  p[1] = p[0];
  for (int g = 0; g < 2; g++) {
    std::vector<int> tab((size_t)perms * blocks * threads);
    p[g].gpu = g;
    CHECK(cudaSetDevice(g));
    CHECK(cudaMalloc(&p[g].scratch, (size_t)p[g].scratch_words * 4));
    CHECK(cudaMemset(p[g].scratch, 0, (size_t)p[g].scratch_words * 4));
    for (int k = 0; k < perms; k++)
      build_roles(&tab[(size_t)k * blocks * threads], g, blocks, threads, m,
                  shuffle);
    CHECK(cudaMalloc(&droles[g], tab.size() * sizeof(int)));
    CHECK(cudaMemcpy(droles[g], tab.data(), tab.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
  }
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc(&dtab, sizeof(slot) * HSLOTS));
  CHECK(cudaMemset(dtab, 0, sizeof(slot) * HSLOTS));
  CHECK(cudaMalloc(&dmisc, sizeof misc));
  CHECK(cudaMemset(dmisc, 0, sizeof misc));
  CHECK(cudaEventCreate(&ev0));
  CHECK(cudaEventCreate(&ev1));
  CHECK(cudaEventRecord(ev0));
  for (int l = 0; l < launches; l++) {
    int k = l % perms;
    for (int g = 0; g < 2; g++) {
      CHECK(cudaSetDevice(g));
      p[g].roles = droles[g] + (size_t)k * blocks * threads;
      reset_kernel<<<1024, 256>>>(p[g]);
    }
    sync_both();
    for (int g = 0; g < 2; g++)
      if (has[g]) {
        CHECK(cudaSetDevice(g));
        test_kernel<<<nstress + blocks, threads>>>(p[g]);
      }
    sync_both();
    CHECK(cudaSetDevice(0));
    count_kernel<<<(unsigned)((p[0].ninst + 255) / 256), 256>>>(p[0], dtab,
                                                               dmisc);
    CHECK(cudaDeviceSynchronize());
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev1));
  CHECK(cudaEventSynchronize(ev1));
  CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  std::vector<slot> tab(HSLOTS);
  std::vector<outcome> outs;
  CHECK(cudaMemcpy(tab.data(), dtab, sizeof(slot) * HSLOTS,
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(misc, dmisc, sizeof misc, cudaMemcpyDeviceToHost));
  hung = misc[0];
  overflow = misc[1];
  wide = misc[2];
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
  for (int g = 0; g < 2; g++)
    printf("# gpu %d: %s (sm_%d%d, %d SMs, PCI %04x:%02x:%02x)%s\n", g,
           prop[g].name, prop[g].major, prop[g].minor,
           prop[g].multiProcessorCount, prop[g].pciDomainID,
           prop[g].pciBusID, prop[g].pciDeviceID,
           has[g] ? "" : ", no threads");
  printf("# gpus: 2, peer access both ways, CUDA driver API %d.%d, "
         "runtime %d.%d\n",
         drv / 1000, drv % 1000 / 10, rtv / 1000, rtv % 1000 / 10);
  printf("# date: %s\n", date);
  printf("# harness: blocks %d threads %d roles %d slots %llu rounds %d "
         "instances/launch %llu launches %d stress %d iters %d spacing %d "
         "shuffle %d perms %d seed %llu budget %d timeout_ms %d "
         "handshake_gpu %d\n",
         blocks, threads, NROLES, p[0].nslots, rounds, p[0].ninst, launches,
         nstress, stress_iters, spacing, shuffle, perms, seed, budget,
         timeout_ms, HS_GPU);
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
             hung, (unsigned long long)launches * p[0].ninst);
    if (wide)
      printf("Wide %s %llu of %llu runs made a value outside 32 bits (not "
             "counted: the model's values are 64-bit)\n", test_name, wide,
             (unsigned long long)launches * p[0].ninst);
    if (overflow)
      printf("# %llu outcomes not counted: the table of states is full\n",
             overflow);
    printf("Time %s %.2f\n\n", test_name, ms / 1000.0);
  }
  return overflow ? 1 : 0;
}

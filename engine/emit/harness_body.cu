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

/* --stress-pattern: what each stress iteration does on its line
 * (GPUHarbor / MC Mutants: store-store, store-load, load-store,
 * load-load); random is the plain harness's mix over the whole scratch
 * area (or the test's lines with --spacing above 1) */
#define PAT_RANDOM 0
static const char *const pat_word[] = {"random", "ss", "sl", "ls", "ll"};
#define NPATS 5

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
  unsigned *arrive;        /* ninst rendezvous counters */
  int sync, sync_spins;    /* --sync: roles meet before they start */
  int pattern, lines, line_words, pre_stress;
  unsigned long long stress_base; /* the launch's first stress line */
  int delay;               /* --delay: waits drawn in [0, delay) cycles */
  int gap;                 /* --gap: a stall in each role, [0, gap) */
  unsigned long long delay_salt; /* the launch's draw (delay_salt()) */
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
  for (unsigned long long i = i0; i < p.ninst; i += step) {
    p.hung[i] = 0;
    p.arrive[i] = 0;
  }
}

/* Loads and stores on the test's cache lines (the words between the
 * instances' copies) or on a scratch area, from blocks of their own. */
static __device__ void stress(const params &p, int iters) {
  unsigned long long x = ((unsigned long long)blockIdx.x << 10 | threadIdx.x)
                         * 0x9E3779B97F4A7C15ULL + 1;
  unsigned acc = 0;
  if (p.pattern != PAT_RANDOM) {
    /* GPUHarbor's stress lines: LINES lines of LINE_WORDS words, drawn
     * anew per launch from the scratch area; threads go round-robin over
     * the lines, each on one word of its line */
    unsigned long long gid = (unsigned long long)blockIdx.x * blockDim.x +
                             threadIdx.x;
    unsigned long long nl = p.scratch_words / (unsigned)p.line_words;
    unsigned long long line =
        (p.stress_base + gid % (unsigned)p.lines * 97ULL) % nl;
    volatile unsigned *a = p.scratch + line * (unsigned)p.line_words +
                           gid / (unsigned)p.lines % (unsigned)p.line_words;
    for (int it = 0; it < iters; it++) {
      switch (p.pattern) {
      case 1: *a = (unsigned)it; *a = (unsigned)it + 1; break;
      case 2: *a = (unsigned)it; acc += *a; break;
      case 3: acc += *a; *a = (unsigned)it; break;
      default: acc += *a; acc += *a; break;
      }
    }
    if (acc == 0xFFFFFFFFu)
      p.hung[0] = 0; /* keeps the loads */
    return;
  }
  for (int it = 0; it < iters; it++) {
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
    stress(p, p.stress_iters);
    return;
  }
  b = (int)blockIdx.x - p.stress_blocks;
  code = p.roles[(size_t)b * blockDim.x + threadIdx.x];
#if NSHARED > 0
  for (int k = threadIdx.x; k < NSHARED * p.m; k += blockDim.x)
    smem[k] = (unsigned)sh_init[k / p.m];
  __syncthreads();
#endif
  if (code >= 0 && (p.pre_stress > 0 || p.sync)) {
    unsigned long long inst = (unsigned)code / NROLES;
    if (p.pre_stress > 0)
      stress(p, p.pre_stress);
    if (p.sync) {
      /* litmus7's rendezvous: each role announces itself and waits for
       * the others of its instance; a role whose partners are not there
       * after SYNC_SPINS polls gives up and the instance is counted as
       * unsynchronised (hung 3), not as an outcome */
      volatile unsigned *c = p.arrive + inst;
      int s = 0;
      atomicAdd(p.arrive + inst, 1u);
      while (*c < (unsigned)NROLES && s < p.sync_spins)
        s++;
      if (*c < (unsigned)NROLES) {
        atomicMax(p.hung + inst, 3u);
        code = -1;
      }
    }
  }
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
    if (p.delay > 0) {
      /* the warp's drawn wait (role_delay: per warp, see there) */
      long long t0 = clock64(),
                w = role_delay(p.delay_salt, blockIdx.x, threadIdx.x / 32,
                               (unsigned)p.delay);
      while (clock64() - t0 < w)
        ;
    }
    dispatch(role, loc, p.regs + inst * NREGS, p.hung + inst, p.budget,
             role_gap(p.delay_salt, blockIdx.x, threadIdx.x / 32,
                      role_len(role), (unsigned)p.gap));
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
  if (p.sync && p.hung[i] == 0u && p.arrive[i] != (unsigned)NROLES)
    p.hung[i] = 3u; /* a role never ran: never counted as an outcome */
  if (p.hung[i]) {
    /* 1: hung (misc[0]); 2: a value left 32 bits (misc[4]); 3: the
     * rendezvous gave up (misc[5]) */
    atomicAdd(&misc[p.hung[i] == 3u ? 5 : p.hung[i] == 2u ? 4 : 0], 1ULL);
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


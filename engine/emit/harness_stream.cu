 *
 * The streaming harness (warplab cuda --stream K): an MP test whose
 * writer and reader are on GPUs 0 and 1.  It needs two GPUs, CUDA
 * devices 0 and 1 (the test's gpu 0 and gpu 1), with peer access.
 *
 * Build: nvcc -O3 -arch=sm_90 -o test test.cu   (sm_70 or later)
 * Run:   ./test [--stream K] [--blocks N] [--threads N] [--launches N]
 *          [--spacing N] [--timeout-ms N]   (./test --help lists them;
 *          --stream=K works too)
 *
 * BLOCKS x THREADS writer/reader pairs run at once, a GPU thread each
 * side.  Pair i has its own data and flag words (SPACING words apart),
 * each in its home GPU's memory (the test's `x = 0 @ gpu 1`; the other
 * GPU reaches it through peer access).  The writer runs K rounds back to
 * back: for k = 1..K it stores data = k, runs its fence (if the test has
 * one) and stores flag = k, with the test's own instructions.  The
 * reader, for k = 1..K, polls the flag with the test's load until it
 * reads f >= k, runs its fence, and loads the data: a read; weak when
 * the data is older than the flag it saw (d < f), the test's condition
 * "flag new, data old".  A reader that waits longer than TIMEOUT_MS for
 * a flag gives up (its pair counts as timed out; the reads it made
 * stand).  Each launch starts from data = flag = 0.
 *
 * Prints the reads as a histogram in the format of `warplab sample`,
 * each read one run of the test's one-shot form: the flag register
 * holds the writer's flag value, the data register its data value (a
 * read that is not weak) or the data's initial value (weak), the
 * locations their final values; `warplab compare OUTPUT TEST.litmus`
 * puts it beside what the PTX model allows.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

#define CHECK(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf(stderr, "%s: %s: %s\n", test_name, #call, \
              cudaGetErrorString(err_)); \
      exit(1); \
    } \
  } while (0)

struct sparams {
  unsigned *data, *flag;     /* pairs x spacing words, on their homes */
  unsigned long long *count; /* on the reader's GPU: reads, weak, timed
                                out pairs */
  unsigned long long pairs, timeout_ns;
  int rounds, spacing;
};

static __device__ __forceinline__ unsigned long long now_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void writer_kernel(sparams p) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x +
                         threadIdx.x;
  unsigned *d, *f;
  if (i >= p.pairs)
    return;
  d = p.data + i * p.spacing;
  f = p.flag + i * p.spacing;
  for (unsigned k = 1; k <= (unsigned)p.rounds; k++) {
    w_st_data(d, k);
    w_fence();
    w_st_flag(f, k);
  }
}

__global__ void reader_kernel(sparams p) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x +
                         threadIdx.x;
  unsigned long long reads = 0, weak = 0;
  unsigned *d, *f;
  int late = 0;
  if (i >= p.pairs)
    return;
  d = p.data + i * p.spacing;
  f = p.flag + i * p.spacing;
  for (unsigned k = 1; k <= (unsigned)p.rounds && !late; k++) {
    unsigned fv, dv, spins = 0;
    unsigned long long t0 = 0;
    while ((fv = r_ld_flag(f)) < k)
      if ((++spins & 255u) == 0u) {
        unsigned long long t = now_ns();
        if (t0 == 0)
          t0 = t;
        else if (t - t0 > p.timeout_ns) {
          late = 1;
          break;
        }
      }
    if (late)
      break;
    r_fence();
    dv = r_ld_data(d);
    reads++;
    weak += dv < fv;
  }
  atomicAdd(&p.count[0], reads);
  atomicAdd(&p.count[1], weak);
  if (late)
    atomicAdd(&p.count[2], 1ULL);
}

static const char *prog = "test";

/* The value of option argv[*i] when it is lng, else NULL. */
static const char *opt_val(int argc, char **argv, int *i, const char *lng) {
  const char *a = argv[*i];
  size_t n = strlen(lng);
  if (strncmp(a, lng, n) == 0 && a[n] == '=')
    return a + n + 1;
  if (strcmp(a, lng) != 0)
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
          "usage: %s [options]  (test %s streaming, on GPUs 0 and 1)\n"
          "  --stream K        rounds each writer/reader pair runs (%d)\n"
          "  --blocks N        blocks of pairs per launch (%d)\n"
          "  --threads N       pairs per block (%d)\n"
          "  --launches N      launches (%d)\n"
          "  --spacing N       words between pairs' copies (%d)\n"
          "  --timeout-ms N    how long a reader waits for a flag (2000)\n"
          "  --help            this text (-h)\n"
          "The options of the one-GPU harness and of the two-GPU rounds "
          "(--rounds,\n--stress, --seed, --harness, ...) do not apply to "
          "the stream.\n",
          prog, test_name, DEF_STREAM, DEF_BLOCKS, DEF_THREADS,
          DEF_LAUNCHES, DEF_SPACING);
}

static void sync_both(void) {
  for (int g = 0; g < 2; g++) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaDeviceSynchronize());
  }
}

static void put_state(unsigned long long n, const int *v, int sat, int weak) {
  printf("%-10llu%s", n, sat ? "*>" : ":>");
  for (int k = 0; k < NVALS; k++) {
    if (var_thread[k] >= 0)
      printf("%s%d:", k ? " " : "", var_thread[k]);
    else if (k)
      printf(" ");
    printf("%s=%d;", var_name[k], v[k]);
  }
  printf("%s\n", weak ? " weak" : "");
}

int main(int argc, char **argv) {
  int rounds = DEF_STREAM, blocks = DEF_BLOCKS, threads = DEF_THREADS;
  int launches = DEF_LAUNCHES, spacing = DEF_SPACING, timeout_ms = 2000;
  int drv = 0, rtv = 0, ngpus = 0, peer01 = 0, peer10 = 0, ok;
  unsigned long long count[3] = {0, 0, 0}, *dcount, pos, neg, runs;
  cudaDeviceProp prop[2];
  sparams p;
  unsigned *words[2];
  size_t nwords;
  cudaEvent_t ev0, ev1;
  float ms = 0;
  char date[64];
  time_t now = time(NULL);
  prog = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = opt_val(argc, argv, &i, "--stream")) != NULL)
      rounds = (int)opt_num("--stream", v, 1, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--blocks")) != NULL)
      blocks = (int)opt_num("--blocks", v, 1, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--threads")) != NULL)
      threads = (int)opt_num("--threads", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--launches")) != NULL)
      launches = (int)opt_num("--launches", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--spacing")) != NULL)
      spacing = (int)opt_num("--spacing", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--timeout-ms")) != NULL)
      timeout_ms = (int)opt_num("--timeout-ms", v, 1, 1 << 30);
    else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "%s: '%s' is no option of the streaming program: it "
              "takes --stream, --blocks, --threads, --launches, --spacing "
              "and --timeout-ms (see --help)\n", prog, argv[i]);
      return 2;
    }
  }
  if ((long long)blocks * threads * spacing > 0x7FFFFFFFLL) {
    fprintf(stderr, "%s: %d blocks of %d pairs, %d words apart, do not "
            "fit\n", test_name, blocks, threads, spacing);
    return 2;
  }
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
    CHECK(cudaSetDevice(g));
    e = cudaDeviceEnablePeerAccess(1 - g, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
      (void)cudaGetLastError();
    else
      CHECK(e);
    CHECK(cudaGetDeviceProperties(&prop[g], g));
  }
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rtv));
  memset(&p, 0, sizeof p);
  p.pairs = (unsigned long long)blocks * threads;
  p.rounds = rounds;
  p.spacing = spacing;
  p.timeout_ns = (unsigned long long)timeout_ms * 1000000ULL;
  nwords = (size_t)p.pairs * spacing;
  for (int g = 0; g < 2; g++) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaMalloc(&words[g], 2 * nwords * 4));
  }
  p.data = words[DATA_HOME];
  p.flag = words[FLAG_HOME] + nwords;
  CHECK(cudaSetDevice(R_GPU));
  CHECK(cudaMalloc(&dcount, sizeof count));
  CHECK(cudaMemset(dcount, 0, sizeof count));
  p.count = dcount;
  CHECK(cudaEventCreate(&ev0));
  CHECK(cudaEventCreate(&ev1));
  CHECK(cudaEventRecord(ev0));
  for (int l = 0; l < launches; l++) {
    for (int g = 0; g < 2; g++) {
      CHECK(cudaSetDevice(g));
      CHECK(cudaMemset(words[g], 0, 2 * nwords * 4));
    }
    sync_both();
    CHECK(cudaSetDevice(R_GPU));
    reader_kernel<<<blocks, threads>>>(p);
    CHECK(cudaSetDevice(W_GPU));
    writer_kernel<<<blocks, threads>>>(p);
    sync_both();
  }
  CHECK(cudaSetDevice(R_GPU));
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev1));
  CHECK(cudaEventSynchronize(ev1));
  CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  CHECK(cudaMemcpy(count, dcount, sizeof count, cudaMemcpyDeviceToHost));
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  printf("# warplab cuda --stream: test %s (%s)\n", test_name, test_file);
  for (int g = 0; g < 2; g++)
    printf("# gpu %d: %s (sm_%d%d, %d SMs, PCI %04x:%02x:%02x), the %s\n",
           g, prop[g].name, prop[g].major, prop[g].minor,
           prop[g].multiProcessorCount, prop[g].pciDomainID,
           prop[g].pciBusID, prop[g].pciDeviceID,
           g == W_GPU ? "writer" : "reader");
  printf("# gpus: 2, peer access both ways, CUDA driver API %d.%d, "
         "runtime %d.%d\n",
         drv / 1000, drv % 1000 / 10, rtv / 1000, rtv % 1000 / 10);
  printf("# date: %s\n", date);
  printf("# stream: pairs %llu rounds %d launches %d spacing %d timeout_ms "
         "%d writer_gpu %d reader_gpu %d data_home %d flag_home %d\n",
         p.pairs, rounds, launches, spacing, timeout_ms, W_GPU, R_GPU,
         DATA_HOME, FLAG_HOME);
  printf("# stream: %llu reads, %llu weak (%.3g), %llu of %llu pairs timed "
         "out\n", count[0], count[1],
         count[0] ? (double)count[1] / (double)count[0] : 0.0, count[2],
         p.pairs * launches);
  runs = count[0];
  pos = (state_cond[0] ? runs - count[1] : 0) +
        (state_cond[1] ? count[1] : 0);
  neg = runs - pos;
  printf("Test %s %s\nHistogram (%d states)\n", test_name,
         COND_KIND == 0 ? "Allowed" : COND_KIND == 2 ? "Required"
                                                     : "Forbidden",
         (runs > count[1]) + (count[1] > 0));
  if (runs > count[1])
    put_state(runs - count[1], state_vals[0], state_cond[0], 0);
  if (count[1] > 0)
    put_state(count[1], state_vals[1], state_cond[1], 1);
  ok = COND_KIND == 0 ? pos > 0 : COND_KIND == 2 ? neg == 0 : pos == 0;
  printf("%s\nWitnesses\nPositive: %llu, Negative: %llu\n", ok ? "Ok" : "No",
         pos, neg);
  printf("Condition %s %s is %svalidated\n",
         COND_KIND == 0 ? "exists" : COND_KIND == 2 ? "forall" : "~exists",
         cond_text, ok ? "" : "NOT ");
  printf("Observation %s %s %llu %llu\n", test_name,
         pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes", pos, neg);
  printf("Time %s %.2f\n\n", test_name, ms / 1000.0);
  return 0;
}

// two_gpu.cu -- MP and SB across two GPUs through peer memory (NVLink or
// PCIe): thread T0 of a pair runs on GPU 0, T1 on GPU 1; x, y and the
// pair's handshake words live on the home GPU (0 or 1).  Round r = 1..R:
// both threads wait for the other's previous round, run the test body
// with the value r, and publish whether their load was stale:
//   MP  T0: st x=r; F; st y=r        T1: a=ld y; F; b=ld x   weak: a==r, b<r
//   SB  T0: st x=r; F; a=ld y        T1: st y=r; F; b=ld x   weak: a<r, b<r
// F is nothing, fence.sc.cta, fence.sc.gpu or fence.sc.sys; accesses are
// ld/st.relaxed.sys.  Prints one TSV row per shape x fence x home:
//   shape fence home pairs rounds weak
// Build: nvcc -O3 -arch=sm_90 -o two_gpu two_gpu.cu; needs 2 GPUs with
// peer access.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s: %s\n", #c, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ void st_sys(unsigned *p, unsigned v) {
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned ld_sys(const unsigned *p) {
  unsigned v;
  asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void fence(int f) {
  if (f == 1) asm volatile("fence.sc.cta;" ::: "memory");
  if (f == 2) asm volatile("fence.sc.gpu;" ::: "memory");
  if (f == 3) asm volatile("fence.sc.sys;" ::: "memory");
}

// words per pair: x, y, done0, done1 (each in its own 128-byte line)
#define W 32
__global__ void role(unsigned *m, int side, int sb, int f, int rounds,
                     unsigned long long *weak, unsigned *timeout) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *x = m + (size_t)j * 4 * W, *y = x + W, *d0 = x + 2 * W,
           *d1 = x + 3 * W;
  unsigned long long nweak = 0;
  for (int r = 1; r <= rounds; r++) {
    unsigned other, stale;
    long spin = 0;
    // wait for the other's round r-1
    while (((other = ld_sys(side ? d0 : d1)) >> 1) < (unsigned)(r - 1))
      if (++spin > (1L << 26)) { atomicExch(timeout, 1u); return; }
    if (side == 0) {
      st_sys(x, r);
      fence(f);
      if (sb) stale = ld_sys(y) < (unsigned)r;
      else { st_sys(y, r); stale = 0; }
    } else {
      if (sb) {
        st_sys(y, r);
        fence(f);
        stale = ld_sys(x) < (unsigned)r;
      } else {
        unsigned a = ld_sys(y);
        fence(f);
        unsigned b = ld_sys(x);
        stale = a == (unsigned)r && b < (unsigned)r;
      }
    }
    asm volatile("fence.sc.sys;" ::: "memory");
    st_sys(side ? d1 : d0, (unsigned)r << 1 | stale);
    if (side == 1) {
      if (!sb) nweak += stale;
      else {
        // T0's flag for round r comes with its done word
        unsigned o;
        spin = 0;
        while (((o = ld_sys(d0)) >> 1) < (unsigned)r)
          if (++spin > (1L << 26)) { atomicExch(timeout, 1u); return; }
        nweak += stale && (o & 1u) && (o >> 1) == (unsigned)r;
      }
    }
  }
  if (side == 1)
    atomicAdd(weak, nweak);
}

int main(int argc, char **argv) {
  int n = 0, pairs = 2048, rounds = argc > 1 ? atoi(argv[1]) : 2000;
  const char *fn[] = {"none", "fence.sc.cta", "fence.sc.gpu", "fence.sc.sys"};
  CHECK(cudaGetDeviceCount(&n));
  if (n < 2) { fprintf(stderr, "two_gpu: %d GPU(s); needs 2\n", n); return 2; }
  int ok01 = 0, ok10 = 0;
  CHECK(cudaDeviceCanAccessPeer(&ok01, 0, 1));
  CHECK(cudaDeviceCanAccessPeer(&ok10, 1, 0));
  if (!ok01 || !ok10) { fprintf(stderr, "two_gpu: no peer access\n"); return 2; }
  CHECK(cudaSetDevice(0)); CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaSetDevice(1)); CHECK(cudaDeviceEnablePeerAccess(0, 0));
  unsigned *mem[2], *to[2];
  unsigned long long *wk;
  size_t bytes = (size_t)pairs * 4 * W * 4;
  for (int g = 0; g < 2; g++) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaMalloc(&mem[g], bytes));
    CHECK(cudaMalloc(&to[g], 4));
  }
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&wk, 8));
  printf("shape\tfence\thome\tpairs\trounds\tweak\ttimeout\tms\n");
  for (int sb = 0; sb < 2; sb++)
    for (int f = 0; f < 4; f++)
      for (int home = 0; home < 2; home++) {
        unsigned long long w = 0;
        unsigned t0 = 0, t1 = 0;
        CHECK(cudaSetDevice(home));
        CHECK(cudaMemset(mem[home], 0, bytes));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaSetDevice(1));
        CHECK(cudaMemset(wk, 0, 8));
        CHECK(cudaMemset(to[1], 0, 4));
        CHECK(cudaSetDevice(0));
        CHECK(cudaMemset(to[0], 0, 4));
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
        CHECK(cudaEventRecord(a));
        role<<<pairs / 128, 128>>>(mem[home], 0, sb, f, rounds, wk, to[0]);
        CHECK(cudaSetDevice(1));
        role<<<pairs / 128, 128>>>(mem[home], 1, sb, f, rounds, wk, to[1]);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaSetDevice(0));
        CHECK(cudaEventRecord(b));
        CHECK(cudaDeviceSynchronize());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        CHECK(cudaMemcpy(&t0, to[0], 4, cudaMemcpyDeviceToHost));
        CHECK(cudaSetDevice(1));
        CHECK(cudaMemcpy(&w, wk, 8, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&t1, to[1], 4, cudaMemcpyDeviceToHost));
        printf("%s\t%s\t%d\t%d\t%d\t%llu\t%u\t%.1f\n", sb ? "SB" : "MP", fn[f],
               home, pairs, rounds, w, t0 | t1, ms);
        fflush(stdout);
      }
  return 0;
}

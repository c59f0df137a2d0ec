// shared_probe2.cu -- more 8- and 16-byte shared-memory patterns for the
// bank rule (how tests/hw/shared_wavefronts_gathers.tsv was measured):
// random gathers in small ranges, a few distinct words shared by many
// lanes, partial active masks.  Each pattern is one launch of one warp,
// one ld/st.shared.v2/v4.u32, lanes outside the mask predicated off; the
// patterns come from a fixed seed, so the program prints the same list
// (one line per launch, in launch order: name op width mask offsets...)
// every time.  Profile it with
//   ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum ./shared_probe2
#include <cstdio>
#include <cstdint>
#include <vector>
#include <string>

#define SMEM 32768

template <int W, int ST>
__global__ void probe(const unsigned *off, unsigned mask, unsigned *out) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  unsigned lane = threadIdx.x;
  unsigned a = (unsigned)__cvta_generic_to_shared(sm) + off[lane];
  unsigned v0 = lane, v1 = 0, v2 = 0, v3 = 0;
  if ((mask >> lane) & 1u) {
    if (ST) {
      if (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(a), "r"(v0), "r"(v1));
      if (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
    } else {
      if (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a));
      if (W == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
    }
  }
  out[lane] = v0 + v1 + v2 + v3;
}

struct pat { std::string name; int st, w; unsigned mask; unsigned off[32]; };
static std::vector<pat> P;
static unsigned long long rs = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned n) {
  rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27;
  return (unsigned)(((rs * 0x2545F4914F6CDD1DULL) >> 33) % n);
}

static unsigned rmask(int kind) {
  unsigned m = 0;
  switch (kind) {
  case 0: return 0xffffffffu;
  case 1: for (int i = 0; i < 32; i++) if (rnd(2)) m |= 1u << i; break;
  case 2: for (int i = 0; i < 32; i++) if (rnd(4) == 0) m |= 1u << i; break;
  case 3: for (int i = 0; i < 32; i++) if (rnd(4) != 0) m |= 1u << i; break;
  default: { unsigned lo = rnd(32), n = 1 + rnd(32 - lo);
             for (unsigned i = lo; i < lo + n; i++) m |= 1u << i; } break;
  }
  return m ? m : 1u;
}

int main() {
  static const char *mk[] = {"full", "half", "quarter", "threequarters", "run"};
  for (int st = 0; st < 2; st++)
    for (int wi = 0; wi < 2; wi++) {
      int w = wi ? 16 : 8;
      // random gathers: each lane a random element of a small range
      for (int range = 2; range <= 128; range *= 2)
        for (int m = 0; m < 5; m++)
          for (int rep = 0; rep < (range <= 16 ? 2 : 1); rep++) {
            pat p; p.st = st; p.w = w; p.mask = rmask(m);
            p.name = "gather" + std::to_string(range) + "_" + mk[m];
            for (int i = 0; i < 32; i++) p.off[i] = rnd(range) * w;
            P.push_back(p);
          }
      // few distinct words, random in a 4 KB window (often one bank)
      for (int k = 1; k <= 8; k++)
        for (int m = 0; m < 5; m++) {
          pat p; p.st = st; p.w = w; p.mask = rmask(m);
          unsigned words[8];
          p.name = "distinct" + std::to_string(k) + "_" + mk[m];
          for (int j = 0; j < k; j++) words[j] = rnd(4096 / w) * w;
          for (int i = 0; i < 32; i++) p.off[i] = words[rnd(k)];
          P.push_back(p);
        }
      // few distinct words all in one bank group (multiples of 128 B)
      for (int k = 2; k <= 6; k++)
        for (int m = 0; m < 3; m++) {
          pat p; p.st = st; p.w = w; p.mask = rmask(m);
          unsigned base = rnd(128 / w) * w;
          p.name = "samebank" + std::to_string(k) + "_" + mk[m];
          for (int i = 0; i < 32; i++) p.off[i] = base + rnd(k) * 128 * (1 + rnd(3));
          P.push_back(p);
        }
    }
  unsigned *d, *o;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  cudaMalloc(&o, 32 * sizeof(unsigned));
  for (auto &p : P) {
    for (int i = 0; i < 32; i++)
      if (p.off[i] % p.w || p.off[i] + p.w > SMEM) { fprintf(stderr, "bad %s\n", p.name.c_str()); return 1; }
    cudaMemcpy(d, p.off, sizeof p.off, cudaMemcpyHostToDevice);
    if (p.w == 8 && !p.st) probe<8, 0><<<1, 32>>>(d, p.mask, o);
    if (p.w == 8 && p.st) probe<8, 1><<<1, 32>>>(d, p.mask, o);
    if (p.w == 16 && !p.st) probe<16, 0><<<1, 32>>>(d, p.mask, o);
    if (p.w == 16 && p.st) probe<16, 1><<<1, 32>>>(d, p.mask, o);
    cudaDeviceSynchronize();
    printf("%s\t%s\t%d\t0x%08x\t", p.name.c_str(), p.st ? "st" : "ld", p.w, p.mask);
    for (int i = 0; i < 32; i++) printf(i ? " %u" : "%u", p.off[i]);
    printf("\n");
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  fprintf(stderr, "%zu patterns\n", P.size());
  return 0;
}

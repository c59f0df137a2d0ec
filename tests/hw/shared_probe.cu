// shared_probe.cu -- measures shared-memory wavefronts and bank conflicts of
// one warp-wide ld/st.shared per pattern on a real GPU (how the rows of
// tests/hw/shared_wavefronts_more.tsv were measured).  Each pattern is one
// kernel launch of one warp; profile it with
//   ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum ./shared_probe
// The program prints one line per launch (in launch order):
//   name op width mask offsets...
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
      if (W == 1) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "h"((unsigned short)v0));
      if (W == 2) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"((unsigned short)v0));
      if (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v0));
      if (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(a), "r"(v0), "r"(v1));
      if (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
    } else {
      unsigned short h = 0;
      if (W == 1) { asm volatile("ld.shared.u8 %0, [%1];" : "=h"(h) : "r"(a)); v0 = h; }
      if (W == 2) { asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a)); v0 = h; }
      if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a));
      if (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a));
      if (W == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
    }
  }
  out[lane] = v0 + v1 + v2 + v3;
}

struct pat { std::string name; int st, w; unsigned mask; unsigned off[32]; };

static std::vector<pat> P;
template <class F> static void add(const char *name, int st, int w, unsigned mask, F f) {
  pat p; p.name = name; p.st = st; p.w = w; p.mask = mask;
  for (int i = 0; i < 32; i++) p.off[i] = (unsigned)f(i);
  P.push_back(p);
}

template <int W, int ST> static void go(const unsigned *d, unsigned mask, unsigned *o) {
  probe<W, ST><<<1, 32>>>(d, mask, o);
}

int main() {
  const unsigned ALL = 0xffffffffu;
  for (int st = 0; st < 2; st++) {
    int ws[2] = {8, 16};
    for (int k = 0; k < 2; k++) {
      int w = ws[k];
      add("stride1", st, w, ALL, [w](int i) { return i * w; });
      add("broadcast", st, w, ALL, [](int) { return 0; });
      add("two_addr_one_bank", st, w, ALL, [w](int i) { return (i % 2) * 32 * w; });
      add("four_addr_one_bank", st, w, ALL, [w](int i) { return (i % 4) * 32 * w; });
      add("three_addr_one_bank", st, w, ALL, [w](int i) { return (i % 3) * 32 * w; });
      add("pairs_share_word", st, w, ALL, [w](int i) { return (i / 2) * w; });
      add("half_bcast_half_conflict", st, w, ALL, [w](int i) { return i < 16 ? 5 * w : 128 * w + 32 * w * (i - 16); });
      if (st == 0) {
        add("halves_bcast_two_words", st, w, ALL, [w](int i) { return i < 16 ? 0 : 32 * w; });
        add("halves_two_pairs_of_addr", st, w, ALL, [w](int i) { return (i < 16 ? 0 : 64 * w) + (i % 2) * 32 * w; });
        add("halves_same_words", st, w, ALL, [w](int i) { return (i % 16) * w; });
        add("quarters_same_words", st, w, ALL, [w](int i) { return (i % 8) * w; });
        add("half_three_addr_half_bcast", st, w, ALL, [w](int i) { return i < 16 ? (i % 3) * 32 * w : 5 * w; });
        add("half_two_addr_half_bcast", st, w, ALL, [w](int i) { return i < 16 ? (i % 2) * 32 * w : 5 * w; });
        add("even_bcast_odd_conflict", st, w, ALL, [w](int i) { return i % 2 == 0 ? 5 * w : 128 * w + 32 * w * (i / 2); });
        add("four_addr_one_bank_low_half", st, w, 0x0000ffffu, [w](int i) { return (i % 4) * 32 * w; });
        add("four_addr_one_bank_low_quarter", st, w, 0x000000ffu, [w](int i) { return (i % 4) * 32 * w; });
        add("two_addr_one_bank_low_half", st, w, 0x0000ffffu, [w](int i) { return (i % 2) * 32 * w; });
        add("two_addr_one_bank_even_lanes", st, w, 0x55555555u, [w](int i) { return (i % 2) * 32 * w; });
        add("half_bcast_low_half", st, w, 0x0000ffffu, [w](int i) { return i < 16 ? 5 * w : 128 * w + 32 * w * (i - 16); });
        add("broadcast_low_quarter", st, w, 0x000000ffu, [](int) { return 0; });
        add("broadcast_one_lane", st, w, 0x00000001u, [](int) { return 0; });
        add("stride1_low_half", st, w, 0x0000ffffu, [w](int i) { return i * w; });
        add("stride1_lanes_0_8_16_24", st, w, 0x01010101u, [w](int i) { return i * w; });
        add("bcast_lanes_0_8_16_24", st, w, 0x01010101u, [](int) { return 0; });
      }
    }
  }
  add("stride2", 1, 8, ALL, [](int i) { return i * 16; });
  add("stride1", 0, 1, ALL, [](int i) { return i; });
  add("stride4", 0, 1, ALL, [](int i) { return i * 4; });
  add("stride128", 0, 1, ALL, [](int i) { return i * 128; });
  add("four_addr_one_bank_bytes", 0, 1, ALL, [](int i) { return (i % 4) * 128 + i / 4; });
  add("stride1", 0, 2, ALL, [](int i) { return i * 2; });
  add("stride32", 0, 2, ALL, [](int i) { return i * 64; });
  add("stride1", 1, 1, ALL, [](int i) { return i; });
  add("stride128", 1, 1, ALL, [](int i) { return i * 128; });
  add("stride32", 1, 2, ALL, [](int i) { return i * 64; });

  unsigned *d, *o;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  cudaMalloc(&o, 32 * sizeof(unsigned));
  for (auto &p : P) {
    for (int i = 0; i < 32; i++)
      if (p.off[i] % p.w || p.off[i] + p.w > SMEM) { fprintf(stderr, "bad %s\n", p.name.c_str()); return 1; }
    cudaMemcpy(d, p.off, sizeof p.off, cudaMemcpyHostToDevice);
    switch (p.w * 2 + p.st) {
      case 2: go<1, 0>(d, p.mask, o); break;  case 3: go<1, 1>(d, p.mask, o); break;
      case 4: go<2, 0>(d, p.mask, o); break;  case 5: go<2, 1>(d, p.mask, o); break;
      case 8: go<4, 0>(d, p.mask, o); break;  case 9: go<4, 1>(d, p.mask, o); break;
      case 16: go<8, 0>(d, p.mask, o); break; case 17: go<8, 1>(d, p.mask, o); break;
      case 32: go<16, 0>(d, p.mask, o); break; case 33: go<16, 1>(d, p.mask, o); break;
    }
    cudaDeviceSynchronize();
    printf("%s\t%s\t%d\t0x%08x\t", p.name.c_str(), p.st ? "st" : "ld", p.w, p.mask);
    for (int i = 0; i < 32; i++) printf(i ? " %u" : "%u", p.off[i]);
    printf("\n");
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}

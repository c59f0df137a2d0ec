// shared_probe4.cu -- 8- and 16-byte shared-memory loads and stores read
// from standard input (how tests/hw/shared_wavefronts_pairs.tsv was
// measured), one pattern a line:
//   NAME OP WIDTH MASK OFF0 ... OFF31
// (OP ld or st, WIDTH 8 or 16, MASK in hex, byte offsets per lane).  Each
// pattern is one launch of one warp doing one ld/st.shared.v2/v4.u32 with
// the lanes outside MASK predicated off (the kernel of shared_probe2.cu);
// the pattern is printed back in launch order.  Profile it with
//   python3 shared_probe4_patterns.py > list
//   ncu --csv --log-file ncu.csv --metrics \
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
//   ./shared_probe4 < list > patterns
// and pair the CSV's IDs (launch order) with the lines of `patterns`.
#include <cstdio>

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

int main() {
  char name[64], op[4];
  int w;
  unsigned mask, off[32], *d, *o;
  cudaMalloc(&d, sizeof off);
  cudaMalloc(&o, sizeof off);
  while (scanf("%63s %3s %d %x", name, op, &w, &mask) == 4) {
    for (int i = 0; i < 32; i++)
      if (scanf("%u", &off[i]) != 1) return 1;
    for (int i = 0; i < 32; i++)
      if (off[i] % w || off[i] + w > SMEM) { fprintf(stderr, "bad %s\n", name); return 1; }
    cudaMemcpy(d, off, sizeof off, cudaMemcpyHostToDevice);
    int st = op[0] == 's';
    if (w == 8) {
      if (st) probe<8, 1><<<1, 32>>>(d, mask, o);
      else probe<8, 0><<<1, 32>>>(d, mask, o);
    } else {
      if (st) probe<16, 1><<<1, 32>>>(d, mask, o);
      else probe<16, 0><<<1, 32>>>(d, mask, o);
    }
    cudaDeviceSynchronize();
    printf("%s\t%s\t%d\t0x%08x\t", name, op, w, mask);
    for (int i = 0; i < 32; i++) printf(i ? " %u" : "%u", off[i]);
    printf("\n");
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}

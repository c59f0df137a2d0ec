// shared_probe3.cu -- targeted 8- and 16-byte shared-memory loads for the
// bank rule's phase question (how tests/hw/shared_wavefronts_phases.tsv
// was measured).  Reads patterns from standard input, one a line:
//   NAME WIDTH MASK OFF0 ... OFF31
// (WIDTH 8 or 16, MASK in hex, byte offsets per lane), launches one warp
// per pattern doing one ld.shared.v2/v4.u32 with the lanes outside MASK
// predicated off, and prints the pattern back in launch order.  Profile
// it with
//   ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ./probe3 < list
// and pair the CSV's rows (by ID, in launch order) with the lines printed.
#include <cstdio>
#include <cstdlib>

#define SMEM 32768

template <int W>
__global__ void probe(const unsigned *off, unsigned mask, unsigned *out) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  unsigned lane = threadIdx.x;
  unsigned a = (unsigned)__cvta_generic_to_shared(sm) + off[lane];
  unsigned v0 = lane, v1 = 0, v2 = 0, v3 = 0;
  if ((mask >> lane) & 1u) {
    if (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a));
    if (W == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
  }
  out[lane] = v0 + v1 + v2 + v3;
}

int main() {
  char name[128];
  int w;
  unsigned mask, off[32], *d, *o;
  cudaMalloc(&d, sizeof off);
  cudaMalloc(&o, sizeof off);
  while (scanf("%127s %d %x", name, &w, &mask) == 3) {
    for (int i = 0; i < 32; i++)
      if (scanf("%u", &off[i]) != 1) return 1;
    for (int i = 0; i < 32; i++)
      if (off[i] % w || off[i] + w > SMEM) { fprintf(stderr, "bad %s\n", name); return 1; }
    cudaMemcpy(d, off, sizeof off, cudaMemcpyHostToDevice);
    if (w == 8) probe<8><<<1, 32>>>(d, mask, o);
    else probe<16><<<1, 32>>>(d, mask, o);
    cudaDeviceSynchronize();
    printf("%s\tld\t%d\t0x%08x\t", name, w, mask);
    for (int i = 0; i < 32; i++) printf(i ? " %u" : "%u", off[i]);
    printf("\n");
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}

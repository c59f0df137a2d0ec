/* cuda_runtime.h -- a stand-in for CUDA's, so that a program written by
 * `warplab cuda` builds with the host's C++ compiler where nvcc is
 * missing (tests/cli/cuda.sh, cuda_escape.sh): tests/cuda_stub/host.sh
 * first turns kernel launches (<<<...>>>) into plain calls and inline
 * PTX into WL_ASM(...), which this header drops.  Every runtime call
 * fails with "no CUDA device", so the program can parse its options and
 * print its help, and stops with a message where it needs a GPU. */
#ifndef WL_CUDA_STUB_H
#define WL_CUDA_STUB_H

#include <cstddef>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__
#define __forceinline__ inline
#define WL_ASM(...) ((void)0)

struct wl_dim3 {
  unsigned x, y, z;
};
static wl_dim3 threadIdx, blockIdx, blockDim, gridDim;
/* the dynamic __shared__ array the program declares extern */
unsigned smem[1];

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorNoDevice = 100,
  cudaErrorPeerAccessAlreadyEnabled = 704
} cudaError_t;
typedef enum cudaMemcpyKind {
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2
} cudaMemcpyKind;
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount;
  int pciDomainID, pciBusID, pciDeviceID;
};

static inline const char *cudaGetErrorString(cudaError_t) {
  return "no CUDA device (host-compiler stand-in)";
}
#define WL_FAIL(...) { return cudaErrorNoDevice; }
static inline cudaError_t cudaSetDevice(int) WL_FAIL()
static inline cudaError_t cudaGetDeviceCount(int *) WL_FAIL()
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *,
                                                  int) WL_FAIL()
static inline cudaError_t cudaDriverGetVersion(int *) WL_FAIL()
static inline cudaError_t cudaRuntimeGetVersion(int *) WL_FAIL()
static inline cudaError_t cudaDeviceSynchronize(void) WL_FAIL()
static inline cudaError_t cudaGetLastError(void) WL_FAIL()
static inline cudaError_t cudaDeviceCanAccessPeer(int *, int, int) WL_FAIL()
static inline cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) WL_FAIL()
template <class T> cudaError_t cudaMalloc(T **, size_t) WL_FAIL()
static inline cudaError_t cudaMemset(void *, int, size_t) WL_FAIL()
static inline cudaError_t cudaMemcpy(void *, const void *, size_t,
                                     cudaMemcpyKind) WL_FAIL()
static inline cudaError_t cudaEventCreate(cudaEvent_t *) WL_FAIL()
static inline cudaError_t cudaEventDestroy(cudaEvent_t) WL_FAIL()
static inline cudaError_t cudaFree(void *) WL_FAIL()
static inline cudaError_t cudaEventRecord(cudaEvent_t, int = 0) WL_FAIL()
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) WL_FAIL()
static inline cudaError_t cudaEventElapsedTime(float *, cudaEvent_t,
                                               cudaEvent_t) WL_FAIL()
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, F, int,
                                                          size_t) WL_FAIL()

static inline unsigned atomicAdd(unsigned *a, unsigned v) {
  unsigned o = *a;
  *a += v;
  return o;
}
static inline unsigned long long atomicAdd(unsigned long long *a,
                                           unsigned long long v) {
  unsigned long long o = *a;
  *a += v;
  return o;
}
static inline unsigned atomicMax(unsigned *a, unsigned v) {
  unsigned o = *a;
  if (v > o)
    *a = v;
  return o;
}
static inline unsigned atomicCAS(unsigned *a, unsigned c, unsigned v) {
  unsigned o = *a;
  if (o == c)
    *a = v;
  return o;
}
static inline unsigned atomicExch(unsigned *a, unsigned v) {
  unsigned o = *a;
  *a = v;
  return o;
}
static inline void __threadfence(void) {}
static inline void __threadfence_system(void) {}
static inline void __syncthreads(void) {}
/* a clock that moves: the harness's waits (--delay) end */
static inline long long clock64(void) {
  static long long t;
  return t += 64;
}

#endif

// What the CUDA probes here share: the SM a thread runs on, and stopping with the failed call's
// name when a CUDA call fails.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

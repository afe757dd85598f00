// A failed assert: the CUDA runtime's __assertfail, which prints where and traps.
#include <cassert>

__global__ void assert_below(const int* x, int* out, int limit) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(x[i] < limit);
  out[i] = x[i] * 2;
}

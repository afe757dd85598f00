// Packed half comparisons (HSETP2, HSET2 and its .BF form) and the SIMD byte differences
// (VABSDIFF4), which the IR does not import: the kernel runs on its SASS alone. The halves are
// random bits, NaNs and infinities among them.
#include <cuda_fp16.h>

__global__ void half_compare(const __half2* a, const __half2* b, __half2* less, unsigned* flags,
                             const unsigned* u, const unsigned* v, unsigned* bytes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half2 x = a[i], y = b[i];
  less[i] = __hlt2(x, y);  // each half 1.0 where x < y, else 0.0
  const __half lo = __low2half(x), hi = __high2half(y);
  flags[i] = (__hblt2(x, y) ? 1u : 0u) | (__hgt(lo, hi) ? 2u : 0u) | (__hisnan(lo) ? 4u : 0u) |
             (__hbgeu2(x, y) ? 8u : 0u);
  bytes[i] = __vabsdiffu4(u[i], v[i]);
  bytes[n + i] = __vabsdiffs4(u[i], v[i]);
}

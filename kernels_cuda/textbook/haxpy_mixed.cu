// Mixed-precision axpy, as inference code writes it: the vectors are __half2 pairs (one 32-bit
// load for two values), the arithmetic is in f32, the result is stored as halves, and a bfloat16
// copy and an f32 sum of each pair are kept beside it.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void haxpy_mixed(float a, const __half2* x, __half2* y, __nv_bfloat16* y_bf16,
                            float* pair_sum, int pairs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const __half2 xv = x[i];
  const __half2 yv = y[i];
  const float lo = a * __low2float(xv) + __low2float(yv);
  const float hi = a * __high2float(xv) + __high2float(yv);
  y[i] = __floats2half2_rn(lo, hi);
  y_bf16[2 * i] = __float2bfloat16(lo);
  y_bf16[2 * i + 1] = __float2bfloat16(hi);
  pair_sum[i] = lo + hi;
}

// Half and bfloat16 arithmetic beyond add and multiply: fma with relu, min and max (NaN-propagating),
// square roots, exponentials, reciprocals and division, on random bits (NaNs and infinities too).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_bf16_math(const __half2* a, const __half2* b, const __nv_bfloat162* c,
                               const __nv_bfloat162* d, __half2* oh, __nv_bfloat162* ob, float* of, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __nv_bfloat162 u = c[i], v = d[i];
  oh[4 * i + 0] = __hfma2_relu(x, y, __float2half2_rn(0.25f));
  oh[4 * i + 1] = __hmax2(x, y) + __hmin2_nan(x, y);
  oh[4 * i + 2] = h2sqrt(__habs2(x)) + h2exp(__hmul2_sat(x, y));
  oh[4 * i + 3] = h2rcp(y) + __h2div(x, y);
  ob[4 * i + 0] = __hfma2(u, v, u);
  ob[4 * i + 1] = __hmax2(u, v) - __hmin2(u, v);
  ob[4 * i + 2] = __hmul2(u, v) + __hadd2(u, __habs2(v));
  ob[4 * i + 3] = h2sqrt(__habs2(u));
  of[4 * i + 0] = __half2float(__hfma(__low2half(x), __high2half(y), __ushort_as_half(0x3c00)));
  of[4 * i + 1] = __bfloat162float(__low2bfloat16(u)) + __high2float(v);
  of[4 * i + 2] = __half2float(hexp(__low2half(x))) + __half2float(hlog(__habs(__high2half(y))));
  of[4 * i + 3] = (float)__half2int_rz(__low2half(y)) + __bfloat162float(__float2bfloat16_rz(of[4 * i + 1]));
}

// Packed half arithmetic (__half2, __nv_bfloat162), which the IR does not import (.f16x2): the
// kernel runs on its SASS alone (HADD2, HMUL2, HFMA2, HMNMX2 and their .BF16_V2 forms). The
// inputs are random bits: NaNs, infinities and subnormals among them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half2_arith(const __half2* a, const __half2* b, __half2* c,
                            __nv_bfloat162* d, const __nv_bfloat162* e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __half2 r = __hfma2(x, y, __hadd2(x, y));
  r = __hmul2(r, __hsub2(x, y));
  c[i] = __hmax2(r, __hmin2(x, y));
  __nv_bfloat162 u = e[i], v = e[(i + 1) % n];
  d[i] = __hmin2(__hfma2(u, v, __hadd2(u, v)), __hmul2(u, u));
}

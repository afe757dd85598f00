// Hopper's 8-bit floats: f16x2 and float2 to e4m3x2 and e5m2x2 (saturating) and back to halves.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void fp8forms(const __half2* h, const __nv_bfloat162* b, const float2* f, unsigned short* o, __half2* oh, float* of) {
  int i = threadIdx.x;
  o[4*i+0] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
  o[4*i+1] = __nv_cvt_bfloat16raw2_to_fp8x2(b[i], __NV_NOSAT, __NV_E5M2);
  o[4*i+2] = __nv_cvt_float2_to_fp8x2(f[i], __NV_NOSAT, __NV_E4M3);
  o[4*i+3] = __nv_cvt_halfraw_to_fp8(__low2half(h[i]), __NV_SATFINITE, __NV_E5M2);
  __half2_raw r = __nv_cvt_fp8x2_to_halfraw2(o[4*i+1], __NV_E5M2);
  oh[i] = __half2(r);
  __nv_fp8_e4m3 e; e.__x = (unsigned char)o[4*i];
  of[i] = float(e) + float(__nv_fp8_e5m2(f[i].x));
}

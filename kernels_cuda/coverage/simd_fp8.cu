// The SIMD video intrinsics on bytes and 16-bit halves (__vadd4, __vsub2, __vcmpeq4, __vmins2,
// __vavgu4 ...), __dp2a, and f32 to fp8 and back.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
__global__ void simd_fp8(const unsigned* u, const unsigned* v, const float* f, unsigned* out,
                         unsigned char* e4, unsigned char* e5, float* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = u[i], b = v[i];
  out[8 * i + 0] = __vadd4(a, b) ^ __vsub2(a, b);
  out[8 * i + 1] = __vcmpeq4(a, b) | __vcmpgtu2(a, b);
  out[8 * i + 2] = __vmaxu4(a, b) + __vmins2(a, b);
  out[8 * i + 3] = __vavgu4(a, b) ^ __vhaddu2(a, b);
  out[8 * i + 4] = __vabsss4(a) + __vneg2(b);
  out[8 * i + 5] = __vsetltu4(a, b) + __vsads2(a, b);
  out[8 * i + 6] = __dp2a_lo(a, b, 7u) + __dp2a_hi((int)a, (int)b, -3);
  out[8 * i + 7] = __vaddss2(a, b) ^ __vsubus4(a, b);
  __nv_fp8_e4m3 x(f[i]);
  __nv_fp8_e5m2 y(f[i] * 100.f);
  e4[i] = x.__x;
  e5[i] = y.__x;
  __nv_fp8x2_e4m3 pair(make_float2(f[i], -f[i] * 0.5f));
  back[2 * i] = float(x) + float(y);
  __half_raw low;
  low.x = __nv_cvt_fp8x2_to_halfraw2(pair.__x, __NV_E4M3).x;
  back[2 * i + 1] = __half2float(__half(low));
}

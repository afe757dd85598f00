// Conversions between f32/f64 and the 16-bit floats (__half, __nv_bfloat16), in every rounding
// CUDA names: thread i narrows the f32 whose bits are x[i] (and a double just above it, which
// must round once, not through f32) to f16 and bf16, and widens the 16-bit pattern i, so the
// 65,536 threads widen every f16 and every bf16 value, NaNs and subnormals among them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half_conversions(const unsigned* x, unsigned short* narrow, unsigned* wide,
                                 unsigned long long* wide64) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = __uint_as_float(x[i]);
  const double d = static_cast<double>(v) * (1.0 + 0x1p-30);
  unsigned short* out = narrow + 10 * i;
  out[0] = __half_as_ushort(__float2half_rn(v));
  out[1] = __half_as_ushort(__float2half_rz(v));
  out[2] = __half_as_ushort(__float2half_rd(v));
  out[3] = __half_as_ushort(__float2half_ru(v));
  out[4] = __bfloat16_as_ushort(__float2bfloat16_rn(v));
  out[5] = __bfloat16_as_ushort(__float2bfloat16_rz(v));
  out[6] = __bfloat16_as_ushort(__float2bfloat16_rd(v));
  out[7] = __bfloat16_as_ushort(__float2bfloat16_ru(v));
  out[8] = __half_as_ushort(__double2half(d));
  out[9] = __bfloat16_as_ushort(__double2bfloat16(d));
  const unsigned short pattern = static_cast<unsigned short>(i);
  wide[2 * i] = __float_as_uint(__half2float(__ushort_as_half(pattern)));
  wide[2 * i + 1] = __float_as_uint(__bfloat162float(__ushort_as_bfloat16(pattern)));
  wide64[i] = static_cast<unsigned long long>(
      __double_as_longlong(static_cast<double>(__half2float(__ushort_as_half(pattern)))));
}

// CUDA's conversions and rounding intrinsics as nvcc compiles them: float and double to every
// integer width in the four rounding modes and by C++ casts (saturating, NaN to 0), integers to
// float and double, the round-to-nearest, toward-zero, up and down arithmetic intrinsics, the
// rounding functions, half and bfloat16 conversions, and casts through short and char into
// 64-bit registers (PTX reads a wider register by its low bits). Each thread's inputs come from
// one random word in eight shapes: raw bits (NaNs, infinities, subnormals), small and large
// magnitudes, halves, negative halves, values near the 8-bit range, +-1e300, and subnormal doubles.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define OUT(k, e) o[kSlots * i + (k)] = (unsigned long long)(e)

__global__ void conversions(const unsigned long long* a, unsigned long long* o) {
  constexpr int kSlots = 147;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long bits = a[i];
  const int shape = i % 8;
  const double dx = shape == 0   ? __longlong_as_double(bits)
                    : shape == 1 ? (double)(long long)bits * 1e-10
                    : shape == 2 ? (double)(int)bits + 0.5
                    : shape == 3 ? -((double)(bits & 0xffff) + 0.5)
                    : shape == 4 ? (double)(bits & 0xff) - 128.5
                    : shape == 5 ? 1e300 * (bits & 1 ? -1 : 1)
                    : shape == 6 ? (double)(bits >> 11)
                                 : __longlong_as_double(bits & 0x800fffffffffffffull);
  float fx = shape == 0 ? __int_as_float((int)bits) : (float)dx;
  if (shape == 7) fx = __int_as_float((int)(bits & 0x807fffff));
  const short hx = (short)bits;
  int rx = (int)(bits >> 7);
  long long lx = (long long)bits;
  if (shape == 3) {
    rx = -rx;
    lx = -(lx >> 3);
  }
  int ex;
  OUT(0, __float2int_rn(fx));
  OUT(1, __float2uint_rn(fx));
  OUT(2, __float2ll_rn(fx));
  OUT(3, __float2ull_rn(fx));
  OUT(4, __double2int_rn(dx));
  OUT(5, __double2uint_rn(dx));
  OUT(6, __double2ll_rn(dx));
  OUT(7, __double2ull_rn(dx));
  OUT(8, __float_as_uint(__int2float_rn(rx)));
  OUT(9, __float_as_uint(__uint2float_rn((unsigned)rx)));
  OUT(10, __float_as_uint(__ll2float_rn(lx)));
  OUT(11, __float_as_uint(__ull2float_rn((unsigned long long)lx)));
  OUT(12, __double_as_longlong(__ll2double_rn(lx)));
  OUT(13, __double_as_longlong(__ull2double_rn((unsigned long long)lx)));
  OUT(14, __float_as_uint(__double2float_rn(dx)));
  OUT(15, __float_as_uint(__fadd_rn(fx, 1.5f)));
  OUT(16, __float_as_uint(__fmul_rn(fx, 3.3f)));
  OUT(17, __float_as_uint(__fdiv_rn(fx, 3.3f)));
  OUT(18, __float_as_uint(__frcp_rn(fx)));
  OUT(19, __float_as_uint(__fsqrt_rn(fabsf(fx))));
  OUT(20, __float_as_uint(__fmaf_rn(fx, fx, 0.25f)));
  OUT(21, __double_as_longlong(__dadd_rn(dx, 1.5)));
  OUT(22, __double_as_longlong(__dmul_rn(dx, 3.3)));
  OUT(23, __double_as_longlong(__ddiv_rn(dx, 3.3)));
  OUT(24, __double_as_longlong(__drcp_rn(dx)));
  OUT(25, __double_as_longlong(__dsqrt_rn(fabs(dx))));
  OUT(26, __double_as_longlong(__fma_rn(dx, dx, 0.25)));
  OUT(27, __float2int_rz(fx));
  OUT(28, __float2uint_rz(fx));
  OUT(29, __float2ll_rz(fx));
  OUT(30, __float2ull_rz(fx));
  OUT(31, __double2int_rz(dx));
  OUT(32, __double2uint_rz(dx));
  OUT(33, __double2ll_rz(dx));
  OUT(34, __double2ull_rz(dx));
  OUT(35, __float_as_uint(__fadd_rz(fx, 1.5f)));
  OUT(36, __float_as_uint(__fmul_rz(fx, 3.3f)));
  OUT(37, __float_as_uint(__fmaf_rz(fx, fx, 0.25f)));
  OUT(38, __double_as_longlong(__dadd_rz(dx, 1.5)));
  OUT(39, __double_as_longlong(__dmul_rz(dx, 3.3)));
  OUT(40, __double_as_longlong(__fma_rz(dx, dx, 0.25)));
  OUT(41, __float2int_ru(fx));
  OUT(42, __float2uint_ru(fx));
  OUT(43, __float2ll_ru(fx));
  OUT(44, __float2ull_ru(fx));
  OUT(45, __double2int_ru(dx));
  OUT(46, __double2uint_ru(dx));
  OUT(47, __double2ll_ru(dx));
  OUT(48, __double2ull_ru(dx));
  OUT(49, __float_as_uint(__fadd_ru(fx, 1.5f)));
  OUT(50, __float_as_uint(__fmul_ru(fx, 3.3f)));
  OUT(51, __float_as_uint(__fmaf_ru(fx, fx, 0.25f)));
  OUT(52, __double_as_longlong(__dadd_ru(dx, 1.5)));
  OUT(53, __double_as_longlong(__dmul_ru(dx, 3.3)));
  OUT(54, __double_as_longlong(__fma_ru(dx, dx, 0.25)));
  OUT(55, __float2int_rd(fx));
  OUT(56, __float2uint_rd(fx));
  OUT(57, __float2ll_rd(fx));
  OUT(58, __float2ull_rd(fx));
  OUT(59, __double2int_rd(dx));
  OUT(60, __double2uint_rd(dx));
  OUT(61, __double2ll_rd(dx));
  OUT(62, __double2ull_rd(dx));
  OUT(63, __float_as_uint(__fadd_rd(fx, 1.5f)));
  OUT(64, __float_as_uint(__fmul_rd(fx, 3.3f)));
  OUT(65, __float_as_uint(__fmaf_rd(fx, fx, 0.25f)));
  OUT(66, __double_as_longlong(__dadd_rd(dx, 1.5)));
  OUT(67, __double_as_longlong(__dmul_rd(dx, 3.3)));
  OUT(68, __double_as_longlong(__fma_rd(dx, dx, 0.25)));
  OUT(69, (int)fx);
  OUT(70, (unsigned)fx);
  OUT(71, (long long)fx);
  OUT(72, (unsigned long long)fx);
  OUT(73, (short)fx);
  OUT(74, (unsigned short)fx);
  OUT(75, (signed char)fx);
  OUT(76, (unsigned char)fx);
  OUT(77, (int)dx);
  OUT(78, (unsigned)dx);
  OUT(79, (long long)dx);
  OUT(80, (unsigned long long)dx);
  OUT(81, (short)dx);
  OUT(82, (signed char)dx);
  OUT(83, __float_as_uint((float)rx));
  OUT(84, __float_as_uint((float)(unsigned)rx));
  OUT(85, __float_as_uint((float)lx));
  OUT(86, __float_as_uint((float)hx));
  OUT(87, __float_as_uint((float)(unsigned char)hx));
  OUT(88, __double_as_longlong((double)lx));
  OUT(89, __double_as_longlong((double)(unsigned long long)lx));
  OUT(90, __double_as_longlong((double)hx));
  OUT(91, (short)rx);
  OUT(92, (unsigned short)rx);
  OUT(93, (signed char)rx);
  OUT(94, (unsigned char)lx);
  OUT(95, (int)(short)lx);
  OUT(96, (long long)(signed char)rx);
  OUT(97, __float_as_uint(__saturatef(fx)));
  OUT(98, __float_as_uint(rintf(fx)));
  OUT(99, __float_as_uint(truncf(fx)));
  OUT(100, __float_as_uint(floorf(fx)));
  OUT(101, __float_as_uint(ceilf(fx)));
  OUT(102, __float_as_uint(roundf(fx)));
  OUT(103, __double_as_longlong(rint(dx)));
  OUT(104, __double_as_longlong(trunc(dx)));
  OUT(105, __double_as_longlong(floor(dx)));
  OUT(106, __double_as_longlong(ceil(dx)));
  OUT(107, __double_as_longlong(round(dx)));
  OUT(108, lrintf(fx));
  OUT(109, llrint(dx));
  OUT(110, lroundf(fx));
  OUT(111, llround(dx));
  OUT(112, __float_as_uint(fminf(fx, 0.5f)));
  OUT(113, __float_as_uint(fmaxf(fx, -0.5f)));
  OUT(114, __double_as_longlong(fmin(dx, 0.5)));
  OUT(115, __double_as_longlong(fmax(dx, -0.5)));
  OUT(116, __float_as_uint(copysignf(fx, (float)rx)));
  OUT(117, __float_as_uint(fabsf(fx)));
  OUT(118, __float_as_uint(-fx));
  OUT(119, __float_as_uint(fx / 3.3f));
  OUT(120, __float_as_uint(1.0f / fx));
  OUT(121, __float_as_uint(sqrtf(fx)));
  OUT(122, __double_as_longlong(dx / 3.3));
  OUT(123, __double_as_longlong(1.0 / dx));
  OUT(124, __double_as_longlong(sqrt(dx)));
  OUT(125, __float_as_uint(fmodf(fx, 3.3f)));
  OUT(126, __double_as_longlong(fmod(dx, 3.3)));
  OUT(127, __float_as_uint(remainderf(fx, 3.3f)));
  OUT(128, __float_as_uint(ldexpf(fx, rx & 15)));
  OUT(129, __float_as_uint(frexpf(fx, &ex)));
  OUT(130, ilogbf(fx));
  OUT(131, __float_as_uint(logbf(fx)));
  OUT(132, __float_as_uint(nextafterf(fx, 0.0f)));
  OUT(133, __float_as_uint(fdimf(fx, 1.0f)));
  OUT(134, isnan(fx));
  OUT(135, isinf(dx));
  OUT(136, signbit(fx));
  OUT(137, __float_as_uint(__int_as_float(rx) * 2.0f));
  OUT(138, __half_as_ushort(__float2half_rn(fx)));
  OUT(139, __half_as_ushort(__float2half_rz(fx)));
  OUT(140, __half_as_ushort(__float2half_rd(fx)));
  OUT(141, __half_as_ushort(__float2half_ru(fx)));
  OUT(142, __half_as_ushort(__double2half(dx)));
  OUT(143, __float_as_uint(__half2float(__ushort_as_half((unsigned short)hx))));
  OUT(144, __bfloat16_as_ushort(__float2bfloat16_rn(fx)));
  OUT(145, __bfloat16_as_ushort(__float2bfloat16_rz(fx)));
  OUT(146, __float_as_uint(__bfloat162float(__ushort_as_bfloat16((unsigned short)hx))));
}

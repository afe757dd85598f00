// The directed-rounding intrinsics (__fmaf_rz, __fadd_rd, __ddiv_ru, __dsqrt_rd ...) and
// conversions in every rounding mode.
__global__ void rounding_intrinsics(const float* x, const float* y, const double* dx, float* of,
                                    double* od, long long* oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = y[i];
  double c = dx[i];
  of[8 * i + 0] = __fmaf_rz(a, b, 1.f) + __fadd_rd(a, b);
  of[8 * i + 1] = __fmul_ru(a, b) - __fsub_rn(a, b);
  of[8 * i + 2] = __fsqrt_rn(fabsf(a)) + __frcp_rn(b);
  of[8 * i + 3] = __fdiv_rn(a, b) + __fdiv_rz(b, a);
  of[8 * i + 4] = __double2float_rd(c) + __double2float_ru(c * 3.0);
  of[8 * i + 5] = __int2float_rz(i * 12345679) + __uint2float_rd(0xffffffffu - i) + __ll2float_ru((long long)i << 40);
  of[8 * i + 6] = __frsqrt_rn(fabsf(b) + 1.f) + __fsqrt_ru(fabsf(b));
  of[8 * i + 7] = __fmaf_ieee_rn(a, a, -b);
  od[4 * i + 0] = __dsqrt_rd(fabs(c)) + __drcp_rn(c);
  od[4 * i + 1] = __ddiv_ru(c, (double)a) + __dmul_rz(c, (double)b);
  od[4 * i + 2] = __fma_rd(c, c, (double)a) + __dadd_ru(c, 1e-17);
  od[4 * i + 3] = __ull2double_ru(0xffffffffffffffffull - i) + __ll2double_rz(-(1ll << 60) + i);
  oi[4 * i + 0] = __float2int_rn(a * 1000.f) + __float2int_rd(b * 1000.f);
  oi[4 * i + 1] = __float2ll_rz(a * 1e10f) + __float2ull_ru(fabsf(b) * 1e10f);
  oi[4 * i + 2] = __double2ll_rn(c * 1e12) + __double2int_ru(c);
  oi[4 * i + 3] = __double2uint_rz(fabs(c) * 1e6) + __float2uint_rn(fabsf(a));
}

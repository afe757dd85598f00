// Float rounding as CUDA spells it (rintf, floorf, ceilf, truncf, __float2int_rn/rd/ru and the
// double forms), on values that exercise each rule: ties to even, negative ties, signed zeros,
// subnormals, values at and beyond 2^23 (2^52), infinities and NaN, and integer saturation.
__constant__ float kFloats[32] = {2.5f,   3.5f,     -2.5f,        -0.5f,        -0.3f,
                                  0.3f,   0.0f,     -0.0f,        1e-40f,       -1e-40f,
                                  8388607.5f, -8388607.5f, 8388609.0f, 16777216.0f, 1e30f,
                                  -1e30f, 1.0f / 0.0f, -1.0f / 0.0f, 0.0f / 0.0f,  0.5f,
                                  1.5f,   -1.5f,    123.456f,     -123.456f,    4194303.5f,
                                  -4194303.5f, 8388608.0f, -8388608.0f, 0.49999997f, -0.49999997f,
                                  2147483647.0f, -2147483904.0f};
__constant__ double kDoubles[8] = {2.5,  -2.5, -0.5, 4503599627370495.5, -0.3,
                                   1e300, 0.0 / 0.0, 9.3e18};

__global__ void rounding(float* f, int* i, double* g, long long* l) {
  const unsigned t = threadIdx.x;
  const float x = kFloats[t];
  f[4 * t + 0] = rintf(x);
  f[4 * t + 1] = floorf(x);
  f[4 * t + 2] = ceilf(x);
  f[4 * t + 3] = truncf(x);
  i[3 * t + 0] = __float2int_rn(x);
  i[3 * t + 1] = __float2int_rd(x);
  i[3 * t + 2] = __float2int_ru(x);
  const double y = kDoubles[t % 8] * (t < 8 ? 1.0 : -1.0);
  g[3 * t + 0] = floor(y);
  g[3 * t + 1] = ceil(y);
  g[3 * t + 2] = rint(y);
  l[t] = __double2ll_rn(y);
}

// Floating-point special values: NaNs (quiet, signalling, with payloads, negative), infinities
// and signed zeros through the f32 and f64 arithmetic, minimum and maximum, conversions and
// approximations, every result's bits written out. What the GPU gives for these is not in the
// PTX ISA (which leaves NaN payloads to the implementation): validation/h200/nan_probe.cu
// prints the H200's, and `warpsim validate` compares the simulator's with them.
// The inputs' bits, offset by `base` (0) so that nvcc cannot fold the operations away.
__device__ float f(unsigned base, int i) {
  const unsigned bits[11] = {0x7fc00000u, 0x7fc12345u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                             0,           0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fd00042u};
  return __uint_as_float(bits[i] + base);
}
__device__ double g(unsigned base, int i) {
  const unsigned long long bits[7] = {0x7ff8000000000000ull, 0x7ff8000012345678ull, 0xfff8000000000001ull,
                                      0x7ff0000000000000ull, 0, 0x3ff0000000000000ull,
                                      0x7ffc000000000042ull};
  return __longlong_as_double(static_cast<long long>(bits[i] + base));
}
__global__ void float_specials(unsigned base, unsigned* out, unsigned long long* dout) {
  // in: 0 qnan 7fc00000, 1 payload nan 7fc12345, 2 neg nan ffc00001, 3 snan 7f800001, 4 inf, 5 -inf, 6 0, 7 -0, 8 1, 9 -1, 10 payload2 7fd00042
  float q = f(base,0), p = f(base,1), n = f(base,2), s = f(base,3), inf = f(base,4), ninf = f(base,5), z = f(base,6), one = f(base,8), mone = f(base,9), p2 = f(base,10);
  int k = 0;
  float r[64];
  r[k++] = p + one; r[k++] = one + p; r[k++] = inf + ninf; r[k++] = p + p2; r[k++] = n + one; r[k++] = s + one;
  r[k++] = z * inf; r[k++] = p * one; r[k++] = __fmaf_rn(p, one, one); r[k++] = __fmaf_rn(z, inf, p2); r[k++] = __fmaf_rn(one, one, p);
  r[k++] = __fdiv_rn(z, z); r[k++] = __fdiv_rn(p, one); r[k++] = __fdiv_rn(one, p);
  r[k++] = __fsqrt_rn(mone); r[k++] = __fsqrt_rn(p);
  r[k++] = fminf(p, one); r[k++] = fmaxf(one, p); r[k++] = fminf(p, p2); r[k++] = fminf(n, s);
  r[k++] = __frcp_rn(p); r[k++] = __frcp_rn(n);
  r[k++] = __fdividef(p, one); r[k++] = __expf(p); r[k++] = __sinf(p); r[k++] = __logf(p); r[k++] = rsqrtf(p); r[k++] = rsqrtf(mone);
  r[k++] = -p; r[k++] = fabsf(n); r[k++] = __fsub_rn(p, one); r[k++] = __fmul_rz(p, one); r[k++] = __fadd_rd(inf, ninf);
  r[k++] = p2 * 1.0f; r[k++] = (float)(double)p; r[k++] = __fsqrt_rn(n); r[k++] = fmaf(p,2.0f,0.0f);
  r[k++] = truncf(p); r[k++] = floorf(n); r[k++] = __int_as_float(__float2int_rn(p));
  r[k++] = fminf(-z, z); r[k++] = fmaxf(-z, z); r[k++] = fminf(z, -z); r[k++] = fmaxf(z, -z);
  r[k++] = fmaxf(p2, p); r[k++] = fabsf(p);
  for (int i = 0; i < k; ++i) out[i] = __float_as_uint(r[i]);
  out[63] = k;
  double dq = g(base,0), dp = g(base,1), dn = g(base,2), dinf = g(base,3), dz = g(base,4), d1 = g(base,5), dp2 = g(base,6);
  double d[40]; int j = 0;
  d[j++] = dp + d1; d[j++] = d1 + dp; d[j++] = dinf - dinf; d[j++] = dp + dp2; d[j++] = dn + d1; d[j++] = dz * dinf; d[j++] = __fma_rn(dp, d1, d1);
  d[j++] = __fma_rn(dz, dinf, dp2); d[j++] = __ddiv_rn(dz, dz); d[j++] = __ddiv_rn(dp, d1); d[j++] = __dsqrt_rn(-d1); d[j++] = __dsqrt_rn(dp);
  d[j++] = fmin(dp, d1); d[j++] = fmax(dp, dp2); d[j++] = fmin(-dz, dz); d[j++] = fmax(-dz, dz);
  d[j++] = fmin(d1, -d1); d[j++] = fmax(dn, d1); d[j++] = fmin(dz, -dz); d[j++] = fmax(dz, -dz);
  d[j++] = __fma_rn(dp, d1, dp2); d[j++] = __fma_rn(dp2, dp, d1); d[j++] = dp * dp2; d[j++] = fabs(dn);
  d[j++] = __ddiv_rn(dp, dp2); d[j++] = dp2 - dp;
  // Comparisons (DSETP), NaN among them: 1 + 8 + 16 = 25.
  d[j++] = (d1 > dz ? 1 : 0) | (d1 < -d1 ? 2 : 0) | (dp > d1 ? 4 : 0) | (d1 >= d1 ? 8 : 0) | (dp != dp ? 16 : 0); d[j++] = (double)p; d[j++] = (double)n; d[j++] = __drcp_rn(dp); d[j++] = -dp; d[j++] = dq * 1.0;
  for (int i = 0; i < j; ++i) dout[i] = __double_as_longlong(d[i]);
  dout[47] = j;
  (void)q;
}

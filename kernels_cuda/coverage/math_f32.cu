// Single-precision math library functions (erf, tanh, atan2, sincos, pow, cbrt, hypot, fmod,
// remainder, lgamma, tgamma, frexp, ldexp) and the fast intrinsics.
__global__ void math_f32(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = y[i];
  float s, c;
  sincosf(a, &s, &c);
  out[12 * i + 0] = erff(a) + erfcf(b);
  out[12 * i + 1] = tanhf(a) * atan2f(a, b);
  out[12 * i + 2] = s + c;
  out[12 * i + 3] = powf(fabsf(a), b);
  out[12 * i + 4] = expm1f(a) + log1pf(fabsf(b));
  out[12 * i + 5] = cbrtf(a) + hypotf(a, b);
  out[12 * i + 6] = fmodf(a, b) + remainderf(a, b);
  out[12 * i + 7] = asinf(fminf(1.f, fabsf(b) / 100.f)) + acoshf(1.f + fabsf(a));
  out[12 * i + 8] = __fdividef(a, b) + __saturatef(a) + rsqrtf(fabsf(b));
  int e;
  out[12 * i + 9] = frexpf(a, &e) + ldexpf(b, e % 7) + (float)e;
  out[12 * i + 10] = lgammaf(fabsf(a) + 0.5f) + tgammaf(fabsf(b) / 20.f + 0.5f);
  out[12 * i + 11] = __expf(a / 10.f) + __logf(fabsf(b) + 1.f) + __powf(fabsf(a) + 1.f, 0.5f) + exp10f(b / 50.f);
}

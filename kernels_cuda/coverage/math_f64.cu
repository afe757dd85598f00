// Double-precision division, square roots, remainders, rounding functions, frexp and ldexp,
// tanh, atan2, erf, cbrt, hypot, expm1, log1p and conversions.
__global__ void math_f64(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = y[i];
  out[8 * i + 0] = a / b + sqrt(fabs(a)) + rsqrt(fabs(b) + 1.0);
  out[8 * i + 1] = fmod(a, b) + remainder(a, b);
  out[8 * i + 2] = floor(a) + ceil(b) + trunc(a * 3.7) + round(b * 1.3) + rint(a);
  int e;
  out[8 * i + 3] = frexp(a, &e) + ldexp(b, e % 9);
  out[8 * i + 4] = tanh(a / 5.0) + atan2(a, b) + erf(b / 10.0);
  out[8 * i + 5] = cbrt(a) + hypot(a, b) + expm1(a / 10.0) + log1p(fabs(b));
  out[8 * i + 6] = fma(a, b, 1.0 / 3.0) + fmin(a, b) * fmax(a, b) + copysign(a, b);
  out[8 * i + 7] = (double)(long long)(a * 1e6) + (double)(unsigned)(fabs(b) * 1e3) + (float)a;
}

// Forms the import once refused or rounded otherwise than ptxas's code: the math library's
// coshf (div.approx.ftz), asinf and acosf (rsqrt.approx.ftz); __fdividef whose multiply ptxas
// fuses with a subtraction or a running sum (one FFMA); ceil and trunc of negative fractions
// nearer -1 (-0.0); and a barrier reduction whose result the kernel never uses (B2R.RESULT RZ).

__global__ void library_fast_forms(const float* x, const float* y, float* f, double* d,
                                   unsigned* c, int terms) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = x[i], b = y[i];
  f[8 * i + 0] = coshf(a);
  f[8 * i + 1] = asinf(a / 4.0f);
  f[8 * i + 2] = acosf(a / 4.0f);
  f[8 * i + 3] = __fdividef(a, b) - a * 0.25f;
  float sum = 0.0f;
#pragma unroll 1
  for (int k = 0; k < terms; ++k) sum += __fdividef(b, static_cast<float>(k + 1));
  f[8 * i + 4] = sum;
  f[8 * i + 5] = ceilf(a / 8.0f);
  f[8 * i + 6] = truncf(b / 8.0f);
  f[8 * i + 7] = floorf(a / 8.0f);
  d[2 * i] = ceil(static_cast<double>(b) / 8.0);
  d[2 * i + 1] = trunc(static_cast<double>(a) / 8.0);
  unsigned n = __syncthreads_count(a > 0.0f);
  n = static_cast<unsigned>(i) * 3u;
  c[i] = n + static_cast<unsigned>(__syncthreads_or(b > 3.5f));
}

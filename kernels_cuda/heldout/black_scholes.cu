// Black-Scholes call and put prices, one option a thread: __logf, __expf, sqrtf and the
// Abramowitz-Stegun polynomial for the normal distribution.
__device__ float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = rsqrt2pi * __expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - c : c;
}
__global__ void black_scholes(const float* price, const float* strike, const float* years,
                              float* call, float* put, float rate, float vol, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = price[i], x = strike[i], t = years[i];
  float sqrt_t = sqrtf(t);
  float d1 = (__logf(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
  float d2 = d1 - vol * sqrt_t;
  float discount = __expf(-rate * t);
  call[i] = s * cnd(d1) - x * discount * cnd(d2);
  put[i] = x * discount * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}

// The math library at full precision, as a physics or signal kernel calls it: sinf, cosf and
// tanf over a wide range (beyond |x| = 105615 they reduce the argument with a table in global
// memory), expf and powf (directed-rounding fma inside), a __device__ counter updated
// atomically, and 64-bit integers divided by a constant and by a value known only at run time.
__device__ unsigned int positives;

__global__ void wave_math(const float* x, float* s, float* c, float* t, float* e, float* p,
                          long long* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  s[i] = sinf(v);
  c[i] = cosf(v);
  t[i] = tanf(v);
  e[i] = expf(v * 1e-5f);
  p[i] = powf(fabsf(v) * 1e-5f, 1.5f);
  q[i] = static_cast<long long>(v * 1000.0f) / (i + 3) + (i * 1000003LL) / 7 - (i * 1000003LL) % 7;
  if (v > 0.0f) atomicAdd(&positives, 1u);
}

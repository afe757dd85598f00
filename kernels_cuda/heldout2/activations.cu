// GELU with tanhf, sigmoid with __expf, erff, logf, sqrtf, rsqrtf, __fdividef, log2f.
__global__ void activations(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float gelu = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  float sig = 1.0f / (1.0f + __expf(-v));
  float e = erff(v) + logf(fabsf(v) + 1.0f) + sqrtf(fabsf(v)) + rsqrtf(fabsf(v) + 1.0f);
  float q = __fdividef(v, 3.0f) + fminf(v, 0.5f) + fmaxf(v, -0.5f) + log2f(fabsf(v) + 2.0f);
  y[4 * i] = gelu; y[4 * i + 1] = sig; y[4 * i + 2] = e; y[4 * i + 3] = q;
}

// A 9-tap FIR from __constant__ coefficients in a fully unrolled loop with clamped indices.
__constant__ float coeffs[9] = {0.05f, 0.1f, 0.1f, 0.15f, 0.2f, 0.15f, 0.1f, 0.1f, 0.05f};
__global__ void fir9(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    int j = min(max(i + k - 4, 0), n - 1);
    acc = fmaf(coeffs[k], in[j], acc);
  }
  out[i] = acc;
}

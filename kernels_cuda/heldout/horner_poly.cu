// A degree-15 polynomial per element by Horner's rule: 15 dependent fused multiply-adds a thread,
// its coefficients in shared memory (loaded once per block).
__global__ void horner_poly(const float* x, const float* coeff, float* y, int n) {
  __shared__ float c[16];
  if (threadIdx.x < 16) c[threadIdx.x] = coeff[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = c[15];
  for (int k = 14; k >= 0; --k) acc = fmaf(acc, v, c[k]);
  y[i] = acc;
}

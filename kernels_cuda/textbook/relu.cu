// Leaky ReLU, element-wise: y = x > 0 ? x : 0.01 x.
__global__ void relu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.01f * x[i];
}

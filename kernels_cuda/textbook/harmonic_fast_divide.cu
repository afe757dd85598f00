// A bounded kernel with a loop the source keeps rolled and a fast division in it:
// y[i] = sum over k < terms of x[i] / (k + 1), with __fdividef (PTX's div.approx.f32).
__global__ void __launch_bounds__(128, 4)
    harmonic_fast_divide(const float* x, float* y, int n, int terms) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
#pragma unroll 1
  for (int k = 0; k < terms; ++k) sum += __fdividef(x[i], static_cast<float>(k + 1));
  y[i] = sum;
}

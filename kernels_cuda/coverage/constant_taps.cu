// A filter whose taps are __constant__ and whose bias is a __device__ variable, both filled by
// the host (cudaMemcpyToSymbol in a program; the launch file's `taps = ...` and `bias = ...`
// here): y[i] = bias + sum over k of taps[k] * x[i + k].
__constant__ float taps[16];
__device__ float bias[1];

__global__ void constant_taps(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = bias[0];
#pragma unroll
  for (int k = 0; k < 16; ++k) s += taps[k] * x[i + k];
  y[i] = s;
}

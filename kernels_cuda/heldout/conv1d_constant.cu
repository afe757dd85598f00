// A 15-tap 1-D convolution whose weights sit in __constant__ memory: every lane of a warp reads
// the same weight at once (one constant-cache access), the input from global memory.
#define RADIUS 7
__constant__ float weights[2 * RADIUS + 1] = {0.01f, 0.02f, 0.04f, 0.07f, 0.1f,  0.13f, 0.15f, 0.16f,
                                                 0.15f, 0.13f, 0.1f,  0.07f, 0.04f, 0.02f, 0.01f};
__global__ void conv1d_constant(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < RADIUS || i >= n - RADIUS) return;
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) s += weights[k + RADIUS] * in[i + k];
  out[i] = s;
}

// Dot product: a grid-stride partial sum per thread, a warp shuffle reduction, one atomic per
// warp (float atomics: the order of the additions decides the last bits).
__global__ void dot_product(const float* a, const float* b, float* result, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    sum += a[i] * b[i];
  }
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, sum);
}

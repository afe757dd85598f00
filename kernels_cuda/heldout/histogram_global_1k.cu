// A 1024-bin histogram straight into global memory: one atomicAdd per element, no shared stage.
__global__ void histogram_global_1k(const int* data, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

// 256-bin histogram of int values in [0, 256): per-block bins in shared memory with shared
// atomics, then one global atomic per bin.
__global__ void histogram_shared(const int* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i] & 255], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

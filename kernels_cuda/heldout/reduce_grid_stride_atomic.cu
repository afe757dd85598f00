// Integer sum over a grid-stride loop: each thread sums its share, a warp adds its lanes by
// shuffles, and lane 0 of each warp adds the warp's sum to the total atomically.
__global__ void reduce_grid_stride_atomic(const int* in, unsigned long long* total, int n) {
  long long sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, (unsigned long long)sum);
}

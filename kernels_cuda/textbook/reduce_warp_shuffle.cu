// Sum with warp shuffles: each warp reduces in registers, lane 0 adds the warp's sum atomically.
__global__ void reduce_warp_shuffle(const int* in, int* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

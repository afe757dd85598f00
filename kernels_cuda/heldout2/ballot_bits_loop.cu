// A loop over a ballot's set bits, shuffling each chosen lane's value.
__global__ void bit_iterate(const int* in, int* out, int threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned m = __ballot_sync(0xffffffffu, v > threshold);
  int lane = threadIdx.x & 31;
  int acc = 0;
  while (m) {
    int src = __ffs(m) - 1;
    acc += __shfl_sync(0xffffffffu, v, src) * (src + 1);
    m &= m - 1;
  }
  __syncwarp();
  out[i] = acc + lane;
}

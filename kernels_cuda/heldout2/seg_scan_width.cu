// Inclusive scans over 16-lane segments with __shfl_up_sync's width, and narrower shuffles.
__global__ void seg_scan16(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 1; d < 16; d <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, d, 16);
    if ((threadIdx.x & 15) >= d) v += u;
  }
  out[i] = v;
  int w = __shfl_down_sync(0xffffffffu, v, 3, 8);
  out[i + gridDim.x * blockDim.x] = w + __shfl_sync(0xffffffffu, v, 5, 4);
}

// Inclusive scan of each warp's 32 elements with __shfl_up_sync (Kogge-Stone in registers).
__global__ void scan_warp(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    float y = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += y;
  }
  if (i < n) out[i] = v;
}

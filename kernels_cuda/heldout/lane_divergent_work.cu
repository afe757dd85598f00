// Four paths by lane % 4, each a loop of a different length (8, 16, 24, 32 steps), so every warp
// runs its four paths one after another and reconverges before the store.
__global__ void lane_divergent_work(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  int path = threadIdx.x & 3;
  if (path == 0) {
    for (int k = 0; k < 8; ++k) v = v * 1.0001f + 0.5f;
  } else if (path == 1) {
    for (int k = 0; k < 16; ++k) v = v * 0.9999f - 0.25f;
  } else if (path == 2) {
    for (int k = 0; k < 24; ++k) v = fmaf(v, v, -0.5f) * 0.5f;
  } else {
    for (int k = 0; k < 32; ++k) v = fmaxf(v - 0.01f, 0.0f) + 0.001f;
  }
  out[i] = v;
}

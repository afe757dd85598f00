// One warp per row: the row's squared norm by a strided loop and an xor-shuffle reduction, then
// each element scaled by rsqrtf of it.
__global__ void row_normalize(const float* in, float* out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float* row = in + (size_t)warp * cols;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += row[c] * row[c];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  float inv = rsqrtf(s + 1e-6f);
  for (int c = lane; c < cols; c += 32) out[(size_t)warp * cols + c] = row[c] * inv;
}

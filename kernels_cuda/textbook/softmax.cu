// Row-wise softmax of a rows x cols matrix, one warp per row: max and sum by shuffles, exp by
// __expf (ex2.approx).
__global__ void softmax(const float* in, float* out, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float* r = in + row * cols;
  float m = -3.0e38f;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += __expf(r[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  for (int c = lane; c < cols; c += 32) out[row * cols + c] = __expf(r[c] - m) / s;
}

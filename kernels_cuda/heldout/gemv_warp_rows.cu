// y = A x with one warp per row of a row-major A: the warp reads the row coalesced, each lane
// sums a strided share, and a shuffle tree adds the 32 partial sums.
__global__ void gemv_warp_rows(const float* A, const float* x, float* y, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += A[(size_t)row * cols + c] * x[c];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[row] = sum;
}

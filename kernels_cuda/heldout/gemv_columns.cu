// y = A^T x for a row-major A: one thread per column walks down the rows, so a warp's loads of
// one row are contiguous, and each thread keeps a single load in flight per step.
__global__ void gemv_columns(const float* A, const float* x, float* y, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float sum = 0.0f;
  for (int r = 0; r < rows; ++r) sum += A[(size_t)r * cols + col] * x[r];
  y[col] = sum;
}

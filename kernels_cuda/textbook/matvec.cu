// y = A x for a rows x cols row-major matrix, one thread per row.
__global__ void matvec(const float* A, const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += A[r * cols + c] * x[c];
  y[r] = sum;
}

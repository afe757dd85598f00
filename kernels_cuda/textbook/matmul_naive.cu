// C = A B for n x n row-major matrices, one thread per element of C.
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

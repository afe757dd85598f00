// C = A B (n x n, row-major) with 64 x 16 tiles of C per 16 x 16 block: each thread computes
// four outputs of one column, four rows apart, from shared tiles of A (64 x 16) and B (16 x 16).
#define TILE 16
#define ROWS_PER_THREAD 4
__global__ void matmul_regtile(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE * ROWS_PER_THREAD][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row0 = blockIdx.y * TILE * ROWS_PER_THREAD + ty;
  float acc[ROWS_PER_THREAD] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = 0; r < ROWS_PER_THREAD; ++r)
      As[ty + r * TILE][tx] = A[(row0 + r * TILE) * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float b = Bs[k][tx];
      for (int r = 0; r < ROWS_PER_THREAD; ++r) acc[r] += As[ty + r * TILE][k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < ROWS_PER_THREAD; ++r) C[(row0 + r * TILE) * n + col] = acc[r];
}

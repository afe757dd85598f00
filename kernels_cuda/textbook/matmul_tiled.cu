// C = A B with 16 x 16 tiles staged in shared memory (CUDA Programming Guide's shared-memory
// matrix multiply); n a multiple of 16.
#define TILE 16
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

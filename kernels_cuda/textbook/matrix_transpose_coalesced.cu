// Transpose through a padded 32 x 33 tile, 32 x 8 threads each moving 4 elements (Harris,
// "An Efficient Matrix Transpose in CUDA C/C++"); n a multiple of 32.
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void matrix_transpose_coalesced(float* odata, const float* idata, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Transpose through a padded 32 x 33 shared tile, 32 x 8 threads moving four rows each, with the
// blocks renumbered along diagonals (so concurrent blocks write to different DRAM partitions).
#define TILE 32
#define ROWS 8
__global__ void transpose_diagonal(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x;
  int x = bx * TILE + threadIdx.x, y = by * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = by * TILE + threadIdx.x;
  y = bx * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

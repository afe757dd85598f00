// 3 x 3 box blur of a width x height image: each 16 x 16 block loads its 18 x 18 tile (with a
// one-pixel halo, clamped at the edges) into shared memory, then averages nine neighbours.
#define B 16
__global__ void blur3x3_shared(const float* img, float* out, int width, int height) {
  __shared__ float tile[B + 2][B + 2];
  int x0 = blockIdx.x * B - 1, y0 = blockIdx.y * B - 1;
  for (int k = threadIdx.y * B + threadIdx.x; k < (B + 2) * (B + 2); k += B * B) {
    int tx = k % (B + 2), ty = k / (B + 2);
    int x = min(max(x0 + tx, 0), width - 1), y = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = img[y * width + x];
  }
  __syncthreads();
  int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y;
  if (x >= width || y >= height) return;
  float s = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * width + x] = s * (1.0f / 9.0f);
}

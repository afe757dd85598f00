// Sobel gradient magnitude read straight from global memory (eight neighbours a pixel, the
// border left zero), with sqrtf rounded as IEEE requires.
__global__ void sobel_global(const float* img, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) return;
  const float* p = img + y * width + x;
  float gx = (p[-width + 1] + 2.0f * p[1] + p[width + 1]) - (p[-width - 1] + 2.0f * p[-1] + p[width - 1]);
  float gy = (p[width - 1] + 2.0f * p[width] + p[width + 1]) - (p[-width - 1] + 2.0f * p[-width] + p[-width + 1]);
  out[y * width + x] = sqrtf(gx * gx + gy * gy);
}

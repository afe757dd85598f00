// 2-D convolution of a width x height image with a 3 x 3 filter (given as a buffer); edges
// clamp to the nearest pixel.
__global__ void conv2d(const float* img, const float* filter, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1), yy = min(max(y + dy, 0), height - 1);
      sum += img[yy * width + xx] * filter[(dy + 1) * 3 + dx + 1];
    }
  }
  out[y * width + x] = sum;
}

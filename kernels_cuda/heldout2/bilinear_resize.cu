// Bilinear upscaling of a float image by 1.75 in each direction: floorf, fminf and four
// neighbouring reads per output pixel, on a 2-D grid.
__global__ void bilinear(const float* src, float* dst, int sw, int sh, int dw, int dh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  float fx = fminf((x + 0.5f) * sw / (float)dw - 0.5f, sw - 1.001f);
  float fy = fminf((y + 0.5f) * sh / (float)dh - 0.5f, sh - 1.001f);
  fx = fmaxf(fx, 0.f);
  fy = fmaxf(fy, 0.f);
  int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
  float ax = fx - x0, ay = fy - y0;
  const float* r0 = src + y0 * sw;
  const float* r1 = r0 + sw;
  float top = r0[x0] + ax * (r0[x0 + 1] - r0[x0]);
  float bottom = r1[x0] + ax * (r1[x0 + 1] - r1[x0]);
  dst[y * dw + x] = top + ay * (bottom - top);
}

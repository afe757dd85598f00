// Escape-time Mandelbrot over [-2, 1] x [-1.5, 1.5]: each pixel iterates z = z^2 + c until
// |z| > 2 or max_iter, so neighbouring lanes diverge by their iteration counts.
__global__ void mandelbrot(int* iterations, int width, int height, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cr = -2.0f + 3.0f * px / width, ci = -1.5f + 3.0f * py / height;
  float zr = 0.0f, zi = 0.0f;
  int k = 0;
  while (k < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  iterations[py * width + px] = k;
}

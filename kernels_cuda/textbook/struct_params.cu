// Structs passed by value, as kernels often take their sizes and settings: an image (a device
// pointer, its sizes, a one-byte flag and a gain), a window into it, and a float2. Each thread
// copies one pixel of the window, scaled, with a ramp added; pixels outside the image read 0.
struct Image {
  const float* pixels;
  int width;
  int height;
  unsigned char flip;  // 1: read the image upside down
  float gain;
};

struct Window {
  int x0;
  int y0;
};

__global__ void struct_params(Image image, Window window, float2 ramp, float* out, int out_width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  const int sx = window.x0 + x;
  int sy = window.y0 + y;
  if (image.flip) sy = image.height - 1 - sy;
  float v = 0.0f;
  if (sx >= 0 && sx < image.width && sy >= 0 && sy < image.height) {
    v = image.pixels[sy * image.width + sx] * image.gain;
  }
  out[y * out_width + x] = v + ramp.x * static_cast<float>(x) + ramp.y * static_cast<float>(y);
}

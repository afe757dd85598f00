// An image kernel on 8-bit pixels: each thread loads one RGBA pixel as a uchar4 (a vector of four
// bytes), writes its luminance as one byte and the pixel with its colours inverted as a uchar4.
__global__ void rgba_to_gray(const uchar4* rgba, unsigned char* gray, uchar4* inverted, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uchar4 p = rgba[i];
  gray[i] = static_cast<unsigned char>(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
  inverted[i] = make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w);
}

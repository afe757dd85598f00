// STREAM's triad on float2 elements: a = b + s * c with 8-byte vector loads and stores.
__global__ void triad_float2(float2* a, const float2* b, const float2* c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 bv = b[i], cv = c[i];
  a[i] = make_float2(bv.x + s * cv.x, bv.y + s * cv.y);
}

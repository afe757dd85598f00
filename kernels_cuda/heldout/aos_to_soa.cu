// An array of 12-byte structs (x, y, z) split into three arrays: each warp's loads of one field
// are 12 bytes apart, so three loads cover the same sectors.
struct Point { float x, y, z; };
__global__ void aos_to_soa(const Point* points, float* xs, float* ys, float* zs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Point p = points[i];
  xs[i] = p.x;
  ys[i] = p.y;
  zs[i] = p.z;
}

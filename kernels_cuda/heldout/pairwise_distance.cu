// The n x n matrix of Euclidean distances between n points in 3-D (one thread per pair, 16 x 16
// blocks): each thread reads two points from global memory and writes one float.
__global__ void pairwise_distance(const float* px, const float* py, const float* pz, float* d, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float dx = px[i] - px[j], dy = py[i] - py[j], dz = pz[i] - pz[j];
  d[i * n + j] = sqrtf(dx * dx + dy * dy + dz * dz);
}

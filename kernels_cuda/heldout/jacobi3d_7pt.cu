// One Jacobi step of the 7-point Laplacian on an n^3 grid: each thread of a 32 x 8 block walks
// its (x, y) column through z, reading six neighbours and itself from global memory.
__global__ void jacobi3d_7pt(const float* in, float* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
  int plane = n * n;
  for (int z = 1; z < n - 1; ++z) {
    int i = z * plane + y * n + x;
    out[i] = (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - plane] + in[i + plane] - 6.0f * in[i]) * (1.0f / 6.0f);
  }
}

// One Jacobi step of the 5-point Laplace stencil on an n x n grid; the border is copied.
__global__ void stencil_jacobi(const float* u, float* v, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  int i = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    v[i] = u[i];
  } else {
    v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n]);
  }
}

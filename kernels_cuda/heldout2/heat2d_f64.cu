// A double-precision 5-point heat step with sqrt, fma and a division.
__global__ void heat2d(const double* __restrict__ u, double* __restrict__ v, int nx, int ny, double a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;
  size_t c = (size_t)y * nx + x;
  double lap = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] - 4.0 * u[c];
  v[c] = u[c] + a * lap + sqrt(fabs(u[c])) * 1e-3 + fma(u[c], 0.5, -0.25) / (1.0 + u[c] * u[c]);
}

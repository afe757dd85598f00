// Double-precision pow, atan2 and cbrt. nvcc's pow takes its logarithm with libdevice's
// accurate pow, a function it does not inline, seeded by lg2.approx.ftz.f32 and
// rcp.approx.ftz.f64.
__global__ void pow_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[3 * i] = pow(x[i], 1.7);
  y[3 * i + 1] = atan2(x[i] - 25.0, 3.0);
  y[3 * i + 2] = cbrt(x[i] - 25.0);
}

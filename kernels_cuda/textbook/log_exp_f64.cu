// Double-precision exp, log, sqrt and a division. nvcc's log seeds its divisions with
// rcp.approx.ftz.f64 (the reciprocal of the operand's high word); exp and log are CUDA's
// 1-ulp functions, sqrt and the division correctly rounded.
__global__ void log_exp_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  y[3 * i] = exp(v);
  y[3 * i + 1] = log(fabs(v) + 1.0);
  y[3 * i + 2] = sqrt(fabs(v)) / (1.0 + v * v);
}

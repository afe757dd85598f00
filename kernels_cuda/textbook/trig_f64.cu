// Double-precision sin, cos and tan, with arguments up to 1e12: past 2^31 nvcc's sin reduces
// the argument in libdevice's slow path, a function it does not inline, whose 64 x 64-bit
// products are carry chains (mad.lo.cc, madc.hi.cc, addc) and whose stack frame ptxas reports
// in the kernel's cumulative stack size.
__global__ void trig_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[3 * i] = sin(x[i]);
  y[3 * i + 1] = cos(x[i] * 1e-3);
  y[3 * i + 2] = tan(x[i] * 1e-6);
}

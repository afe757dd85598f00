// A float division on random bit patterns: the lanes whose operands are out of the fast path's
// range (subnormals, infinities, NaNs, huge exponents) call ptxas's slow path, diverging there
// in several ways and joining again at its convergence barriers, some of them reaching a BSSY
// apart from the others.
__global__ void division_slow_path(const unsigned* a, unsigned* o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = __uint_as_float(a[2 * i]), y = __uint_as_float(a[2 * i + 1]);
  o[i] = __float_as_uint(x / y);
}

// Which operands send a float division to ptxas's slow path (FCHK's predicate): each launch
// divides one uniform pair, given as bit patterns, in one warp, so its instruction count says
// which path the warp took. The pairs walk the dividend's and divisor's exponents toward the
// ends of the range where the fast path's remainder or reciprocal would leave the normal numbers.
__global__ void fchk_probe(unsigned a_bits, unsigned b_bits, unsigned* o) {
  const float a = __uint_as_float(a_bits + threadIdx.x % 2), b = __uint_as_float(b_bits);
  o[threadIdx.x] = __float_as_uint(a / b);
}

// Warp reductions in one instruction (sm_80+): __reduce_add/min/max/and/or/xor_sync over the
// lanes that are active, which at the end of the grid is a partial warp.
__global__ void warp_reduce_ops(const unsigned* x, const int* y, unsigned* sum, int* low,
                                unsigned* high, unsigned* bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned members = __activemask();
  sum[i] = __reduce_add_sync(members, x[i]);
  low[i] = __reduce_min_sync(members, y[i]);
  high[i] = __reduce_max_sync(members, x[i]);
  bits[i] = __reduce_or_sync(members, x[i]) ^ __reduce_and_sync(members, x[i] | 0xff00ff00u) ^
            (__reduce_xor_sync(members, x[i]) << 1);
}

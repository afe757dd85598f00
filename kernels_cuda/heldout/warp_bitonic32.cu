// Each warp sorts its 32 keys ascending with a bitonic network of shuffles: for each stage and
// step a lane exchanges with lane ^ j and keeps the smaller or the larger of the two.
__global__ void warp_bitonic32(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = in[i];
  for (int k = 2; k <= 32; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int other = __shfl_xor_sync(0xffffffffu, v, j);
      bool up = (lane & k) == 0, lower = (lane & j) == 0;
      v = (lower == up) ? min(v, other) : max(v, other);
    }
  }
  out[i] = v;
}

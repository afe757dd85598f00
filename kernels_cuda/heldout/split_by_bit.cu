// One pass of a radix sort within each 256-key block: keys whose bit is 0 go first, in order,
// then those whose bit is 1. Each warp counts its zeros with a ballot, the warps' counts are
// summed in shared memory, and each key's place is its warp's offset plus the zeros (or ones)
// of the lanes below it (popc of the ballot under the lane mask).
#define WARPS 8
__global__ void split_by_bit(const unsigned* keys, unsigned* out, int bit) {
  __shared__ unsigned zeros_of_warp[WARPS];
  __shared__ unsigned zeros_before_warp[WARPS + 1];
  int t = threadIdx.x, warp = t / 32, lane = t & 31;
  unsigned base = blockIdx.x * blockDim.x;
  unsigned key = keys[base + t];
  bool is_zero = ((key >> bit) & 1u) == 0;
  unsigned zero_mask = __ballot_sync(0xffffffffu, is_zero);
  unsigned below = (1u << lane) - 1u;
  if (lane == 0) zeros_of_warp[warp] = __popc(zero_mask);
  __syncthreads();
  if (t == 0) {
    unsigned run = 0;
    for (int w = 0; w < WARPS; ++w) { zeros_before_warp[w] = run; run += zeros_of_warp[w]; }
    zeros_before_warp[WARPS] = run;
  }
  __syncthreads();
  unsigned total_zeros = zeros_before_warp[WARPS];
  unsigned zeros_below = zeros_before_warp[warp] + __popc(zero_mask & below);
  unsigned ones_below = (warp * 32 - zeros_before_warp[warp]) + __popc(~zero_mask & below);
  unsigned place = is_zero ? zeros_below : total_zeros + ones_below;
  out[base + place] = key;
}

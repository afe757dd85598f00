// Votes among the low 20 lanes of each warp only: their ballot of "x > 0", and whether all or
// any of them agree, with the member mask naming exactly the lanes that vote.
__global__ void ballot_low_lanes(const float* x, unsigned* ballot, int* all_positive,
                                 int* any_positive) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned low20 = 0x000fffffu;
  if (threadIdx.x % 32 < 20) {
    bool positive = x[i] > 0.0f;
    ballot[i] = __ballot_sync(low20, positive);
    all_positive[i] = __all_sync(low20, positive);
    any_positive[i] = __any_sync(low20, positive);
  }
}

// out[i] = in[perm[i]] for a random permutation: the index load is coalesced, the gathered one
// touches a different sector for almost every lane.
__global__ void gather_permutation(const float* in, const int* perm, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[perm[i]];
}

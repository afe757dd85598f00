// Sum of squares in double: each block reduces its 256 products in shared memory (a halving tree,
// one barrier a step) and writes one partial sum; no atomics, so the result is deterministic.
__global__ void norm_partials_f64(const double* v, double* partial, int n) {
  __shared__ double s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  double x = i < n ? v[i] : 0.0;
  s[t] = x * x;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half >>= 1) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

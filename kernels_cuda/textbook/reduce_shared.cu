// Tree reduction in shared memory with sequential addressing (Harris, "Optimizing Parallel
// Reduction in CUDA", kernel 3); one partial sum per block.
__global__ void reduce_shared(const float* in, float* partial, int n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

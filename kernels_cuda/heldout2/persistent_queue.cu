// Persistent blocks taking work from a global counter until it runs out.
__global__ void persistent(const int* work, int* out, unsigned* next, int n) {
  __shared__ unsigned base;
  while (true) {
    if (threadIdx.x == 0) base = atomicAdd(next, blockDim.x);
    __syncthreads();
    unsigned i = base + threadIdx.x;
    if (base >= (unsigned)n) break;
    if (i < (unsigned)n) {
      int w = work[i], acc = 0;
      for (int k = 0; k < (w & 15); ++k) acc += k * w;
      out[i] = acc;
    }
    __syncthreads();
  }
}

// Bitonic sort of 1024 ints in one block of 512 threads, in shared memory.
#define N 1024
__global__ void bitonic_sort(int* data) {
  __shared__ int s[N];
  unsigned t = threadIdx.x;
  s[t] = data[t];
  s[t + N / 2] = data[t + N / 2];
  for (unsigned k = 2; k <= N; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      unsigned i = 2 * t - (t & (j - 1));
      unsigned p = i + j;
      bool up = (i & k) == 0;
      int a = s[i], b = s[p];
      if ((a > b) == up) {
        s[i] = b;
        s[p] = a;
      }
    }
  }
  __syncthreads();
  data[t] = s[t];
  data[t + N / 2] = s[t + N / 2];
}

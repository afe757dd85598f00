// A 64-bin byte histogram with 64-bit global atomics, grid-stride, __ldg of bytes.
__global__ void hist_bytes(const unsigned char* __restrict__ data, unsigned long long* bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned char c = __ldg(&data[i]);
    atomicAdd(&bins[c & 63], 1ULL);
  }
}

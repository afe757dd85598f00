// A __noinline__ device function called once per thread: the Collatz steps of in[i] % 1000 + 1
// (at most 300). nvcc keeps it a .func with a call sequence, which the importer inlines.
__device__ __noinline__ int collatz_len(int x) {
  int s = 0;
  while (x != 1 && s < 300) { x = (x & 1) ? 3 * x + 1 : x >> 1; ++s; }
  return s;
}
__global__ void noinline_collatz(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = collatz_len(in[i] % 1000 + 1);
}

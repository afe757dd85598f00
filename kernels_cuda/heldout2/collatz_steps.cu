// Collatz steps with break and continue in a data-dependent while loop.
__global__ void collatz(const unsigned* in, unsigned* steps, unsigned* peak, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i] % 1000u + 1u, s = 0, p = x;
  while (x != 1u) {
    if (s > 500u) break;
    if (x & 1u) { x = 3u * x + 1u; if (x > p) p = x; continue; }
    x >>= 1;
    ++s;
  }
  steps[i] = s;
  peak[i] = p;
}

// __dp4a and __dp2a (signed and unsigned, both halves of b), which the IR does not import
// (dp4a, dp2a): the kernel runs on its SASS alone (IDP.4A, IDP.2A), with __nanosleep and a
// __trap() that the thread named by trapflag reaches (none by default).
__global__ void dot_product_bytes(const unsigned* a, const unsigned* b, int* out, int* trapflag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  out[4 * i] = __dp4a(x, y, 7u);
  out[4 * i + 1] = __dp4a((int)x, (int)y, -3);
  out[4 * i + 2] = __dp2a_lo(x, y, 11u);
  out[4 * i + 3] = __dp2a_hi((int)x, (int)y, -5);
  __nanosleep(100);
  if (trapflag[0] == i) __trap();
}

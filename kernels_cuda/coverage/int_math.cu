// Integer arithmetic a hash or a PRNG does: 64-bit multiplies, shifts and rotates, unsigned and
// signed division and modulo by constants and by variables, min/max/abs, byte swaps.
__device__ unsigned long long splitmix(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
__global__ void int_math(const int* a, const unsigned* b, unsigned long long* h, int* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  unsigned y = b[i];
  unsigned long long z = splitmix(((unsigned long long)y << 32) | (unsigned)x);
  h[2 * i] = z;
  h[2 * i + 1] = (z << 13 | z >> 51) ^ __byte_perm(y, 0, 0x0123) ^ (z / 1000000007ull) ^ (z % 97);
  q[6 * i + 0] = x / 7 + x % 7;
  q[6 * i + 1] = (int)(y / 10u + y % 10u);
  q[6 * i + 2] = x / (int)(y | 1) + x % (int)((y >> 3) | 1);
  q[6 * i + 3] = min(x, (int)y) + max(abs(x), 5) - umin(y, 12345u);
  q[6 * i + 4] = (int)((long long)x * (long long)x >> 17) ^ (x >> 3) ^ (int)(y >> 29);
  q[6 * i + 5] = __mulhi(x, (int)y) + __umul24(y, (unsigned)x) + __mul24(x, -3);
}

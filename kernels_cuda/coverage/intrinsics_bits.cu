// CUDA's bit intrinsics: funnel shifts, byte permutes, bit reversal, find-nth-set, high products,
// sums of absolute differences, halving adds, 64-bit division and remainder.
__global__ void intrinsics_bits(const unsigned* a, const unsigned* b, unsigned long long* c,
                                unsigned* out, unsigned long long* out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned long long z = c[i];
  out[8 * i + 0] = __funnelshift_l(x, y, y & 63);
  out[8 * i + 1] = __funnelshift_rc(x, y, y);
  out[8 * i + 2] = __byte_perm(x, y, y & 0x7777);
  out[8 * i + 3] = __brev(x) ^ __ffs(y) ^ (__clzll(z) << 8) ^ (__popcll(z) << 16);
  out[8 * i + 4] = __umulhi(x, y) + __sad(x, y, 7) + __usad(x, y, 3);
  out[8 * i + 5] = __uhadd(x, y) ^ __urhadd(x, y) ^ __hadd((int)x, (int)y);
  out[8 * i + 6] = __fns(x, y & 31, (int)(y % 5) - 2);
  out[8 * i + 7] = __ffsll((long long)z) + __brevll(z) % 1000;
  out64[2 * i] = __umul64hi(z, (unsigned long long)x * y) ^ (z / (y | 1)) ^ (z % (x | 1));
  out64[2 * i + 1] = (unsigned long long)((long long)z / (long long)((int)y | 1)) + __mul64hi((long long)z, (long long)x);
}

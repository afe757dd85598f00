// A 64-bit finaliser hash, funnel shifts, 64-bit bit counts, __brev and __ffsll.
__global__ void hash64(const unsigned long long* in, unsigned long long* out, unsigned* bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long k = in[i];
  k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL; k ^= k >> 33;
  unsigned lo = (unsigned)k, hi = (unsigned)(k >> 32);
  unsigned r = __funnelshift_l(lo, hi, i & 31) ^ __funnelshift_r(hi, lo, (i * 7) & 31);
  out[i] = k;
  bits[3 * i] = r;
  bits[3 * i + 1] = __popcll(k) + 100u * __clzll(k >> (i & 63));
  bits[3 * i + 2] = __brev(lo) ^ (unsigned)__ffsll(k);
}

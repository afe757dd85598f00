// Integer hashing: 16 rounds of xorshift and multiply per element, then a bucket by an integer
// remainder (which ptxas expands into a multiply-high sequence, the divisor being a parameter).
__global__ void hash_mod(const unsigned* keys, unsigned* buckets, unsigned n, unsigned nbuckets) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned h = keys[i];
  for (int r = 0; r < 16; ++r) {
    h ^= h << 13;
    h ^= h >> 17;
    h ^= h << 5;
    h *= 0x9e3779b1u;
  }
  buckets[i] = h % nbuckets;
}

// Global atomics of every kind CUDA has on 64-bit and 32-bit words (add, min, max, and, or, xor,
// exch, cas, inc, dec, block and system scope, f64 add); each result independent of the order.
__global__ void atomics_64(const unsigned long long* v, unsigned long long* sum, long long* mn,
                           unsigned long long* mx, float* fx, unsigned* ex, double* dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = v[i];
  atomicAdd(&sum[i % 8], x >> 8);
  atomicMin(&mn[i % 4], (long long)x);
  atomicMax(&mx[i % 4], x);
  atomicAnd(&mx[4 + i % 2], x | 0xff00ff00ff00ff00ull);
  atomicOr(&mx[6], x & 0x1111);
  atomicXor(&mx[7], x);
  atomicExch(&fx[i], (float)(x & 0xffff));
  unsigned old = atomicCAS(&ex[26 + i], (unsigned)(i & 1), (unsigned)i + 1);
  atomicInc(&ex[16 + i % 4], 37u);
  atomicDec(&ex[20 + i % 4], 41u);
  if (old == 0) atomicAdd_block(&ex[24], 1u);
  atomicAdd(&dsum[i % 2], (double)(x & 0xff) * 0.5);
  unsigned long long prev = atomicCAS(&sum[9 + i], (unsigned long long)(i & 3), x);
  if (prev == 0) atomicAdd_system(&ex[25], 1u);
}

// A per-thread array indexed by data: each thread counts the decimal digits of its number's
// lowest eight places in a 10-entry array, which nvcc keeps in local memory, and packs the
// counts base 3. nvcc divides by 10 with 16-bit multiplies (mul.wide.u16) once the value is
// small enough.
__global__ void decimal_digits_local(const unsigned* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned counts[10];
  for (int k = 0; k < 10; ++k) counts[k] = 0;
  unsigned v = in[i];
  for (int d = 0; d < 8; ++d) {
    counts[v % 10]++;
    v /= 10;
  }
  unsigned packed = 0;
  for (int k = 0; k < 10; ++k) packed = packed * 3 + counts[k];
  out[i] = packed;
}

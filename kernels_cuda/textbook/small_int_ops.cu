// Byte and short inputs with the integer intrinsics that take them: a shared histogram of the
// bytes' top six bits, __mul24, __umulhi, a wrap to signed char, and __sad (|a - b| + c).
__global__ void small_int_ops(const unsigned char* pixels, const short* values, unsigned* hist,
                              int* out, int n) {
  __shared__ unsigned bins[64];
  for (int k = threadIdx.x; k < 64; k += blockDim.x) bins[k] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned char p = pixels[i];
    atomicAdd(&bins[p >> 2], 1u);
    const short q = values[i];
    out[2 * i] = __mul24(q, (int)p) + __umulhi((unsigned)q * 77777u, 123456789u);
    out[2 * i + 1] = (int)(signed char)(p + q) + __sad(q, (int)p, 3u);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < 64; k += blockDim.x) atomicAdd(&hist[k], bins[k]);
}

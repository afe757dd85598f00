// Producer and consumer warps handing tiles over through named barriers, as CUTLASS's
// warp-specialised kernels do: warps 0-1 load a 64-float tile into shared memory and arrive at
// barrier 1 ("full"); warps 2-3 wait there, write the tile reversed, and arrive at barrier 2
// ("empty"), where the producers wait before they overwrite it. Each barrier counts 128
// threads: two warps arriving and two waiting.
__device__ __forceinline__ void named_sync(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void named_arrive(unsigned id, unsigned threads) {
  asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(threads) : "memory");
}

__global__ void named_barrier_pipeline(const float* in, float* out, int tiles) {
  __shared__ float tile[64];
  const int warp = threadIdx.x / 32;
  const int j = threadIdx.x % 64;
  const float* src = in + blockIdx.x * tiles * 64;
  float* dst = out + blockIdx.x * tiles * 64;
  for (int t = 0; t < tiles; ++t) {
    if (warp < 2) {
      if (t > 0) named_sync(2, 128);
      tile[j] = src[t * 64 + j] * 2.0f;
      named_arrive(1, 128);
    } else {
      named_sync(1, 128);
      dst[t * 64 + j] = tile[63 - j] + 1.0f;
      if (t + 1 < tiles) named_arrive(2, 128);
    }
  }
}

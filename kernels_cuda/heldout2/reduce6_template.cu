// The classic templated reduction with a volatile last warp and dynamic shared memory.
template <unsigned blockSize>
__device__ void warpReduce(volatile float* s, unsigned tid) {
  if (blockSize >= 64) s[tid] += s[tid + 32];
  if (blockSize >= 32) s[tid] += s[tid + 16];
  if (blockSize >= 16) s[tid] += s[tid + 8];
  if (blockSize >= 8) s[tid] += s[tid + 4];
  if (blockSize >= 4) s[tid] += s[tid + 2];
  if (blockSize >= 2) s[tid] += s[tid + 1];
}
template <unsigned blockSize>
__global__ void reduce6(const float* g_idata, float* g_odata, unsigned n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + tid;
  unsigned gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) { sdata[tid] += g_idata[i] + (i + blockSize < n ? g_idata[i + blockSize] : 0.f); i += gridSize; }
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce6<256>(const float*, float*, unsigned);

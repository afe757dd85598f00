// A two-stage copy pipeline, as Ampere and Hopper kernels overlap loading with computing: each
// block streams `tiles` tiles of 128 float4 (2 KB) from global memory into a double buffer in
// shared memory with asynchronous copies (__pipeline_memcpy_async, PTX cp.async), starting the
// next tile's copy before it waits for the current one (__pipeline_wait_prior(1)). Thread t sums
// the four floats of element (t + 1) % 128 of every tile, a neighbour's, so the barrier matters.
#include <cuda_pipeline.h>

__global__ void async_copy_pipeline(const float4* in, float* out, int tiles) {
  __shared__ float4 buffer[2][128];
  const int t = threadIdx.x;
  const float4* base = in + static_cast<size_t>(blockIdx.x) * tiles * 128;
  __pipeline_memcpy_async(&buffer[0][t], &base[t], sizeof(float4));
  __pipeline_commit();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      __pipeline_memcpy_async(&buffer[(k + 1) & 1][t], &base[(k + 1) * 128 + t], sizeof(float4));
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float4 v = buffer[k & 1][(t + 1) % 128];
    sum += v.x + v.y + v.z + v.w;
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = sum;
}

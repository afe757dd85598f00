// A two-stage cuda::pipeline of the whole block: while the block computes on one tile in shared
// memory, the next tile's asynchronous copy is in flight (producer_acquire / commit,
// consumer_wait / release, each stage's phases on its own mbarriers).
#include <cooperative_groups.h>

#include <cuda/pipeline>

namespace cg = cooperative_groups;

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void pipeline_stages(const float* in, float* out, int tiles_per_block) {
  constexpr int kStages = 2;
  constexpr int kTile = 128;
  __shared__ float buf[kStages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int base = blockIdx.x * tiles_per_block * kTile;
  float acc = 0.0f;
  for (int fetch = 0, compute = 0; compute < tiles_per_block; ++compute) {
    for (; fetch < tiles_per_block && fetch < compute + kStages; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % kStages], in + base + fetch * kTile,
                         sizeof(float) * kTile, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[compute % kStages][(threadIdx.x * 7) % kTile] * static_cast<float>(compute + 1);
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

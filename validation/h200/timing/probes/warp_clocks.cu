// When each warp starts and reaches its end on its SM, read off the SM's own clock: how the
// first wave of blocks reaches an SM, how a block's warps start, and when the warps of the
// naive transpose finish within their block (what achieved occupancy sums up).
// Each warp's lane 0 writes one row: case, block, warp, SM, start clock, end clock.
// Clocks of different SMs are not comparable; within an SM they are.
//   nvcc -O3 -arch=sm_90 warp_clocks.cu -o warp_clocks && ./warp_clocks > warp_clocks.csv
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_support.cuh"

struct WarpRecord {
  unsigned block, warp, sm;
  long long start, end;
};

__device__ void record(WarpRecord* out, long long start) {
  const unsigned threads = blockDim.x * blockDim.y;
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid % 32 != 0) return;
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  WarpRecord& r = out[block * ((threads + 31) / 32) + tid / 32];
  r.block = block;
  r.warp = tid / 32;
  r.sm = sm_id();
  r.start = start;
  r.end = clock64();
}

// An empty block, as launch_overhead.kir's `empty` for every block but the first.
__global__ void empty(WarpRecord* out) { record(out, clock64()); }

// cuda_transpose.kir: c = a^T, one 32 x 32 tile per block of 32 x 32 threads. The end clock is
// read after the store has been issued (the warp exits right after it).
__global__ void naive_transpose(int m, const float* a, float* c, WarpRecord* out) {
  const long long start = clock64();
  const int col = blockDim.x * blockIdx.x + threadIdx.x;
  const int row = blockDim.y * blockIdx.y + threadIdx.y;
  if (row < m && col < m) c[col * m + row] = a[row * m + col];
  record(out, start);
}

template <typename Launch>
static void run_case(const char* name, dim3 grid, dim3 block, Launch launch) {
  const unsigned warps_per_block = (block.x * block.y + 31) / 32;
  const size_t n = static_cast<size_t>(grid.x) * grid.y * warps_per_block;
  WarpRecord* out = nullptr;
  check(cudaMalloc(&out, n * sizeof(WarpRecord)), "cudaMalloc");
  for (int pass = 0; pass < 2; ++pass) launch(grid, block, out);  // the first warms up
  check(cudaDeviceSynchronize(), name);
  std::vector<WarpRecord> host(n);
  check(cudaMemcpy(host.data(), out, n * sizeof(WarpRecord), cudaMemcpyDeviceToHost), "copy");
  for (const WarpRecord& r : host) {
    std::printf("%s,%u,%u,%u,%lld,%lld\n", name, r.block, r.warp, r.sm, r.start, r.end);
  }
  check(cudaFree(out), "cudaFree");
}

int main() {
  std::printf("case,block,warp,sm,start,end\n");
  auto empty_launch = [](dim3 g, dim3 b, WarpRecord* out) { empty<<<g, b>>>(out); };
  run_case("empty_one_wave", dim3(1024), dim3(256), empty_launch);
  run_case("empty_waves", dim3(16896), dim3(256), empty_launch);
  run_case("empty_waves_32warps", dim3(4224), dim3(1024), empty_launch);
  run_case("testKernel_32", dim3(512), dim3(32), empty_launch);
  const int m = 2048;
  float *a = nullptr, *c = nullptr;
  check(cudaMalloc(&a, sizeof(float) * m * m), "cudaMalloc a");
  check(cudaMalloc(&c, sizeof(float) * m * m), "cudaMalloc c");
  check(cudaMemset(a, 0, sizeof(float) * m * m), "memset");
  run_case("naive_transpose", dim3(m / 32, m / 32), dim3(32, 32),
           [&](dim3 g, dim3 b, WarpRecord* out) { naive_transpose<<<g, b>>>(m, a, c, out); });
  return 0;
}

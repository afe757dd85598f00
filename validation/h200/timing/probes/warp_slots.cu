// Which warp slot, and so which sub-partition, each warp of a block takes on its SM. %warpid is
// the warp's slot on the SM; slot mod 4 is its sub-partition (SMSP). If a block's warps take
// consecutive slots from the first free one, blocks of 4 warps put every block's warp 0 on one
// sub-partition, and a kernel where only warp 0 works after a barrier (example_syncthreads)
// runs all those warps on one scheduler.
// Each warp's lane 0 writes one row: case, block, warp in block, SM, slot.
// A summary goes to standard error: per case, how the blocks' first warps spread over the
// sub-partitions, and how many blocks have their warps in consecutive slots.
//   nvcc -O3 -arch=sm_90 warp_slots.cu -o warp_slots
//   ./warp_slots > warp_slots.csv 2> warp_slots.txt
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_support.cuh"

struct WarpRecord {
  unsigned block, warp, sm, slot;
};

__global__ void record(WarpRecord* out) {
  if (threadIdx.x % 32 != 0) return;
  unsigned slot;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
  const unsigned sm = sm_id();
  const unsigned warps = (blockDim.x + 31) / 32;
  const unsigned warp = threadIdx.x / 32;
  out[blockIdx.x * warps + warp] = {blockIdx.x, warp, sm, slot};
  // Stay long enough that the SM's slots fill before any block ends.
  const long long start = clock64();
  while (clock64() - start < 20000) {
  }
}

int main() {
  int sm_count = 0;
  check(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0), "attribute");
  std::printf("case,block,warp,sm,slot\n");
  for (unsigned threads : {32u, 64u, 96u, 128u, 256u, 1024u}) {
    const unsigned warps = threads / 32;
    // One full wave: as many blocks as the SMs hold (64 warps or 32 blocks each).
    const unsigned per_sm = std::min(64u / warps, 32u);
    const unsigned blocks = static_cast<unsigned>(sm_count) * per_sm;
    WarpRecord* out = nullptr;
    check(cudaMalloc(&out, blocks * warps * sizeof(WarpRecord)), "cudaMalloc");
    record<<<blocks, threads>>>(out);
    check(cudaDeviceSynchronize(), "record");
    std::vector<WarpRecord> host(blocks * warps);
    check(cudaMemcpy(host.data(), out, host.size() * sizeof(WarpRecord), cudaMemcpyDeviceToHost),
          "copy");
    unsigned first_on[4] = {0, 0, 0, 0};
    unsigned consecutive = 0;
    for (unsigned b = 0; b < blocks; ++b) {
      const WarpRecord* w = &host[b * warps];
      ++first_on[w[0].slot % 4];
      bool in_order = true;
      for (unsigned i = 1; i < warps; ++i) in_order = in_order && w[i].slot == w[0].slot + i;
      consecutive += in_order ? 1 : 0;
      for (unsigned i = 0; i < warps; ++i) {
        std::printf("w%u,%u,%u,%u,%u\n", warps, w[i].block, w[i].warp, w[i].sm, w[i].slot);
      }
    }
    std::fprintf(stderr,
                 "blocks of %u warps: first warps on sub-partitions 0-3: %u %u %u %u; "
                 "%u of %u blocks in consecutive slots\n",
                 warps, first_on[0], first_on[1], first_on[2], first_on[3], consecutive, blocks);
    check(cudaFree(out), "cudaFree");
  }
  return 0;
}

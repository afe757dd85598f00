// How fast an SM is refilled with blocks when only some SMs ask for them: is the block
// launcher's rate each SM's own, or shared by the whole GPU? The first K SMs (by %smid) run
// blocks that only read a flag; on every other SM a block spins long enough that those SMs stay
// full until the K have run about 128 blocks each. If the rate is each SM's, a refilling SM starts
// a block every ~155 cycles whatever K is (empty_waves, K = all); if it is the GPU's, fewer
// refilling SMs get blocks faster.
// The refilling SMs are either the first K by %smid (spread over the GPCs: case w<warps>) or
// all the SMs of one GPC (case w<warps>_gpc), which tells a GPU-wide launcher from one per GPC;
// which SMs share a GPC is learnt first from where the blocks of clusters land.
// Then each SM holding one block at a time (case slot_w<warps>): the refill latency.
// Each block's thread 0 writes one row: case, K, block, SM, start clock, end clock (the SM's
// own clock; clocks of different SMs are not comparable). Then one row per SM: gpc, group, SM.
// A summary goes to standard error: per case, each refilling SM's cycles per block in the
// steady state (from 8 blocks past its first wave to 8 before its last), median and range over
// those SMs; for one slot, the medians of start-to-start and end-to-next-start.
//   nvcc -O3 -arch=sm_90 launch_rate.cu -o launch_rate
//   ./launch_rate > launch_rate.csv 2> launch_rate.txt
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "probe_support.cuh"

struct BlockRecord {
  unsigned sm;
  long long start, end;
};

__global__ void find_sms(unsigned* sms) {
  if (threadIdx.x == 0) sms[blockIdx.x] = sm_id();
}

// Launched in clusters of 4 with one block per SM (its shared memory fills an SM), so a
// cluster's four blocks are on four SMs of one GPC.
__global__ void cluster_sms(unsigned* sms) {
  extern __shared__ unsigned char fill[];
  if (threadIdx.x == 0) {
    fill[0] = 0;
    sms[blockIdx.x] = sm_id();
  }
}

// `fast[smid]` is 1 on the SMs that refill; elsewhere the block holds its SM for `spin` cycles.
__global__ void split(const unsigned char* fast, long long spin, BlockRecord* out) {
  const long long start = clock64();
  const unsigned sm = sm_id();
  if (!fast[sm]) {
    while (clock64() - start < spin) {
    }
  }
  if (threadIdx.x != 0) return;
  out[blockIdx.x] = {sm, start, clock64()};
}

// Launched with shared memory that fills an SM, so each SM holds one block at a time and
// refills the same slot: the time from one block's end to the next one's start on an SM is the
// refill latency, for blocks of any size.
__global__ void one_slot(BlockRecord* out) {
  extern __shared__ unsigned char fill[];
  const long long start = clock64();
  if (threadIdx.x != 0) return;
  fill[0] = 0;
  out[blockIdx.x] = {sm_id(), start, clock64()};
}

static double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static std::map<unsigned, std::vector<BlockRecord>> by_sm(const std::vector<BlockRecord>& rows) {
  std::map<unsigned, std::vector<BlockRecord>> sms;
  for (const BlockRecord& r : rows) sms[r.sm].push_back(r);
  for (auto& [sm, v] : sms) {
    std::sort(v.begin(), v.end(),
              [](const BlockRecord& a, const BlockRecord& b) { return a.start < b.start; });
  }
  return sms;
}

static void summarise_refills(const char* name, unsigned k, unsigned resident,
                              const std::vector<BlockRecord>& rows) {
  std::vector<double> per_block;
  for (const auto& [sm, v] : by_sm(rows)) {
    if (v.size() <= resident + 16) continue;  // a spinning SM, or too few to tell
    const size_t from = resident + 8, to = v.size() - 8;
    per_block.push_back(static_cast<double>(v[to].start - v[from].start) / (to - from));
  }
  if (per_block.empty()) return;
  const auto [low, high] = std::minmax_element(per_block.begin(), per_block.end());
  std::fprintf(stderr, "%s k=%u: %zu SMs refilling, %.1f cycles per block each (%.1f-%.1f)\n", name,
               k, per_block.size(), median(per_block), *low, *high);
}

static void summarise_one_slot(const char* name, const std::vector<BlockRecord>& rows) {
  std::vector<double> start_to_start, end_to_start;
  for (const auto& [sm, v] : by_sm(rows)) {
    for (size_t i = 1; i < v.size(); ++i) {
      start_to_start.push_back(static_cast<double>(v[i].start - v[i - 1].start));
      end_to_start.push_back(static_cast<double>(v[i].start - v[i - 1].end));
    }
  }
  std::fprintf(stderr, "%s: start to next start %.0f cycles, end to next start %.0f (medians)\n",
               name, median(start_to_start), median(end_to_start));
}

int main() {
  int sm_count = 0;
  check(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0), "attribute");
  // The SM ids a launch uses (they need not be 0..sm_count-1).
  const unsigned probe_blocks = static_cast<unsigned>(sm_count) * 16;
  unsigned* ids = nullptr;
  check(cudaMalloc(&ids, probe_blocks * sizeof(unsigned)), "cudaMalloc ids");
  find_sms<<<probe_blocks, 256>>>(ids);
  std::vector<unsigned> host_ids(probe_blocks);
  check(cudaMemcpy(host_ids.data(), ids, probe_blocks * sizeof(unsigned), cudaMemcpyDeviceToHost),
        "copy ids");
  std::sort(host_ids.begin(), host_ids.end());
  host_ids.erase(std::unique(host_ids.begin(), host_ids.end()), host_ids.end());
  const unsigned id_range = host_ids.back() + 1;

  // SMs that ever share a cluster share a GPC: union-find over many clusters of 4.
  const unsigned cluster_blocks = static_cast<unsigned>(sm_count) * 64;
  unsigned* cluster_ids = nullptr;
  check(cudaMalloc(&cluster_ids, cluster_blocks * sizeof(unsigned)), "cudaMalloc clusters");
  const int fill_bytes = 200 * 1024;
  check(cudaFuncSetAttribute(cluster_sms, cudaFuncAttributeMaxDynamicSharedMemorySize, fill_bytes),
        "shared attribute");
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(cluster_blocks);
  config.blockDim = dim3(32);
  config.dynamicSmemBytes = fill_bytes;
  cudaLaunchAttribute cluster_shape;
  cluster_shape.id = cudaLaunchAttributeClusterDimension;
  cluster_shape.val.clusterDim.x = 4;
  cluster_shape.val.clusterDim.y = 1;
  cluster_shape.val.clusterDim.z = 1;
  config.attrs = &cluster_shape;
  config.numAttrs = 1;
  check(cudaLaunchKernelEx(&config, cluster_sms, cluster_ids), "cluster launch");
  std::vector<unsigned> placed(cluster_blocks);
  check(cudaMemcpy(placed.data(), cluster_ids, cluster_blocks * sizeof(unsigned),
                   cudaMemcpyDeviceToHost),
        "copy clusters");
  std::vector<unsigned> parent(id_range);
  for (unsigned i = 0; i < id_range; ++i) parent[i] = i;
  auto root = [&](unsigned x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (unsigned c = 0; c + 3 < cluster_blocks; c += 4) {
    for (unsigned r = 1; r < 4; ++r) parent[root(placed[c + r])] = root(placed[c]);
  }
  std::vector<unsigned> first_gpc;  // the SMs sharing a GPC with the first SM
  for (unsigned id : host_ids) {
    if (root(id) == root(host_ids[0])) first_gpc.push_back(id);
  }

  unsigned char* fast = nullptr;
  check(cudaMalloc(&fast, id_range), "cudaMalloc fast");
  std::printf("case,k,block,sm,start,end\n");
  const unsigned threads[] = {256, 32, 64, 128, 512, 1024};
  for (unsigned block_threads : threads) {
    // Blocks an SM holds at once: 2,048 threads or 32 blocks.
    const unsigned resident = std::min(2048u / block_threads, 32u);
    const unsigned all = static_cast<unsigned>(host_ids.size());
    const unsigned gpc = static_cast<unsigned>(first_gpc.size());
    const std::pair<unsigned, bool> cases[] = {{all, false}, {66, false}, {gpc, true}, {gpc, false},
                                               {16, false},  {4, false},  {1, false}};
    for (const auto& [k, one_gpc] : cases) {
      std::vector<unsigned char> host_fast(id_range, 0);
      for (unsigned i = 0; i < k; ++i) host_fast[one_gpc ? first_gpc[i] : host_ids[i]] = 1;
      check(cudaMemcpy(fast, host_fast.data(), id_range, cudaMemcpyHostToDevice), "copy fast");
      const unsigned slow = static_cast<unsigned>(host_ids.size()) - k;
      const unsigned blocks = slow * resident + k * 128;
      BlockRecord* out = nullptr;
      check(cudaMalloc(&out, blocks * sizeof(BlockRecord)), "cudaMalloc out");
      // 400,000 cycles (about 0.2 ms): far longer than 128 blocks take at 155 cycles each.
      for (int pass = 0; pass < 2; ++pass) split<<<blocks, block_threads>>>(fast, 400000, out);
      check(cudaDeviceSynchronize(), "split");
      std::vector<BlockRecord> host(blocks);
      check(cudaMemcpy(host.data(), out, blocks * sizeof(BlockRecord), cudaMemcpyDeviceToHost),
            "copy out");
      char name[32];
      std::snprintf(name, sizeof name, "w%u%s", block_threads / 32, one_gpc ? "_gpc" : "");
      for (unsigned b = 0; b < blocks; ++b) {
        std::printf("%s,%u,%u,%u,%lld,%lld\n", name, k, b, host[b].sm, host[b].start, host[b].end);
      }
      summarise_refills(name, k, resident, host);
      check(cudaFree(out), "cudaFree");
    }
  }
  // One block per SM at a time: 64 per SM, of 1, 8 and 32 warps.
  check(cudaFuncSetAttribute(one_slot, cudaFuncAttributeMaxDynamicSharedMemorySize, fill_bytes),
        "shared attribute");
  for (unsigned block_threads : {32u, 256u, 1024u}) {
    const unsigned blocks = static_cast<unsigned>(host_ids.size()) * 64;
    BlockRecord* out = nullptr;
    check(cudaMalloc(&out, blocks * sizeof(BlockRecord)), "cudaMalloc out");
    for (int pass = 0; pass < 2; ++pass) one_slot<<<blocks, block_threads, fill_bytes>>>(out);
    check(cudaDeviceSynchronize(), "one_slot");
    std::vector<BlockRecord> host(blocks);
    check(cudaMemcpy(host.data(), out, blocks * sizeof(BlockRecord), cudaMemcpyDeviceToHost),
          "copy out");
    char name[32];
    std::snprintf(name, sizeof name, "slot_w%u", block_threads / 32);
    for (unsigned b = 0; b < blocks; ++b) {
      std::printf("%s,1,%u,%u,%lld,%lld\n", name, b, host[b].sm, host[b].start, host[b].end);
    }
    summarise_one_slot(name, host);
    check(cudaFree(out), "cudaFree");
  }
  for (unsigned id : host_ids) std::printf("gpc,%u,%u\n", root(id), id);
  return 0;
}

// The occupancy model against two independent references:
//  - the CUDA toolkit's calculator, cuda_occupancy.h (header-only; compiled in when found), on
//    random kernels for the sm_80, sm_86, sm_90 and sm_100 configs;
//  - a real H200: cudaOccupancyMaxActiveBlocksPerMultiprocessor for compiled kernels over block
//    sizes and dynamic shared memory (validation/h200/results/occupancy.csv).
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "sim/scheduler/occupancy.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/config_options.hpp"

#if WARPSIM_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>
#endif

namespace warpsim::test {
namespace {

config::GpuConfig gpu(const char* name) {
  std::ostringstream err;
  auto c = cli::load_gpu_config(name, {}, err);
  REQUIRE(c.has_value());
  return *c;
}

TEST_CASE("warpsim occupancy equals a real H200's for every case of the sweep") {
  const auto h200 = gpu("h200");
  std::ifstream in(source_dir() / "validation/h200/results/occupancy.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  std::size_t rows = 0, zero = 0;
  for (; std::getline(in, line); ++rows) {
    std::istringstream fields(line);
    std::string kernel, regs, smem, block, dynamic, blocks;
    std::getline(fields, kernel, ',');
    std::getline(fields, regs, ',');
    std::getline(fields, smem, ',');
    std::getline(fields, block, ',');
    std::getline(fields, dynamic, ',');
    std::getline(fields, blocks, ',');
    const scheduler::KernelResources k{std::stoull(block), std::stoull(regs), std::stoull(smem),
                                       std::stoull(dynamic)};
    const auto o = scheduler::compute_occupancy(h200, k);
    CAPTURE(line);
    REQUIRE(o.blocks_per_sm == std::stoull(blocks));
    zero += o.blocks_per_sm == 0;
  }
  // 10 kernels x 32 block sizes x up to 10 dynamic amounts; some cannot run at all.
  CHECK(rows > 2500);
  CHECK(zero > 0);
}

#if WARPSIM_HAVE_CUDA_OCCUPANCY
cudaOccDeviceProp toolkit_props(const config::GpuConfig& g) {
  cudaOccDeviceProp p;
  p.computeMajor = static_cast<int>(g.cc_major);
  p.computeMinor = static_cast<int>(g.cc_minor);
  p.maxThreadsPerBlock = static_cast<int>(g.max_threads_per_block);
  p.maxThreadsPerMultiprocessor = static_cast<int>(g.max_threads_per_sm);
  p.regsPerBlock = static_cast<int>(g.max_registers_per_block);
  p.regsPerMultiprocessor = static_cast<int>(g.registers_per_sm);
  p.warpSize = 32;
  p.sharedMemPerBlock = g.shared_memory_per_block;
  p.sharedMemPerMultiprocessor = g.shared_memory_per_sm;
  p.numSms = static_cast<int>(g.sm_count);
  p.sharedMemPerBlockOptin = g.shared_memory_per_block_optin;
  p.reservedSharedMemPerBlock = g.reserved_shared_memory_per_block;
  return p;
}

TEST_CASE("warpsim occupancy equals cuda_occupancy.h on 10,000 random kernels per config") {
  // The toolkit fixes blocks per SM by architecture; the configs for real parts agree with it.
  for (const char* name : {"a100", "sm86-ga102", "h200", "cc100-example"}) {
    CAPTURE(name);
    const auto g = gpu(name);
    const cudaOccDeviceProp props = toolkit_props(g);
    std::mt19937_64 rng(42);
    for (int i = 0; i < 10000; ++i) {
      scheduler::KernelResources k;
      k.block_threads = 1 + rng() % 1024;
      // 1 to 255: what ptxas can emit (the calculator itself accepts 256).
      k.registers_per_thread = 1 + rng() % 255;
      k.static_shared_bytes = rng() % 3 == 0 ? 0 : rng() % 50000;
      k.dynamic_shared_bytes =
          rng() % 2 == 0 ? 0 : rng() % (g.shared_memory_per_block_optin + 4096);
      cudaOccFuncAttributes attr;
      attr.maxThreadsPerBlock = 1024;
      attr.numRegs = static_cast<int>(k.registers_per_thread);
      attr.sharedSizeBytes = k.static_shared_bytes;
      // As a kernel that opts in to all the dynamic shared memory it launches with.
      attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
      attr.maxDynamicSharedSizeBytes = k.dynamic_shared_bytes;
      cudaOccDeviceState state;
      cudaOccResult result = {};
      const cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
          &result, &props, &attr, &state, static_cast<int>(k.block_threads),
          k.dynamic_shared_bytes);
      const auto o = scheduler::compute_occupancy(g, k);
      CAPTURE(k.block_threads);
      CAPTURE(k.registers_per_thread);
      CAPTURE(k.static_shared_bytes);
      CAPTURE(k.dynamic_shared_bytes);
      if (status != CUDA_OCC_SUCCESS) {
        REQUIRE(o.blocks_per_sm == 0);
      } else {
        REQUIRE(o.blocks_per_sm ==
                static_cast<std::uint64_t>(result.activeBlocksPerMultiprocessor));
      }
    }
  }
}
#endif

}  // namespace
}  // namespace warpsim::test

// The functional executors' turns (exec::kWarpQuantum): kernels_cuda/coverage/spin_handshakes.cu,
// whose warps and blocks wait for each other through memory with no barrier, finish on the IR
// executor and on the SASS executor with the outputs the handshakes define.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/exec/program.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

const std::filesystem::path& handshakes() {
  static const auto path = source_dir() / "kernels_cuda" / "coverage" / "spin_handshakes.cu";
  return path;
}

// The launch named, as the IR imports it.
KernelRun imported(const std::string& launch) {
  cli::InputOptions input;
  input.launch_file = (handshakes().parent_path() / "spin_handshakes.launch").string();
  cli::LaunchOverrides overrides;
  overrides.launch_name = launch;
  return resolved({cli::load_kernel_file(handshakes().string(), input), {}, {}}, overrides);
}

// The launch's `out` as the IR executor and the SASS executor leave it.
std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>> outputs(const std::string& launch) {
  const SassOnlyRun sass_run = run_sass_file(handshakes(), true, launch);
  return {values_of<std::int32_t>(imported(launch).run().memory, "out"),
          values_of<std::int32_t>(sass_run.result.memory, "out")};
}

}  // namespace

TEST_CASE("a warp or block spinning on a flag that another sets finishes, on both executors") {
  if (!have_nvcc() || !have_sass_tools("the coverage kernels are not run")) return;
  // Thread 0 of each block waits for thread 32 (the next warp) to write 7 + the block's index.
  const auto [warp_ir, warp_sass] = outputs("warp_handshake");
  CHECK(warp_ir == std::vector<std::int32_t>{7, 8});
  CHECK(warp_sass == warp_ir);
  // Its two shared ints, declared .align 4 by nvcc, take 8 bytes as ptxas lays them out (an
  // H100 reports 8), not 20 as two arrays aligned to 16 would.
  CHECK(exec::static_shared_bytes(*imported("warp_handshake").spec.kernel) == 8);
  // Blocks 0-4 wait for block 5's 42 and add their index; block 5 writes no out.
  const auto [block_ir, block_sass] = outputs("block_handshake");
  CHECK(block_ir == std::vector<std::int32_t>{42, 43, 44, 45, 46, 0});
  CHECK(block_sass == block_ir);
}

}  // namespace warpsim::test

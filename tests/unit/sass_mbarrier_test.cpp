// mbarrier on the SASS (sim/sass/sass_mbarrier.hpp): cuda::barrier and cuda::pipeline kernels
// of kernels_cuda/coverage/ checked against C++ references, the barrier object's fields step by
// step as the PTX ISA defines them, both in timing mode, and a phase that never completes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

bool mbarrier_tools() {
  return have_nvcc() && have_sass_tools("the mbarrier kernels are not run");
}

// The fields of a token's high word (the object's before the arrival), by the layout
// sass_mbarrier.hpp gives: the phase's parity (bit 63) and 2^20 - the pending arrivals (bits
// 43-62), as ptxas's pending_count and parity waits read them.
struct Fields {
  std::uint64_t pending;
  unsigned phase;
  std::uint32_t operand;  // the token's low word: the count or transactions operand
};
Fields fields(std::uint64_t token) {
  return {(1u << 20) - ((token >> 43) & 0xfffff), static_cast<unsigned>(token >> 63),
          static_cast<std::uint32_t>(token)};
}

TEST_CASE("cuda::barrier's asynchronous copies arrive on its mbarrier; each round reads its tile") {
  if (!mbarrier_tools()) return;
  const SassOnlyRun r = run_sass_only("coverage", "barrier_copy.cu");
  const auto in = values_of<float>(r.kernel.initial, "in");
  const auto out = values_of<float>(r.result.memory, "out");
  REQUIRE(out.size() == 4096);
  // Block b's round r copies tile 2b + r (256 floats) and writes element t as its neighbour
  // t + 1 (wrapping) doubled, plus r.
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t base = i / 256 * 256, round = i / 256 % 2;
    CAPTURE(i);
    CHECK(out[i] == in[base + (i - base + 1) % 256] * 2.0f + static_cast<float>(round));
  }
}

TEST_CASE("a two-stage cuda::pipeline of the block sums ten tiles in order") {
  if (!mbarrier_tools()) return;
  const SassOnlyRun r = run_sass_only("coverage", "pipeline_stages.cu");
  const auto in = values_of<float>(r.kernel.initial, "in");
  const auto out = values_of<float>(r.result.memory, "out");
  REQUIRE(out.size() == 768);
  // Thread t of block b: acc = fma(tile c's element 7t mod 128, c + 1, acc) for c = 0..9 (the
  // compiler contracts the multiply-add), each tile 128 floats from b * 1280.
  for (std::size_t b = 0; b < 6; ++b) {
    for (std::size_t t = 0; t < 128; ++t) {
      float acc = 0.0f;
      for (std::size_t c = 0; c < 10; ++c)
        acc = std::fma(in[b * 1280 + c * 128 + t * 7 % 128], static_cast<float>(c + 1), acc);
      CAPTURE(b);
      CAPTURE(t);
      CHECK(out[b * 128 + t] == acc);
    }
  }
}

TEST_CASE("an mbarrier's arrivals, transactions, dropped arrival and phases, step by step") {
  if (!mbarrier_tools()) return;
  const SassOnlyRun r = run_sass_only("coverage", "mbarrier_probe.cu");
  const auto words = values_of<std::uint64_t>(r.result.memory, "words");
  const auto flags = values_of<std::uint32_t>(r.result.memory, "flags");
  REQUIRE(words.size() == 16);
  // The arrivals of mbarrier_probe.cu, one thread, count 64, each token the object's high word
  // before it and the instruction's count or transaction operand (0 for a plain arrival):
  // arrive 1 (64 pending); arrive 3 (63); after expect_tx 100 and complete_tx 40,
  // arrive.expect_tx 8 (60: one arrival); after complete_tx 68 (no transaction left),
  // arrive_drop (59: one arrival, and one expected fewer from now on); arrive 58 (58 pending:
  // the phase completes: parity 1, 63 pending as now expected); arrive 1 in phase 1 (63).
  const std::uint64_t pending[] = {64, 63, 60, 59, 58, 63};
  const std::uint32_t operand[] = {0, 3, 8, 0, 58, 0};
  for (std::size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    const Fields f = fields(words[i]);
    CHECK(f.pending == pending[i]);
    CHECK(f.phase == (i < 5 ? 0u : 1u));
    CHECK(f.operand == operand[i]);
    // The transaction field (bits 21-41) holds the pending transactions negated: at
    // arrive.expect_tx 100 - 40 = 60 are pending, -60 in 21 bits is 0x1fffc4, whose top ten
    // bits (the token's bits 32-41) are all ones; none are pending at the other arrivals.
    CHECK(((words[i] >> 32) & 0x3ffu) == (i == 2 ? 0x3ffu : 0u));
  }
  // pending_count of arrive.expect_tx's token (60), test_wait on the first token before and
  // after its phase, test_wait.parity of 0 and 1 after it.
  CHECK(flags[0] == 60);
  CHECK(flags[1] == 0);
  CHECK(flags[2] == 1);
  CHECK(flags[3] == 1);
  CHECK(flags[4] == 0);
  // Then 63 threads arrive and all 64 wait for parity 1: it completes, back to parity 0.
  CHECK(flags[5] == 1);
  CHECK(flags[6] == 0);
  CHECK(flags[7] == 64);  // every thread passed its wait
  for (std::size_t i = 6; i < words.size(); ++i) CHECK(words[i] == 0u);
}

TEST_CASE("mbarrier kernels give the same outputs and instruction counts in timing mode") {
  if (!mbarrier_tools()) return;
  for (const char* name : {"barrier_copy", "pipeline_stages", "mbarrier_probe"}) {
    CAPTURE(name);
    const auto dir = source_dir() / "kernels_cuda" / "coverage";
    auto counts = [&](const std::string& mode) {
      const CommandResult c = run_cli(
          {"run", (dir / (std::string(name) + ".cu")).string(), "--launch-file",
           (dir / (std::string(name) + ".launch")).string(), "--frontend", "sass", "--mode", mode});
      CHECK(c.exit_code == 0);
      const auto at = c.out.find("smsp__inst_executed.sum");
      REQUIRE(at != std::string::npos);
      return c.out.substr(at, c.out.find('\n', at) - at);
    };
    CHECK(counts("functional") == counts("timing"));
  }
}

TEST_CASE("an mbarrier phase that never completes is a located error, not a hang") {
  if (!mbarrier_tools()) return;
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "warpsim_mbarrier_never";
  fs::create_directories(dir);
  // The barrier expects 65 arrivals from a block of 64 threads: its phase never completes.
  std::ofstream(dir / "never.cu") << R"(
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
__global__ void never(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}
)";
  std::ofstream(dir / "never.launch")
      << "launch never grid(1) block(64) {\n  out = s32[64] zero\n}\n";
  for (const char* mode : {"functional", "timing"}) {
    CAPTURE(mode);
    const CommandResult c =
        run_cli({"run", (dir / "never.cu").string(), "--launch-file",
                 (dir / "never.launch").string(), "--frontend", "sass", "--mode", mode});
    CHECK(c.exit_code != 0);
    CHECK(c.err.find("mbarrier's phase never completes") != std::string::npos);
    CHECK(c.err.find("SYNCS.PHASECHK.TRANS64.TRYWAIT") != std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace warpsim::test

// In timing mode the SASS a kernel runs reads the timing model's SM: clock() and clock64() give
// the SM's cycle, %smid its index. Functional mode has one SM and counts instructions instead.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "tests/unit/cuda_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

constexpr const char* kChain =
    "__global__ void chain(long long* t, unsigned* sm, float* y) {\n"
    "  unsigned id;\n"
    "  asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(id));\n"
    "  float v = threadIdx.x;\n"
    "  long long t0 = clock64();\n"
    "  #pragma unroll\n"
    "  for (int k = 0; k < 100; ++k) v = fmaf(v, 1.0001f, 0.5f);\n"
    "  long long t1 = clock64();\n"
    "  y[blockIdx.x * 32 + threadIdx.x] = v;\n"
    "  if (threadIdx.x == 0) { t[blockIdx.x] = t1 - t0; sm[blockIdx.x] = id; }\n"
    "}\n";
constexpr const char* kChainLaunch =
    "launch chain grid(8) block(32) {\n  t = s64[8] zero\n  sm = u32[8] zero\n"
    "  y = f32[256] zero\n}\n";

template <typename T>
std::vector<T> read_dump(const std::filesystem::path& path, std::size_t count) {
  std::vector<T> values(count);
  std::ifstream(path, std::ios::binary)
      .read(reinterpret_cast<char*>(values.data()),
            static_cast<std::streamsize>(count * sizeof(T)));
  return values;
}

struct ChainRun {
  std::vector<std::int64_t> cycles;
  std::vector<std::uint32_t> sms;
};

ChainRun run_chain(const std::string& mode) {
  const auto cu = write_cuda("clock_chain", kChain, kChainLaunch);
  const auto t = cu.parent_path() / ("t_" + mode + ".bin");
  const auto sm = cu.parent_path() / ("sm_" + mode + ".bin");
  const CommandResult r =
      run_cli({"run", cu.string(), "--launch-file",
               (cu.parent_path() / "clock_chain.launch").string(), "--frontend", "sass", "--mode",
               mode, "--dump", "t=" + t.string(), "--dump", "sm=" + sm.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return {read_dump<std::int64_t>(t, 8), read_dump<std::uint32_t>(sm, 8)};
}

TEST_CASE("clock64 reads the SM's cycle and %smid its index in the SASS frontend's timing mode") {
  if (!have_nvcc("the kernel is not compiled here") ||
      !have_sass_tools("the kernel's SASS is not run"))
    return;
  // 100 dependent FFMAs between the two clock reads, each issued 4 cycles after the one before
  // (their encoded stall count, the FMA's latency): at least 400 cycles. ptxas also places the
  // read of threadIdx.x between them (S2R, sass.special_register_latency = 20 cycles to its
  // result) and its conversion to float, which the chain waits for: no more than 440.
  const ChainRun timed = run_chain("timing");
  for (const std::int64_t c : timed.cycles) {
    CHECK(c >= 400);
    CHECK(c <= 440);
  }
  // 8 blocks on 132 SMs: each on an SM of its own.
  const std::set<std::uint32_t> distinct(timed.sms.begin(), timed.sms.end());
  CHECK(distinct.size() == 8);
  for (const std::uint32_t s : timed.sms) CHECK(s < 132);
  // Functional mode: one SM, and the clock counts the warp's instructions, the 100 FFMAs and
  // the few around them.
  const ChainRun functional = run_chain("functional");
  for (const std::int64_t c : functional.cycles) {
    CHECK(c >= 100);
    CHECK(c < 110);
  }
  for (const std::uint32_t s : functional.sms) CHECK(s == 0);
}

}  // namespace
}  // namespace warpsim::test

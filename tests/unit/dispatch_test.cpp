// Registers per thread (annotated or estimated), and how a grid dispatches in waves.
#include "sim/scheduler/dispatch.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/register_estimate.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("seed 004: saxpy's 4096 blocks on 82 SMs x 8 blocks dispatch in 6.24 waves") {
  // 2048 threads / 256 = 8 blocks per SM; 82 x 8 = 656 blocks (167,936 threads) per wave;
  // 4096 / 656 = 6.24: six full waves and 4096 - 6 x 656 = 160 blocks. The seed rounds
  // 1,048,576 / 167,936 to "about 6.25".
  const auto p = scheduler::plan_dispatch(4096, 82, 8);
  CHECK(p.per_wave == 656);
  CHECK(p.full_waves == 6);
  CHECK(p.last_wave_blocks == 160);
  CHECK(p.waves == doctest::Approx(4096.0 / 656.0));
  const auto r =
      run_cli({"run", (source_dir() / "kernels_ir/saxpy.kir").string(), "--config", "rtx3090"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("8 blocks per SM, limited by warps") != std::string::npos);
  CHECK(r.out.find("656 blocks per wave, 6.24 waves (6 full, then 160 blocks)") !=
        std::string::npos);
}

TEST_CASE("a regs(N) annotation is the register count; without one, liveness estimates it") {
  const auto annotated =
      ir::load_module_text("a", "kernel k(o: ptr global u32) regs(40) {\nentry:\n  ret\n}\n");
  REQUIRE(annotated.ok());
  const auto a = ir::registers_per_thread(annotated.module.kernels[0]);
  CHECK(a.registers == 40);
  CHECK_FALSE(a.estimated);
  // Live before each instruction, walking back: st {%w} = 2 slots; add {%y, %z} = 2 + 2 = 4;
  // cvt {%y, %x} = 3; lt {%y, %x} = 3 (%p, a predicate, takes none); mov.u64 {%x} = 1.
  // Peak 4, plus 2 for the compiler's own: 6.
  const auto estimated = ir::load_module_text(
      "e",
      "kernel k(o: ptr global u64) {\nentry:\n  %x = mov.u32 1\n  %y = mov.u64 2\n"
      "  %p = lt.u32 %x, 3\n  %z = cvt.u64.u32 %x\n  %w = add.u64 %y, %z\n"
      "  st.global.u64 o[0], %w\n  ret\n}\n");
  REQUIRE(estimated.ok());
  const auto e = ir::registers_per_thread(estimated.module.kernels[0]);
  CHECK(e.estimated);
  CHECK(e.registers == 6);
}

TEST_CASE("the run JSON carries the effective config and the occupancy metrics") {
  const auto path = std::filesystem::temp_directory_path() / "warpsim_occupancy.json";
  const auto r = run_cli({"run", (source_dir() / "kernels_ir/testKernel.kir").string(), "--config",
                          "cc100-example", "--json", path.string()});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["config"]["keys"]["sm.max_threads"] == "2048");
  // <<<512, 768>>> on the CC 10.0 example: 2 blocks per SM, 75 % (seed 000).
  CHECK(j["metrics"]["blocks_per_sm"] == 2);
  CHECK(j["metrics"]["sm__maximum_warps_per_active_cycle_pct"] == 75.0);
  CHECK(j["metrics"]["launch__occupancy_limit_warps"] == 2);
}

}  // namespace
}  // namespace warpsim::test

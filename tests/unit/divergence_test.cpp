// Seed 003, example 2: in each warp 16 lanes take the long path and 16 the short one. The warp
// runs both, one after the other, each with 16 active lanes, then reconverges.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

TEST_CASE("the divergence kernel splits each warp 16/16 and counts one divergent branch per warp") {
  // 4 warps, so "per warp" is visible in the totals.
  cli::LaunchOverrides o;
  o.block = "128";
  o.args = {"out = f32[128] zero"};
  const auto k = load_kernel("warp_divergence.kir", o);
  const auto r = k.run();
  // Per warp: entry 4 instructions x 32 lanes; long path 7 x 16 (5 fma, st, jmp); short path
  // 5 x 16 (3 fma, st, jmp); the join's ret x 32. So 17 warp instructions and
  // 128 + 112 + 80 + 32 = 352 thread instructions per warp.
  CHECK(r.stats.warp_instructions == 4 * 17);
  CHECK(r.stats.thread_instructions == 4 * 352);
  CHECK(r.stats.divergent_branches == 4);
  // br once and jmp once on each side: 3 branch instructions per warp.
  CHECK(r.stats.branch_instructions == 4 * 3);
}

TEST_CASE("warpsim run --json reports the divergence with Nsight Compute's metric names") {
  const auto json_path = std::filesystem::temp_directory_path() / "warpsim_divergence.json";
  // The IR's counts and its per-branch table (the SASS run has its own: sass_listing_test).
  const auto r = run_cli({"run", (source_dir() / "kernels_ir/warp_divergence.kir").string(),
                          "--frontend", "ir", "--json", json_path.string()});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(json_path);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["kernel"] == "warp_divergence");
  CHECK(j["launch"]["grid"] == nlohmann::json::array({1, 1, 1}));
  const auto& m = j["metrics"];
  CHECK(m["smsp__sass_branch_targets_threads_divergent.sum"] == 1);
  CHECK(m["smsp__inst_executed.sum"] == 17);
  CHECK(m["smsp__thread_inst_executed.sum"] == 352);
  REQUIRE(j["branches"].size() == 1);
  CHECK(j["branches"][0]["threads_taken"] == 16);
  CHECK(j["branches"][0]["threads_not_taken"] == 16);
}

TEST_CASE("vecAdd on the seed's sizes: 3907 blocks, 1,000,192 threads, 192 past the bounds check") {
  // The per-branch thread counts are the IR's rows (the source's branch, not ptxas's).
  const auto r =
      run_cli({"run", (source_dir() / "kernels_ir/vecAdd.kir").string(), "--frontend", "ir"});
  REQUIRE(r.exit_code == 0);
  // ceil(1,000,000 / 256) = 3907 blocks; 3907 * 256 = 1,000,192 threads; the bounds check
  // sends 1,000,000 threads on and 192 to the exit.
  CHECK(r.out.find("blocks 3,907, threads launched 1,000,192") != std::string::npos);
  CHECK(r.out.find("threads taken 1,000,000, not taken 192") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

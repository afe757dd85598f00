// The seeds' occupancy worked examples, through the occupancy model and the configs built from
// the seeds' own tables.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/scheduler/occupancy.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/config_options.hpp"

namespace warpsim::test {
namespace {

config::GpuConfig gpu(const char* name) {
  std::ostringstream err;
  auto c = cli::load_gpu_config(name, {}, err);
  INFO(err.str());
  REQUIRE(c.has_value());
  return *c;
}

scheduler::Occupancy occupancy(const char* config, std::uint64_t block, std::uint64_t regs,
                               std::uint64_t smem = 0) {
  return scheduler::compute_occupancy(gpu(config), {block, regs, smem, 0});
}

TEST_CASE("seed 000 (CC 10.0): <<<512, 768>>> runs 2 blocks per SM, 75 %") {
  // 2 x 768 = 1536 <= 2048 < 3 x 768 threads.
  const auto o = occupancy("cc100-example", 768, 32);
  CHECK(o.blocks_per_sm == 2);
  CHECK(o.binding == scheduler::Limiter::Warps);
  CHECK(o.occupancy() == doctest::Approx(0.75));
}

TEST_CASE("seed 000 (CC 10.0): <<<512, 32>>> hits the 32-block limit, 50 %") {
  // 32 blocks x 32 threads = 1024 of 2048 threads.
  const auto o = occupancy("cc100-example", 32, 32);
  CHECK(o.blocks_per_sm == 32);
  CHECK(o.binding == scheduler::Limiter::Blocks);
  CHECK(o.occupancy() == doctest::Approx(0.5));
}

TEST_CASE("seed 000 (CC 10.0): 100 KB of shared memory per block allows 2 blocks") {
  // 100 KB + 1 KB reserved = 103,424 bytes; 233,472 / 103,424 = 2.26.
  const auto o = occupancy("cc100-example", 128, 32, 100 * 1024);
  CHECK(o.blocks_per_sm == 2);
  CHECK(o.binding == scheduler::Limiter::SharedMemory);
}

TEST_CASE("seed 004 (RTX 3090 table): every block size from 64 to 1024 reaches 100 %") {
  // 2048 threads and 32 blocks per SM: 64 -> 32 blocks (both limits), 128 -> 16, 256 -> 8,
  // 512 -> 4, 1024 -> 2.
  const std::pair<std::uint64_t, std::uint64_t> table[] = {
      {64, 32}, {128, 16}, {256, 8}, {512, 4}, {1024, 2}};
  for (const auto& [block, blocks] : table) {
    CAPTURE(block);
    const auto o = occupancy("rtx3090", block, 32);
    CHECK(o.blocks_per_sm == blocks);
    CHECK(o.occupancy() == doctest::Approx(1.0));
  }
}

TEST_CASE("seed 004: 40 registers per thread give 6 blocks of 256, 12 of 128, 3 of 512 (75 %)") {
  // 40 x 32 = 1280 registers per warp; 65,536 / 4 partitions = 16,384 per partition holds 12
  // warps, 48 per SM: 48 / 8 = 6 blocks of 256, 48 / 4 = 12 of 128, 48 / 16 = 3 of 512.
  CHECK(occupancy("rtx3090", 256, 40).blocks_per_sm == 6);
  CHECK(occupancy("rtx3090", 128, 40).blocks_per_sm == 12);
  CHECK(occupancy("rtx3090", 512, 40).blocks_per_sm == 3);
  const auto o = occupancy("rtx3090", 256, 40);
  CHECK(o.binding == scheduler::Limiter::Registers);
  CHECK(o.occupancy() == doctest::Approx(0.75));
}

TEST_CASE("seed 004: 40 KB of shared memory out of 128 KB gives 3 blocks of 256, 37.5 %") {
  // 40 KB + 1 KB reserved = 41,984 bytes; 131,072 / 41,984 = 3.1; 3 x 8 warps = 24 of 64.
  const auto o = occupancy("rtx3090", 256, 32, 40 * 1024);
  CHECK(o.blocks_per_sm == 3);
  CHECK(o.binding == scheduler::Limiter::SharedMemory);
  CHECK(o.occupancy() == doctest::Approx(0.375));
}

TEST_CASE("seed 003: 64 registers per thread allow 1024 threads, 32 registers 2048") {
  // 65,536 / 64 = 1024 threads = 32 warps; 65,536 / 32 = 2048 threads (the thread limit too).
  CHECK(occupancy("rtx3090", 256, 64).warps_per_sm == 32);
  CHECK(occupancy("rtx3090", 256, 32).warps_per_sm == 64);
}

TEST_CASE("the shared memory an SM is configured with at launch leaves the rest to L1") {
  // The H200's carveouts: 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KB; every block also holds
  // 1 KB of reserved shared memory, and allocations are rounded to 128 B.
  const config::GpuConfig h = gpu("h200");
  // No shared memory, 1-thread blocks: 32 blocks x 1 KB reserved = 32 KB, exactly a carveout.
  CHECK(scheduler::launch_shared_carveout(h, occupancy("h200", 1, 4)) == 32 * 1024);
  // The padded transpose: 32 x 33 floats = 4,224 B + 1,024 = 5,248 (41 x 128); 2 blocks of 1,024
  // threads = 10,496 B, so the 16 KB carveout and 240 KB of L1.
  CHECK(scheduler::launch_shared_carveout(h, occupancy("h200", 1024, 8, 4224)) == 16 * 1024);
  // 100 KB per block, 2 blocks: (100 + 1) x 2 = 202 KB, the 228 KB carveout.
  CHECK(scheduler::launch_shared_carveout(h, occupancy("h200", 256, 8, 100 * 1024)) == 228 * 1024);
}

TEST_CASE("a kernel that cannot run reports why") {
  CHECK(occupancy("h200", 256, 300).blocks_per_sm == 0);             // over 255 registers
  CHECK(occupancy("h200", 1024, 128).blocks_per_sm == 0);            // 128K registers per block
  CHECK(occupancy("h200", 256, 32, 300 * 1024).blocks_per_sm == 0);  // over the opt-in maximum
  CHECK_FALSE(occupancy("h200", 256, 300).reason.empty());
}

TEST_CASE("warpsim occupancy: the table, the JSON keys, the sweep and its graph") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto r = run_cli({"occupancy", "--config", "rtx3090", "--block", "256", "--regs", "40",
                          "--json", (dir / "warpsim_occ.json").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("limited by registers: 6 blocks per SM, 48 of 64 warps: theoretical "
                   "occupancy 75.00 %") != std::string::npos);
  std::ifstream in(dir / "warpsim_occ.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["metrics"]["launch__occupancy_limit_registers"] == 6);
  CHECK(j["metrics"]["launch__occupancy_limit_warps"] == 8);
  CHECK(j["metrics"]["launch__occupancy_limit_blocks"] == 32);
  CHECK(j["metrics"]["sm__maximum_warps_per_active_cycle_pct"] == 75.0);
  CHECK(j["metrics"]["blocks_per_sm"] == 6);
  const auto sweep = run_cli({"occupancy", "--config", "h200", "--regs", "40", "--sweep", "--svg",
                              (dir / "warpsim_sweep.svg").string()});
  REQUIRE(sweep.exit_code == 0);
  // Block sizes 32, 64, ..., 1024: 32 rows.
  std::size_t rows = 0;
  for (std::size_t at = sweep.out.find(" %  "); at != std::string::npos;
       at = sweep.out.find(" %  ", at + 1)) {
    ++rows;
  }
  CHECK(rows == 32);
  CHECK(std::filesystem::file_size(dir / "warpsim_sweep.svg") > 1000);
  CHECK(run_cli({"occupancy", "--config", "h200"}).exit_code == 2);  // no --block, no --sweep
}

}  // namespace
}  // namespace warpsim::test

// The timing model against its contracts: it never changes a result or a deterministic counter;
// its statistics do not depend on the number of simulation threads; bank conflicts and the
// scheduler policy change cycles; and it reproduces the calibration measurements its config
// values were derived from (validation/h200/timing/calibration.csv, measured on the H200).
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

cli::LaunchOverrides small(const std::string& file) {
  cli::LaunchOverrides o;
  if (file.find("transpose") != std::string::npos) o.args = {"m=256"};
  return o;
}

TEST_CASE("the timing model computes the same results and counters as the functional one") {
  for (const auto& path : files_in(source_dir() / "kernels_ir", ".kir")) {
    const std::string file = path.filename().string();
    CAPTURE(file);
    const auto k = load_kernel(file, small(file));
    const auto functional = k.run();
    const auto timed = run_timed(k, h200(), 2);
    check_same_counters(functional.stats, timed.functional.stats);
    for (std::size_t i = 0; i < functional.memory.buffers.size(); ++i) {
      CAPTURE(functional.memory.buffers[i].name);
      CHECK(functional.memory.buffers[i].bytes == timed.functional.memory.buffers[i].bytes);
    }
  }
}

TEST_CASE("timing statistics are the same on 1, 2 and 3 simulation threads") {
  for (const auto& path : files_in(source_dir() / "kernels_ir", ".kir")) {
    const std::string file = path.filename().string();
    CAPTURE(file);
    const auto k = load_kernel(file, small(file));
    const auto one = run_timed(k, h200(), 1);
    for (std::uint32_t threads : {2u, 3u}) {
      CAPTURE(threads);
      const auto many = run_timed(k, h200(), threads);
      CHECK(many.timing.threads == threads);
      CHECK(many.timing.elapsed_cycles == one.timing.elapsed_cycles);
      CHECK(many.timing.sm_active_cycles_avg == one.timing.sm_active_cycles_avg);
      CHECK(many.timing.achieved_occupancy == one.timing.achieved_occupancy);
      CHECK(many.timing.issued == one.timing.issued);
      CHECK(many.timing.l1_sector_hits == one.timing.l1_sector_hits);
      CHECK(many.timing.l2_sector_hits == one.timing.l2_sector_hits);
      CHECK(many.timing.dram_read_bytes == one.timing.dram_read_bytes);
      CHECK(many.timing.warp_state_cycles == one.timing.warp_state_cycles);
      check_same_counters(one.functional.stats, many.functional.stats);
      for (std::size_t i = 0; i < one.functional.memory.buffers.size(); ++i)
        CHECK(one.functional.memory.buffers[i].bytes == many.functional.memory.buffers[i].bytes);
    }
  }
}

std::uint64_t cycles_of(const std::string& file, const std::string& launch,
                        const std::vector<std::string>& sets = {}) {
  cli::LaunchOverrides o;
  o.launch_name = launch;
  return run_timed(load_kernel(file, o), h200(sets)).timing.elapsed_cycles;
}

TEST_CASE("bank conflicts cost cycles: the shared pipe serves one wavefront at a time") {
  // One warp, 16,384 loads. At 32-way each load is 32 wavefronts, served 2 cycles apart on one
  // sub-partition's path (calibration), so the loop takes about 16,384 x 32 x 2 cycles: the
  // pipe, not the loop's other instructions, sets the pace. Conflict-free, the loop's four
  // instructions per load do (about 10 cycles a load, as measured: 10.3).
  const auto one = cycles_of("calibration/shared_conflicts.kir", "conflicts_1way");
  const auto many = cycles_of("calibration/shared_conflicts.kir", "conflicts_32way");
  CHECK(static_cast<double>(many) / 16384 == doctest::Approx(32 * 2).epsilon(0.06));
  CHECK(static_cast<double>(one) / 16384 < 12);
}

TEST_CASE("an SM's constant cache starts empty: each line's first load pays the miss once") {
  // const_cold reads 16 lines of the constant bank once, const_warm laps them 64 times; every
  // load depends on the one before. Raising the miss latencies (the SM's first miss and the
  // others) by 1,000 cycles delays each first load of a line by 1,000 and nothing else: both
  // launches take 16 x 1,000 cycles more (within one synchronisation interval, at which the
  // final store's completion is settled). Were lines not kept, const_warm would take 1,024 x
  // 1,000 more.
  const auto gpu = h200();
  for (const char* launch : {"const_cold", "const_warm"}) {
    const auto k = load_kernel("calibration/constant_cache.kir", [&] {
      cli::LaunchOverrides o;
      o.launch_name = launch;
      return o;
    }());
    const auto base =
        run_timed(k, h200({"timing.const_miss_latency=0", "timing.const_first_miss_latency=0"}))
            .timing.elapsed_cycles;
    const auto slow =
        run_timed(k,
                  h200({"timing.const_miss_latency=1000", "timing.const_first_miss_latency=1000"}))
            .timing.elapsed_cycles;
    CAPTURE(launch);
    CHECK(slow - base >= 16'000 - gpu.timing.l2_latency);
    CHECK(slow - base <= 16'000 + gpu.timing.l2_latency);
  }
}

TEST_CASE("a launch spread over more GPCs pays gpc_launch_cycles for each further one") {
  // empty_1 runs one block: one GPC, nothing extra. empty_one_wave's 1,024 blocks reach all 8
  // GPCs: raising gpc_launch_cycles by 1,000 adds 7 x 1,000 to it and nothing else.
  for (const auto& [launch, gpcs] : {std::pair{"empty_1", 1}, std::pair{"empty_one_wave", 8}}) {
    CAPTURE(launch);
    const auto base =
        cycles_of("calibration/launch_overhead.kir", launch, {"timing.gpc_launch_cycles=0"});
    const auto more =
        cycles_of("calibration/launch_overhead.kir", launch, {"timing.gpc_launch_cycles=1000"});
    CHECK(more - base == static_cast<std::uint64_t>(gpcs - 1) * 1000);
  }
}

TEST_CASE("the compiled code's address arithmetic and S2R are issued outside loops only") {
  // vecAdd (N = 1,000,000, 3,907 blocks of 256 threads: 31,256 warps) reads three special
  // registers, once each, and the 31,250 warps with a thread below N make two loads and a
  // store: 31,256 x 3 x special_register_issue + 31,250 x 3 x global_address_issue.
  const auto vec = load_kernel("vecAdd.kir", {});
  const auto vec_extra =
      run_timed(vec, h200({"timing.global_address_issue=4", "timing.special_register_issue=1"}))
          .timing.compiled_extra;
  CHECK(vec_extra == 31'256ull * 3 * 1 + 31'250ull * 3 * 4);
  // pointer_chase's 65,536 loads are in its loop; only the final store is not: raising
  // global_address_issue by 56 adds 56 once.
  const auto chase = load_kernel("calibration/pointer_chase.kir", [] {
    cli::LaunchOverrides o;
    o.launch_name = "chase_l1";
    return o;
  }());
  const auto base = run_timed(chase, h200({"timing.global_address_issue=4"})).timing;
  const auto more = run_timed(chase, h200({"timing.global_address_issue=60"})).timing;
  CHECK(more.compiled_extra - base.compiled_extra == 56);
}

TEST_CASE("each scheduler policy runs every seed kernel to the same results") {
  const auto k = load_kernel("calibration/shared_conflicts.kir", [] {
    cli::LaunchOverrides o;
    o.launch_name = "conflicts_1way_32warps";
    return o;
  }());
  std::map<std::string, std::uint64_t> cycles;
  for (const char* policy : {"lrr", "gto", "two_level"}) {
    const auto r = run_timed(k, h200({std::string("timing.scheduler=") + policy}));
    cycles[policy] = r.timing.elapsed_cycles;
    check_same_counters(k.run().stats, r.functional.stats);
  }
  // Greedy-then-oldest runs one warp ahead and leaves stragglers: the same work, later.
  CHECK(cycles["gto"] != cycles["lrr"]);
  CHECK(cycles["two_level"] != cycles["lrr"]);
}

// gpc__cycles_elapsed.max measured for `launch` in the committed calibration results.
double measured_cycles(const std::string& launch) {
  std::ifstream csv(source_dir() / "validation/h200/timing/calibration.csv");
  REQUIRE(csv.good());
  const std::string key = "," + launch + ",\"gpc__cycles_elapsed.max\",";
  for (std::string line; std::getline(csv, line);) {
    const auto at = line.find(key);
    if (at == std::string::npos) continue;
    // kernel,launch,"metric","simulated","measured","verdict"
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        fields.push_back(std::exchange(field, ""));
      else
        field += c;
    }
    fields.push_back(field);
    REQUIRE(fields.size() >= 5);
    return std::stod(fields[4]);
  }
  FAIL("no measurement for " << launch);
  return 0;
}

TEST_CASE("the H200 config reproduces the calibration measurements it was derived from") {
  // Each launch pins down one value of configs/h200.ini (docs/calibration.md has the
  // derivation); the model on that config must land within 10 % of the hardware's cycles.
  const std::vector<std::pair<std::string, std::string>> launches = {
      {"calibration/alu_chains.kir", "fma_chain"},
      {"calibration/alu_chains.kir", "f64_chain"},
      {"calibration/alu_chains.kir", "f64_cvt_chain"},
      {"calibration/alu_chains.kir", "int_cvt_chain"},
      {"calibration/shared_chase.kir", "shared_chase"},
      {"calibration/pointer_chase.kir", "chase_l1"},
      {"calibration/pointer_chase.kir", "chase_l2"},
      {"calibration/pointer_chase.kir", "chase_l2_first"},
      {"calibration/pointer_chase.kir", "chase_l2_laps"},
      {"calibration/constant_cache.kir", "const_cold"},
      {"calibration/constant_cache.kir", "const_warm"},
      {"calibration/shared_conflicts.kir", "conflicts_32way"},
      {"calibration/shared_conflicts.kir", "conflicts_32way_32warps"},
      {"calibration/shared_conflicts.kir", "st_conflicts_32way_32warps"},
      {"calibration/pointer_chase.kir", "chase_l1_pages"},
      {"calibration/launch_overhead.kir", "empty_1"},
      {"calibration/launch_overhead.kir", "empty_waves"},
      {"calibration/launch_overhead.kir", "empty_waves_32warps"},
      {"calibration/launch_overhead.kir", "empty_waves_cluster2"},
      {"calibration/bandwidth.kir", "stream_l2"},
      {"calibration/bandwidth.kir", "stream_l2_1sm"},
      {"calibration/scatter.kir", "scatter_one"},
      {"calibration/scatter.kir", "scatter_all"},
      {"calibration/scatter.kir", "gather_one"},
      {"calibration/atomics.kir", "atom_one_line"},
      {"calibration/atomics.kir", "atom_spread"},
      {"calibration/atomics.kir", "atom_lines16"},
      {"calibration/atomics.kir", "atom_one_lane"},
      {"calibration/clusters.kir", "dsmem_atomics"},
      {"calibration/clusters.kir", "dsmem_atomics_scatter"},
      {"calibration/alu_chains.kir", "idiv_chain"},
      {"calibration/alu_chains.kir", "irem_chain"},
      {"calibration/dram_load.kir", "chase_dram_1warp"},
      {"calibration/dram_load.kir", "chase_dram_8warps"},
  };
  for (const auto& entry : launches) {
    const std::string& file = entry.first;
    const std::string& launch = entry.second;
    CAPTURE(launch);
    const double measured = measured_cycles(launch);
    const auto simulated = static_cast<double>(cycles_of(file, launch));
    CHECK(simulated == doctest::Approx(measured).epsilon(0.10));
  }
}

}  // namespace
}  // namespace warpsim::test

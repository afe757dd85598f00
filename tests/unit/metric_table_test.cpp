// The table of counters (sim/metrics/metrics.def) drives every report: each counter is in the
// JSON and the text report, the SMs' counters are all added up in timing mode, and validate's
// rules are well formed.
#include "sim/metrics/metric_table.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/unit/json_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

using metrics::metric_table;
using metrics::Source;

TEST_CASE("every metric has a unique name, a unit, a description and a sound rule") {
  std::set<std::string_view> names;
  for (const metrics::MetricInfo& m : metric_table()) {
    CAPTURE(m.name);
    CHECK(names.insert(m.name).second);
    CHECK(!m.unit.empty());
    CHECK(!m.description.empty());
    const bool bounded =
        m.compare == metrics::Compare::WithinPercent || m.compare == metrics::Compare::WithinPoints;
    CHECK((m.tolerance > 0) == bounded);
    // warpsim's own names are never asked of the GPU; Nsight Compute's are two-part names.
    if (m.name.starts_with("warpsim__")) CHECK(m.gpu == metrics::Gpu::NotMeasured);
    CHECK(m.name.find("__") != std::string_view::npos);
    CHECK(metrics::find_metric(m.name) == m.id);
  }
  CHECK(!metrics::find_metric("no__such_metric.sum").has_value());
}

TEST_CASE("every counter is in the JSON and the text report of the modes that count it") {
  // clusterHist uses global atomics, shared and distributed shared memory, barriers and branches.
  const std::string kernel = "clusterHist_kernel.kir";
  const std::vector<std::string> small = {"--grid", "8", "--frontend", "ir"};
  for (const bool timing : {false, true}) {
    CAPTURE(timing);
    std::vector<std::string> extra = small;
    if (timing) extra.insert(extra.end(), {"--mode", "timing", "--threads", "1"});
    const nlohmann::json j = run_json(kernel, extra);
    std::vector<std::string> text_args = {"run", "--file",
                                          (source_dir() / "kernels_ir" / kernel).string()};
    text_args.insert(text_args.end(), extra.begin(), extra.end());
    const CommandResult text = run_cli(text_args);
    REQUIRE(text.exit_code == 0);
    for (const metrics::MetricInfo& m : metric_table()) {
      CAPTURE(m.name);
      // The IR executor ran: the SASS instruction classes are not counted.
      const bool expected =
          m.source == Source::Functional || (m.source == Source::Timing && timing);
      CHECK(j["metrics"].contains(std::string(m.name)) == expected);
      CHECK((text.out.find(std::string(m.name)) != std::string::npos) == expected);
    }
  }
}

TEST_CASE("timing mode adds up every SM's counters: they equal the functional run's") {
  // Each kernel spreads its blocks over many SMs in timing mode, whose counters are merged;
  // the functional run counts them in one place. Any counter left out of the merge would be
  // smaller in timing mode.
  for (const std::string kernel : {"clusterHist_kernel.kir", "sum_reduce.kir", "saxpy.kir",
                                   "warp_divergence.kir", "smem_transpose.kir"}) {
    CAPTURE(kernel);
    const std::vector<std::string> small = {"--grid", "300"};
    const bool one_block = kernel == "warp_divergence.kir" || kernel == "smem_transpose.kir";
    const std::vector<std::string> shape = one_block ? std::vector<std::string>{} : small;
    const nlohmann::json functional = run_json(kernel, shape);
    for (const std::string threads : {"1", "2"}) {
      std::vector<std::string> extra = shape;
      extra.insert(extra.end(), {"--mode", "timing", "--threads", threads});
      const nlohmann::json timed = run_json(kernel, extra);
      for (const metrics::MetricInfo& m : metric_table()) {
        if (m.source != Source::Functional) continue;
        CAPTURE(m.name);
        CHECK(timed["metrics"][std::string(m.name)] == functional["metrics"][std::string(m.name)]);
      }
      CHECK(timed["lines"] == functional["lines"]);
      CHECK(timed["branches"] == functional["branches"]);
    }
  }
}

TEST_CASE("each warp-state counter is that state's warp cycles per issued instruction") {
  // Nsight Compute's smsp__average_warps_issue_stalled_X_per_issue_active.ratio is the warp
  // cycles spent in state X over the cycles that issued an instruction: the report's warp_states
  // (cycles) over warpsim__inst_issued. States the model has no cause for are 0.
  const nlohmann::json j =
      run_json("sum_reduce.kir", {"--grid", "64", "--mode", "timing", "--threads", "1"});
  const double issued = j["metrics"]["warpsim__inst_issued"].get<double>();
  REQUIRE(issued > 0);
  const std::string prefix = "smsp__average_warps_issue_stalled_";
  int modelled = 0;
  for (const metrics::MetricInfo& m : metric_table()) {
    if (!m.name.starts_with(prefix)) continue;
    CAPTURE(m.name);
    const std::string state(m.name.substr(
        prefix.size(), m.name.size() - prefix.size() - std::strlen("_per_issue_active.ratio")));
    const double value = j["metrics"][std::string(m.name)].get<double>();
    if (!j["warp_states"].contains(state)) {
      CHECK(value == 0.0);
      continue;
    }
    ++modelled;
    CHECK(value == doctest::Approx(j["warp_states"][state].get<double>() / issued));
  }
  // Every state of the model but `launching` (a block being set up: no warp on the GPU yet).
  CHECK(modelled == static_cast<int>(j["warp_states"].size()) - 1);
  CHECK(j["metrics"][prefix + "barrier_per_issue_active.ratio"].get<double>() > 0);
}

// Every byte of a counters-only struct set to one pattern, through its object representation:
// the merge must then carry each one, listed or not.
template <class T>
T filled_with(std::uint64_t value) {
  static_assert(sizeof(T) % sizeof(std::uint64_t) == 0);
  std::vector<std::uint64_t> words(sizeof(T) / sizeof(std::uint64_t), value);
  T out;
  std::memcpy(static_cast<void*>(&out), words.data(), sizeof(T));
  return out;
}

template <class T>
bool all_words_equal(const T& v, std::uint64_t value) {
  std::vector<std::uint64_t> words(sizeof(T) / sizeof(std::uint64_t));
  std::memcpy(words.data(), static_cast<const void*>(&v), sizeof(T));
  return std::all_of(words.begin(), words.end(), [&](std::uint64_t w) { return w == value; });
}

TEST_CASE("merging adds every field of every statistics struct") {
  exec::LaunchStats total, part;
  part.warp_instructions = part.thread_instructions = part.branch_instructions = 1;
  part.divergent_branches = part.barriers = 1;
  part.memory = filled_with<exec::MemoryStats>(1);
  part.per_branch = {filled_with<exec::BranchStats>(1), filled_with<exec::BranchStats>(1)};
  part.per_memory = {filled_with<exec::MemoryLineStats>(1)};
  total.per_branch.resize(2);
  total.per_memory.resize(1);
  exec::add_launch_stats(total, part);
  exec::add_launch_stats(total, part);
  // Twice one in every counter, the per-instruction ones included.
  CHECK(total.warp_instructions == 2);
  CHECK(total.thread_instructions == 2);
  CHECK(total.branch_instructions == 2);
  CHECK(total.divergent_branches == 2);
  CHECK(total.barriers == 2);
  CHECK(all_words_equal(total.memory, 2));
  CHECK(all_words_equal(total.per_branch[0], 2));
  CHECK(all_words_equal(total.per_branch[1], 2));
  CHECK(all_words_equal(total.per_memory[0], 2));
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

TEST_CASE("warpsim counters lists the table; --measured the names the GPU is asked for") {
  const CommandResult all = run_cli({"counters"});
  REQUIRE(all.exit_code == 0);
  const CommandResult functional = run_cli({"counters", "--measured", "functional"});
  const CommandResult timing = run_cli({"counters", "--measured", "timing"});
  REQUIRE(functional.exit_code == 0);
  REQUIRE(timing.exit_code == 0);
  for (const metrics::MetricInfo& m : metrics::metric_table()) {
    CAPTURE(m.name);
    const std::string line = std::string(m.name) + "\n";
    CHECK(all.out.find(std::string(m.name) + " ") != std::string::npos);
    const bool measured = m.gpu != metrics::Gpu::NotMeasured;
    const bool in_functional = functional.out.find(line) != std::string::npos;
    const bool in_timing = timing.out.find(line) != std::string::npos;
    CHECK(in_functional == (measured && m.source != Source::Timing));
    CHECK(in_timing == (measured && m.source == Source::Timing));
  }
  const CommandResult bad = run_cli({"counters", "--measured", "some"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--measured must be all, functional or timing") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

// What the timeline and the trace draw: one SM's warp-state spans, blocks, barrier releases and
// counters, recorded within a budget, and the Chrome trace written from them.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "sim/scheduler/sm/activity_recorder.hpp"
#include "tests/unit/test_support.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

std::string kernel_path(const char* name) {
  return (source_dir() / "kernels_ir" / name).string();
}

using scheduler::TimelineSegment;
using scheduler::WarpState;

TimelineSegment span(std::uint64_t start, std::uint64_t end, WarpState s) {
  TimelineSegment t;
  t.start = start;
  t.end = end;
  t.state = s;
  return t;
}

std::array<std::uint64_t, scheduler::kWarpStates> cycles_by_state(
    const std::vector<TimelineSegment>& spans) {
  std::array<std::uint64_t, scheduler::kWarpStates> c{};
  for (const TimelineSegment& s : spans) c[static_cast<std::size_t>(s.state)] += s.end - s.start;
  return c;
}

// smem_transpose on a 512 x 512 matrix: 256 blocks of 32 warps, one barrier each.
KernelRun small_transpose() {
  cli::LaunchOverrides o;
  o.grid = "16,16";
  o.args = {"m=512"};
  return load_kernel("smem_transpose.kir", o);
}

scheduler::TimingResult recorded(const KernelRun& k, std::uint32_t threads) {
  const config::GpuConfig gpu = h200();
  const cli::LaunchOccupancy o = cli::launch_occupancy(gpu, k.spec);
  scheduler::TimingOptions options;
  options.threads = threads;
  options.record_sms = {0, 7};
  return scheduler::simulate_timing(k.loaded.module, k.spec, gpu, o.occupancy, options);
}

}  // namespace

TEST_CASE("a bin shows the state that held most of its cycles") {
  // Quantum 10: [0,10) holds 3 selected and 7 wait cycles, so it is wait; [10,20) holds 4
  // selected and 6 long_scoreboard, so long_scoreboard, which [20,30) continues: one span.
  scheduler::StateBinner binner(10);
  binner.add(span(0, 3, WarpState::Selected));
  binner.add(span(3, 10, WarpState::Wait));
  binner.add(span(10, 14, WarpState::Selected));
  binner.add(span(14, 30, WarpState::LongScoreboard));
  const std::vector<TimelineSegment>& out = binner.finish();
  REQUIRE(out.size() == 2);
  CHECK((out[0].start == 0 && out[0].end == 10 && out[0].state == WarpState::Wait));
  CHECK((out[1].start == 10 && out[1].end == 30 && out[1].state == WarpState::LongScoreboard));
  // A tie goes to the state listed first (selected before wait); quantum 1 keeps every span.
  scheduler::StateBinner tie(4);
  tie.add(span(0, 2, WarpState::Wait));
  tie.add(span(2, 4, WarpState::Selected));
  CHECK(tie.finish().front().state == WarpState::Selected);
  scheduler::StateBinner exact(1);
  exact.add(span(0, 2, WarpState::Wait));
  exact.add(span(2, 3, WarpState::Selected));
  CHECK(exact.finish().size() == 2);
}

TEST_CASE("past its budget the recorder coarsens spans and keeps counters exact at bin edges") {
  // 10,000 one-cycle spans alternating selected and wait on one warp, into a budget of 64.
  scheduler::ActivityRecorder r(true, 64, 3, 1);
  std::array<std::uint64_t, scheduler::kWarpStates> exact{};
  for (std::uint64_t c = 0; c < 10'000; ++c) {
    const WarpState s = c % 2 == 0 ? WarpState::Selected : WarpState::Wait;
    r.segment(span(c, c + 1, s));
    exact[static_cast<std::size_t>(s)] += 1;
    r.memory_change(c, 1);  // one request per cycle, each answered 5 cycles later
    r.memory_change(c + 5, -1);
  }
  const scheduler::SmActivity a = r.take(exact);
  CHECK(a.sm == 3);
  CHECK(a.quantum > 1);
  CHECK(a.counter_quantum > 1);
  CHECK(a.segments.size() <= 64);
  // The spans still cover every cycle once, from 0 to 10,000.
  std::uint64_t covered = 0;
  for (const TimelineSegment& s : a.segments) covered += s.end - s.start;
  CHECK(covered == 10'000);
  CHECK(a.state_cycles == exact);
  // Changes move down to a multiple X of the quantum q. At a sample X, the issues of cycles
  // below X + q are counted and the answers of those below X + q - 5: while X + q <= 10,000,
  // that is 5 in flight. The last sample, past every answer, reads 0.
  REQUIRE(a.memory_in_flight.size() >= 2);
  CHECK(a.memory_in_flight.back().value == 0);
  for (const scheduler::CounterSample& c : a.memory_in_flight) {
    CHECK(c.cycle % a.counter_quantum == 0);
    if (c.cycle + a.counter_quantum <= 10'000) CHECK(c.value == 5);
  }
}

TEST_CASE("the recorded SM's spans add up to its warp-state cycles, its blocks and barriers") {
  const KernelRun k = small_transpose();
  const scheduler::TimingResult r = recorded(k, 1);
  REQUIRE(r.timing.activity.size() == 2);
  const scheduler::SmActivity& sm0 = r.timing.activity[0];
  CHECK(sm0.sm == 0);
  CHECK(r.timing.activity[1].sm == 7);
  REQUIRE(sm0.quantum == 1);  // well within the budget: every span as simulated
  CHECK(cycles_by_state(sm0.segments) == sm0.state_cycles);
  // 256 blocks over 132 SMs in rounds: SM 0 runs at least one, each block releases its one
  // barrier once, and the blocks' stays are ordered.
  REQUIRE(!sm0.blocks.empty());
  CHECK(sm0.barriers.size() == sm0.blocks.size());
  for (const scheduler::BlockSpan& b : sm0.blocks) {
    CHECK(b.assigned <= b.started);
    CHECK(b.started < b.retired);
    CHECK(b.retired <= r.timing.kernel_cycles);
  }
  // Counters end where they start, never negative, at most a full SM's warps resident.
  const auto peak = static_cast<std::int64_t>(r.timing.blocks_per_sm * k.spec.warps_per_block());
  for (const auto* series : {&sm0.resident_warps, &sm0.memory_in_flight}) {
    REQUIRE(!series->empty());
    CHECK(series->back().value == 0);
    for (const scheduler::CounterSample& c : *series) CHECK(c.value >= 0);
  }
  for (const scheduler::CounterSample& c : sm0.resident_warps) CHECK(c.value <= peak);
  // The same record on two simulation threads.
  const scheduler::TimingResult two = recorded(k, 2);
  CHECK(two.timing.activity[0].segments.size() == sm0.segments.size());
  CHECK(cycles_by_state(two.timing.activity[1].segments) ==
        cycles_by_state(r.timing.activity[1].segments));
  CHECK(two.timing.activity[0].blocks.size() == sm0.blocks.size());
}

TEST_CASE("run --trace writes Chrome trace events whose warp spans are the report's states") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto trace = dir / "warpsim_trace.json";
  const auto json = dir / "warpsim_trace_report.json";
  // One block: SM 0 runs the whole launch, so its spans are the report's warp states.
  const auto r =
      run_cli({"run", kernel_path("sum_reduce.kir"), "--mode", "timing", "--trace", trace.string(),
               "--trace-sms", "0-1", "--json", json.string(), "--grid", "1"});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(trace);
  const nlohmann::json t = nlohmann::json::parse(in);
  std::ifstream report_in(json);
  const nlohmann::json report = nlohmann::json::parse(report_in);
  std::map<std::string, std::uint64_t> spans;
  std::size_t blocks = 0, launches = 0, barriers = 0, counters = 0;
  for (const nlohmann::json& e : t["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "X" && e["cat"] == "warp_state") {
      // ts and dur are microseconds with one nanosecond (one cycle) resolution.
      spans[e["name"]] += static_cast<std::uint64_t>(std::llround(e["dur"].get<double>() * 1000));
    }
    if (ph == "X" && e["cat"] == "block") ++blocks;
    if (ph == "i") (e["cat"] == "block" ? launches : barriers) += 1;
    if (ph == "C") ++counters;
    if (ph != "M") CHECK(e["pid"].get<int>() <= 1);
  }
  CHECK(blocks == 1);
  CHECK(launches == 1);
  CHECK(barriers == 1);  // the block's one bar.sync
  CHECK(counters >= 4);  // warps resident on and off, requests in flight up and down
  CHECK(t["otherData"]["warp_state_bin_cycles_by_sm"]["0"] == 1);
  for (const auto& state : report["warp_states"].items()) {
    INFO(state.key());
    CHECK(spans[state.key()] == state.value().get<std::uint64_t>());
  }
  // Block tracks only: no warp spans.
  REQUIRE(run_cli({"run", kernel_path("sum_reduce.kir"), "--mode", "timing", "--trace",
                   trace.string(), "--trace-tracks", "block", "--grid", "1"})
              .exit_code == 0);
  std::ifstream blocks_only(trace);
  const nlohmann::json block_trace = nlohmann::json::parse(blocks_only);
  for (const nlohmann::json& e : block_trace["traceEvents"]) {
    CHECK(e.value("cat", "") != "warp_state");
  }
}

TEST_CASE("the timeline says so when its SM ran no blocks, and checks its options") {
  const auto svg = std::filesystem::temp_directory_path() / "warpsim_idle_sm.svg";
  REQUIRE(run_cli({"run", kernel_path("warp_divergence.kir"), "--mode", "timing", "--timeline",
                   svg.string(), "--timeline-sm", "5"})
              .exit_code == 0);
  std::ifstream in(svg);
  const std::string drawn((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(drawn.find("SM 5 ran no blocks of this launch") != std::string::npos);
  const std::string vec = kernel_path("vecAdd.kir");
  CHECK(run_cli({"run", vec, "--mode", "timing", "--trace", "t.txt"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--mode", "timing", "--trace-sms", "0"}).exit_code == 2);
  CHECK(run_cli({"run", vec, "--trace", "t.json"}).exit_code == 2);
  for (const char* bad : {"132", "3-1", "x", "1,,2", ""}) {
    INFO(bad);
    CHECK(run_cli({"run", vec, "--mode", "timing", "--trace", "t.json", "--trace-sms", bad})
              .exit_code == 2);
  }
  CHECK(run_cli({"run", vec, "--mode", "timing", "--trace", "t.json", "--trace-tracks", "sm"})
            .exit_code == 2);
}

}  // namespace warpsim::test

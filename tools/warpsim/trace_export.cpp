#include "tools/warpsim/trace_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace warpsim::cli {
namespace {

using scheduler::SmActivity;

// Trace timestamps are microseconds: a cycle is one nanosecond, exactly three decimals.
std::string ts(std::uint64_t cycle) {
  return fmt::format("{}.{:03}", cycle / 1000, cycle % 1000);
}

// Track ids: each slot's block track, then its warps' tracks.
std::uint64_t block_track(const SmActivity& a, std::uint32_t slot) {
  return std::uint64_t{slot} * (a.warps_per_block + 1);
}
std::uint64_t warp_track(const SmActivity& a, std::uint32_t warp) {
  return block_track(a, warp / a.warps_per_block) + 1 + warp % a.warps_per_block;
}

class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) {}
  void event(const std::string& body) {
    out_ << (first_ ? "\n" : ",\n") << '{' << body << '}';
    first_ = false;
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

void name_tracks(EventWriter& w, const SmActivity& a, bool warps) {
  w.event(
      fmt::format(R"("ph":"M","name":"process_name","pid":{0},"args":{{"name":"SM {0}"}})", a.sm));
  w.event(fmt::format(
      R"("ph":"M","name":"process_sort_index","pid":{0},"args":{{"sort_index":{0}}})", a.sm));
  std::uint32_t slots = 0;
  for (const scheduler::BlockSpan& b : a.blocks) slots = std::max(slots, b.slot + 1);
  for (std::uint32_t s = 0; s < slots; ++s) {
    const std::uint64_t tid = block_track(a, s);
    w.event(fmt::format(
        R"("ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"slot {} blocks"}})",
        a.sm, tid, s));
    w.event(fmt::format(
        R"("ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}})", a.sm,
        tid, tid));
    for (std::uint32_t k = 0; warps && k < a.warps_per_block; ++k) {
      const std::uint64_t wt = warp_track(a, s * a.warps_per_block + k);
      w.event(fmt::format(
          R"("ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"slot {} warp {}"}})",
          a.sm, wt, s, k));
      w.event(fmt::format(
          R"("ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}})",
          a.sm, wt, wt));
    }
  }
}

void blocks_and_barriers(EventWriter& w, const SmActivity& a) {
  for (const scheduler::BlockSpan& b : a.blocks) {
    w.event(fmt::format(
        R"("ph":"X","cat":"block","name":"block {}","pid":{},"tid":{},"ts":{},"dur":{},)"
        R"("args":{{"block":{},"assigned":{},"warps_from":{},"retired":{}}})",
        b.block, a.sm, block_track(a, b.slot), ts(b.assigned), ts(b.retired - b.assigned), b.block,
        b.assigned, b.started, b.retired));
    w.event(fmt::format(
        R"("ph":"i","s":"t","cat":"block","name":"block {} launched","pid":{},"tid":{},"ts":{})",
        b.block, a.sm, block_track(a, b.slot), ts(b.started)));
  }
  for (const scheduler::BarrierRelease& b : a.barriers) {
    w.event(fmt::format(
        R"("ph":"i","s":"t","cat":"barrier","name":"{} released","pid":{},"tid":{},"ts":{},)"
        R"("args":{{"block":{}}})",
        b.cluster ? "cluster barrier" : "barrier", a.sm, block_track(a, b.slot), ts(b.cycle),
        b.block));
  }
}

void counters(EventWriter& w, const SmActivity& a) {
  for (const scheduler::CounterSample& c : a.resident_warps) {
    w.event(
        fmt::format(R"("ph":"C","name":"resident warps","pid":{},"ts":{},"args":{{"warps":{}}})",
                    a.sm, ts(c.cycle), c.value));
  }
  for (const scheduler::CounterSample& c : a.memory_in_flight) {
    w.event(fmt::format(
        R"("ph":"C","name":"memory requests in flight","pid":{},"ts":{},"args":{{"requests":{}}})",
        a.sm, ts(c.cycle), c.value));
  }
}

}  // namespace

void write_trace(std::ostream& out, const scheduler::TimingStats& t, const std::string& kernel,
                 TraceTracks tracks, const std::vector<std::uint32_t>& sms) {
  const auto shown = [&](const SmActivity& a) {
    return std::binary_search(sms.begin(), sms.end(), a.sm);
  };
  nlohmann::json meta = {{"kernel", kernel},
                         {"time", "one nanosecond of the trace is one SM cycle of the kernel body"},
                         {"gpc__cycles_elapsed.max", t.elapsed_cycles},
                         {"kernel_body_cycles", t.kernel_cycles}};
  nlohmann::json quanta = nlohmann::json::object(), counter_quanta = nlohmann::json::object();
  for (const SmActivity& a : t.activity) {
    if (!shown(a)) continue;
    quanta[std::to_string(a.sm)] = a.quantum;
    counter_quanta[std::to_string(a.sm)] = a.counter_quantum;
  }
  // Past the recording budget a warp's spans are bins of this many cycles, each showing the
  // state that held most of it; the counters change only at multiples of theirs.
  meta["warp_state_bin_cycles_by_sm"] = quanta;
  meta["counter_bin_cycles_by_sm"] = counter_quanta;
  out << R"({"displayTimeUnit":"ns","otherData":)" << meta.dump() << R"(,"traceEvents":[)";
  EventWriter w(out);
  const bool warps = tracks == TraceTracks::Warps;
  for (const SmActivity& a : t.activity) {
    if (!shown(a)) continue;
    name_tracks(w, a, warps);
    blocks_and_barriers(w, a);
    counters(w, a);
    if (!warps) continue;
    for (const scheduler::TimelineSegment& s : a.segments) {
      w.event(fmt::format(
          R"("ph":"X","cat":"warp_state","name":"{}","pid":{},"tid":{},"ts":{},"dur":{},)"
          R"("args":{{"block":{},"smsp":{}}})",
          scheduler::warp_state_name(s.state), a.sm, warp_track(a, s.warp), ts(s.start),
          ts(s.end - s.start), s.block, s.sub_partition));
    }
  }
  out << "\n]}\n";
}

}  // namespace warpsim::cli

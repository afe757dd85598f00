// The recorded SMs' activity in the Chrome trace-event format (JSON), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: a process per SM; per block slot a track of its
// blocks (spans, with instants at each block's first issue and each barrier release) and, with
// warp tracks, a track per warp of its states; counters of resident warps and of memory requests
// in flight. One nanosecond of the trace is one SM cycle of the kernel body.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::cli {

enum class TraceTracks { Warps, Blocks };

// The SMs of `sms` (sorted) among those recorded.
void write_trace(std::ostream& out, const scheduler::TimingStats& t, const std::string& kernel,
                 TraceTracks tracks, const std::vector<std::uint32_t>& sms);

}  // namespace warpsim::cli

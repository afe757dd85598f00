// `run --mode timing`'s pictures and traces of what SMs did: --timeline (one SM, SVG or HTML)
// and --trace (Chrome trace-event JSON of the SMs --trace-sms names, for Perfetto).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/scheduler/timing_engine.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/trace_export.hpp"

namespace warpsim::cli {

struct ActivityRequest {
  std::optional<std::string> timeline;  // .svg or .html
  std::uint32_t timeline_sm = 0;
  std::optional<std::string> trace;  // .json
  std::vector<std::uint32_t> trace_sms;
  TraceTracks tracks = TraceTracks::Warps;
  bool any() const { return timeline || trace; }
  // Every SM either output shows, in SM order.
  std::vector<std::uint32_t> recorded_sms() const;
};

void add_activity_options(boost::program_options::options_description& desc);
// Checks the options against the mode and the GPU's SM count; an error names the option.
std::optional<ActivityRequest> activity_request(const CommandLine& cl, bool timing,
                                                std::uint32_t sm_count, std::ostream& err);
// Writes the picture and the trace asked for; false (with a message) when a file cannot be.
bool write_activity(const ActivityRequest& request, const scheduler::TimingStats& t,
                    const std::string& kernel, std::ostream& err);

}  // namespace warpsim::cli

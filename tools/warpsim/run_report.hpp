// What `warpsim run` reports: the launch shape and the functional counters, as text for people
// and as JSON with Nsight Compute's metric names for tools.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/core/exec/executor.hpp"
#include "sim/scheduler/timing_engine.hpp"
#include "tools/warpsim/occupancy_section.hpp"

namespace warpsim::cli {

struct RunSummary {
  std::string file;
  const exec::LaunchSpec& launch;
  const exec::LaunchResult& result;
  double wall_seconds = 0;
  bool per_line = false;                   // the per-instruction memory table in the text report
  const config::GpuConfig* gpu = nullptr;  // with occupancy, when given
  const LaunchOccupancy* occupancy = nullptr;
  const scheduler::TimingStats* timing = nullptr;  // --mode timing
  const ir::Module* module = nullptr;  // for an imported kernel's CUDA lines, when given
  bool sass = false;                   // executed on its SASS (--frontend sass)
};

void write_run_text(std::ostream& out, const RunSummary& run);
// The kernel's printf output, as the GPU would print it (in warpsim's fixed order:
// device_printf.hpp), ended by a newline where its last line has none.
void write_printed(std::ostream& out, const exec::LaunchStats& stats);
nlohmann::json run_json(const RunSummary& run);

// 1234567 -> "1,234,567"
std::string with_commas(std::uint64_t v);

}  // namespace warpsim::cli

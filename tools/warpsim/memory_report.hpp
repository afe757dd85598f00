// The memory part of `warpsim run`'s report: global requests and sectors, shared wavefronts and
// bank conflicts, overall and per IR memory instruction (Nsight Compute's source-view columns).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "sim/core/exec/executor.hpp"

namespace warpsim::cli {

void write_memory_text(std::ostream& out, const exec::LaunchSpec& launch,
                       const exec::LaunchStats& stats, bool per_line);
// Adds the memory metrics to `metrics` and returns the per-line table.
nlohmann::json memory_json(const exec::LaunchSpec& launch, const exec::LaunchStats& stats,
                           nlohmann::json& metrics);

}  // namespace warpsim::cli

// The memory part of `warpsim run`'s report: global requests and sectors, shared wavefronts and
// bank conflicts, overall and per IR memory instruction (Nsight Compute's source-view columns).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "sim/core/exec/executor.hpp"

namespace warpsim::cli {

void write_memory_text(std::ostream& out, const exec::LaunchSpec& launch,
                       const exec::LaunchStats& stats, bool per_line);
// The per-line table: each executed memory instruction's requests, sectors and wavefronts.
nlohmann::json memory_lines_json(const exec::LaunchSpec& launch, const exec::LaunchStats& stats);

}  // namespace warpsim::cli

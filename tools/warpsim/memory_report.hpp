// The memory part of `warpsim run`'s report: global requests and sectors, shared wavefronts and
// bank conflicts, overall and per IR memory instruction (Nsight Compute's source-view columns).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "sim/core/exec/executor.hpp"

namespace warpsim::cli {

// For an imported kernel (`module` given, instructions with CUDA origins) the per-line table is
// ordered by CUDA line, each line's code above its memory instructions.
void write_memory_text(std::ostream& out, const exec::LaunchSpec& launch,
                       const exec::LaunchStats& stats, bool per_line,
                       const ir::Module* module = nullptr);
// The per-line table: each executed memory instruction's requests, sectors and wavefronts (and
// its CUDA file, line and PTX line when it has them).
nlohmann::json memory_lines_json(const exec::LaunchSpec& launch, const exec::LaunchStats& stats,
                                 const ir::Module* module = nullptr);

}  // namespace warpsim::cli

// Runs a sweep's points as `warpsim run` processes, `jobs` at a time, on this machine. A point
// is done when its JSON is in place (OUT/points/NNNN.json, renamed there only once complete), so
// a sweep run again skips what is done: it resumes. Beside each JSON, NNNN.args holds the
// point's command line; a failed point leaves NNNN.err (its exit status and standard error)
// and no JSON.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tools/warpsim/sweep_spec.hpp"

namespace warpsim::cli {

std::string point_stem(const std::string& out, std::size_t index);  // OUT/points/NNNN

struct SweepRunStats {
  std::size_t ran = 0, skipped = 0, failed = 0;
};

// `warpsim`: the executable to run points with; `progress`: rewrite a progress line on `err`.
SweepRunStats run_points(const std::string& warpsim, const SweepSpec& spec,
                         const std::vector<SweepPoint>& points, const std::string& out,
                         unsigned jobs, bool progress, std::ostream& err);

// This process's own executable (to run points with the same warpsim).
std::string own_executable();

}  // namespace warpsim::cli

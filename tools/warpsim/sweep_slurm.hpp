// A sweep on a Slurm cluster: an `sbatch --array` job whose task i runs the points
// [i * chunk, (i + 1) * chunk) as `warpsim sweep SPEC --task i`, each writing its points' JSON
// into the sweep's folder (which the cluster's nodes must share); `--collect` gathers them as a
// local sweep does. Nothing else: Slurm schedules, retries are a resubmission of the tasks that
// failed.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tools/warpsim/sweep_spec.hpp"

namespace warpsim::cli {

struct SlurmRequest {
  std::string partition, time, mem;  // empty: the cluster's defaults
  std::size_t chunk = 0;             // points per array task (0: about 64 tasks in all)
  bool wait = false;                 // block until the job ends (sbatch --wait)
  std::vector<std::size_t> tasks;    // only these tasks (a resubmission); empty: all
};

// The points of array task `task` with `chunk` points a task.
std::vector<SweepPoint> task_points(const std::vector<SweepPoint>& all, std::size_t task,
                                    std::size_t chunk);
// The chunk a sweep in `out` was submitted with (0 when none was).
std::size_t submitted_chunk(const std::string& out);
// Writes OUT/slurm/sweep.sbatch and submits it; the job id, or nothing (with a message).
std::optional<std::string> submit_sweep(const std::string& warpsim, const SweepSpec& spec,
                                        std::size_t points, const std::string& out,
                                        SlurmRequest request, std::ostream& err);

}  // namespace warpsim::cli

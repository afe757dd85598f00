// Hardware counters for one kernel launch, read in-process with CUPTI's Range Profiler API
// (CUDA >= 12.6): one range per kernel (auto range), CUPTI replaying the kernel for as many
// passes as the metrics need (kernel replay, which restores memory between passes). The CUPTI
// library is opened at run time (WARPSIM_CUPTI names it, else the usual places), so warpsim
// runs without it.
#pragma once

#include <cuda.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::cuda {

// The metrics `launch` (one kernel launch, synchronised) produces, by name; nothing and
// `error` when CUPTI is missing or a call fails.
std::optional<std::map<std::string, double>> measure_counters(
    CUcontext context, const std::vector<std::string>& metrics, const std::function<bool()>& launch,
    std::string& error);

}  // namespace warpsim::cuda

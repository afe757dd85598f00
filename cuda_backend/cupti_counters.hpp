// Hardware counters for one kernel launch, read in-process with CUPTI's Range Profiler API
// (CUDA >= 12.6): one range per kernel (auto range), the kernel replayed for as many passes as
// the metrics need (see Replay). The CUPTI
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

// How the passes are replayed. Application: `launch` is called once per pass and restores the
// launch's buffers itself with the host's copies, so every pass starts from the L2 those copies
// leave (what the timing model assumes). Kernel: `launch` is called once and CUPTI replays the
// kernel, saving and restoring device memory around the passes with copies of its own that
// pass through the L2, so a pass starts from whatever they left there.
enum class Replay { Application, Kernel };

// The metrics `launch` (its buffers filled, then one kernel launch, synchronised) produces, by
// name; nothing and `error` when CUPTI is missing or a call fails.
std::optional<std::map<std::string, double>> measure_counters(
    CUcontext context, const std::vector<std::string>& metrics, const std::function<bool()>& launch,
    Replay replay, std::string& error);

}  // namespace warpsim::cuda

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

// How the passes are replayed. Application: `prepare` and `launch` are called once per pass and
// `prepare` restores the launch's buffers with the host's copies, so every pass starts from the
// L2 those copies leave (what the timing model assumes), or from a flushed one. Kernel:
// `prepare` and `launch` are called once and CUPTI replays the kernel, saving and restoring
// device memory around the passes with copies of its own that pass through the L2, so a pass
// starts from whatever they left there.
enum class Replay { Application, Kernel };

// The metrics `launch` (one kernel launch, synchronised) produces, by name; nothing and `error`
// when CUPTI is missing or a call fails. `prepare` runs before each pass (before the one launch
// with kernel replay), outside the profiled range, so it may launch kernels of its own.
std::optional<std::map<std::string, double>> measure_counters(
    CUcontext context, const std::vector<std::string>& metrics,
    const std::function<bool()>& prepare, const std::function<bool()>& launch, Replay replay,
    std::string& error);

}  // namespace warpsim::cuda

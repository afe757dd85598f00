// Runs a launch on a real GPU through the CUDA driver API: the kernel lowered to PTX, the
// buffers allocated and filled exactly as the simulator fills them, the launch (clusters
// through cuLaunchKernelEx), the buffers copied back; and what the driver says of the compiled
// function (registers, static shared memory, blocks per SM).
// The driver library is opened at run time (dlopen), so warpsim runs without one and this
// answers with why it cannot.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cuda_backend/cupti_counters.hpp"
#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::cuda {

struct GpuRun {
  std::string device;                      // the GPU's name
  exec::GlobalMemory memory;               // every buffer after the kernel
  int registers_per_thread = 0;            // CU_FUNC_ATTRIBUTE_NUM_REGS
  int static_shared_bytes = 0;             // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
  int blocks_per_sm = 0;                   // cuOccupancyMaxActiveBlocksPerMultiprocessor
  std::map<std::string, double> counters;  // metrics.def's measured counters, by name
  std::string counters_error;              // why there are none, when there are none
  std::string optional_counters_error;     // why the MeasuredOwnPass ones are missing, if they are
  std::string printed;                     // the kernel's printf output (of its first run only)
};

// The code the GPU runs: PTX and the entry to launch. For an imported CUDA kernel this is
// nvcc's own PTX, so the GPU runs the user's compiled code, not the IR lowered again.
struct GpuCode {
  std::string ptx;
  std::string entry;
};

// Nothing, and `error` saying why, when there is no driver or GPU or a call fails.
// `flush_l2`: each profiled pass (application replay) starts with the L2 emptied before the
// buffers are copied in, so they start in DRAM (see l2_flush.hpp). Without `code`, the module
// lowered to PTX runs (the launch's kernel by its IR name); the launch's parameters must be the
// entry's, in order.
std::optional<GpuRun> run_on_gpu(const ir::Module& module, const exec::LaunchSpec& launch,
                                 Replay replay, bool flush_l2, std::string& error,
                                 const GpuCode* code = nullptr);

}  // namespace warpsim::cuda

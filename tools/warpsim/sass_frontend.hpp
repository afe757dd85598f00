// The SASS frontend of `run`: the module lowered to PTX, compiled by ptxas for the config's
// GPU, the launch executed on the SASS (sim/sass/). Chosen with --frontend sass.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "sim/core/exec/executor.hpp"
#include "sim/core/ir/module.hpp"
#include "sim/sass/sass_trace.hpp"
#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::cli {

inline constexpr const char* kFrontendHelp =
    "ir (the IR executor), sass (the kernel as ptxas compiles it for the config's GPU, "
    "executed instruction by instruction; needs ptxas and nvdisasm) or auto, the default (sass "
    "where both are found, else ir; says which)";

// The architectures whose SASS the executor's opcode semantics and counting rules were checked
// on against a GPU: sm_90 (H100, H200). --frontend auto picks sass only for these.
bool sass_checked_on(const std::string& arch);
// Whether ptxas and a SASS disassembler are found (the SASS frontend can run).
bool sass_tools_found();

// Checks --frontend and turns auto into sass or ir for the config's `arch` (saying which on
// `err`); false, with a message, for another word. `ir_only`, when not null, names what the
// user asked for that only the IR has (the hazard checks): auto then picks ir, saying why, and
// an explicit sass is left for the command to refuse.
bool resolve_frontend(boost::program_options::variables_map& vars, const char* command,
                      std::ostream& err, const std::string& arch, const char* ir_only = nullptr);

// What ptxas compiles for `module`: an imported module's own PTX (nvcc's, so a .cu runs as nvcc
// builds it), an IR module lowered for `arch`; and the name of `kernel`'s entry in it.
std::string sass_ptx(const ir::Module& module, const std::string& arch);
std::string sass_entry(const ir::Module& module, const ir::Kernel& kernel);

// Runs `launch` of `module` on its SASS for `arch`. Nothing when the SASS cannot be built or
// holds an instruction the executor does not model; `error` says why. Throws exec::KernelFault.
std::optional<exec::LaunchResult> run_on_sass(const ir::Module& module,
                                              const exec::LaunchSpec& launch,
                                              const std::string& arch,
                                              const exec::ExecOptions& options, std::string& error,
                                              const sass::SassTrace& trace = {});

// The same through the timing model: the SASS frontend (sim/scheduler/frontend/) issues the
// kernel's SASS with its own stall counts and scoreboards.
std::optional<scheduler::TimingResult> time_on_sass(const ir::Module& module,
                                                    const exec::LaunchSpec& launch,
                                                    const config::GpuConfig& gpu,
                                                    const scheduler::Occupancy& occupancy,
                                                    const scheduler::TimingOptions& options,
                                                    std::string& error);

}  // namespace warpsim::cli

// A launch run on its SASS: the kernel as ptxas compiled it, executed functionally block by
// block (sass_executor.hpp), giving the same LaunchResult as the IR executor: the buffers'
// final bytes and the counters, here of the instructions the GPU runs.
#pragma once

#include <optional>
#include <string>

#include "sim/core/exec/executor.hpp"
#include "sim/sass/disassembler.hpp"
#include "sim/sass/sass_machine.hpp"
#include "sim/sass/sass_program.hpp"
#include "sim/sass/sass_trace.hpp"

namespace warpsim::sass {

// Move-only: the program's instructions point into the listing's.
struct SassKernel {
  SassKernel() = default;
  SassKernel(SassKernel&&) = default;
  SassKernel& operator=(SassKernel&&) = default;
  SassKernel(const SassKernel&) = delete;
  SassKernel& operator=(const SassKernel&) = delete;

  SassListing listing;  // owns the instructions `program` points into
  SassProgram program;
  KernelResources resources;
  std::vector<ConstantRelocation> constant_relocations;  // bank 4: the global variables' addresses
  std::vector<std::uint8_t> bank2;  // the kernel's own constants (its switches' jump tables)
};

// ptxas and nvdisasm over `ptx` for `arch`, the entry `kernel` decoded. Nothing when a tool is
// missing, ptxas fails or an instruction is not modelled; `error` says which.
std::optional<SassKernel> compile_sass(const std::string& ptx, const std::string& arch,
                                       const std::string& kernel, std::string& error);

// Decodes `kernel` of an already parsed listing (the listing moves into the result), with the
// build's constant-bank-4 relocations (the module's global variables) and its banks 2.
std::optional<SassKernel> decode_kernel(SassListing listing, const KernelResources& resources,
                                        std::vector<ConstantRelocation> relocations,
                                        const KernelConstantBanks& banks, const std::string& kernel,
                                        std::string& error);

// Constant bank 0 as the driver fills it for `launch` (sass_machine.hpp's layout).
std::vector<std::uint8_t> constant_bank(const exec::LaunchSpec& launch,
                                        const exec::GlobalMemory& memory,
                                        std::uint32_t local_bytes);

// What every warp of a launch of `kernel` reads: its program, the buffers in `memory`, constant
// bank 0 filled for `launch`, bank 3 = `constants`, shared and local sizes from ptxas. Holds
// pointers to all four arguments.
SassLaunch make_launch(const SassKernel& kernel, const exec::LaunchSpec& launch,
                       exec::GlobalMemory& memory, const std::vector<std::uint8_t>& constants);

// Throws exec::KernelFault as the IR executor does (a bad access, a barrier that never opens,
// the instruction budget spent). `constants`: the module's constant data (constant bank 3,
// exec::constant_image).
// `trace`: a warp to watch instruction by instruction.
exec::LaunchResult execute_sass(const SassKernel& kernel, const exec::LaunchSpec& launch,
                                const std::vector<std::uint8_t>& constants,
                                const exec::ExecOptions& options, const SassTrace& trace = {});

}  // namespace warpsim::sass

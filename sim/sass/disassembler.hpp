// The kernel as the GPU runs it: PTX assembled by ptxas for an architecture and listed by
// nvdisasm. nvdisasm comes with the full CUDA toolkit and, for toolkits without it, in the PyPI
// wheel nvidia-cuda-nvdisasm (tools/setup.sh installs it where it is missing).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "sim/sass/cubin_relocations.hpp"
#include "sim/sass/sass_listing.hpp"

namespace warpsim::sass {

// nvdisasm: where the toolkit's programs are ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin), else
// in the Python packages' nvidia/cu13/bin (the wheel's layout). Nothing when absent.
std::optional<std::string> find_disassembler();

// What ptxas allocated for an entry function (`ptxas -v`).
struct KernelResources {
  std::uint32_t registers = 0;
  std::uint32_t shared = 0;       // static shared memory, bytes
  std::uint32_t stack_frame = 0;  // local memory per thread, bytes
};

struct SassBuild {
  std::optional<SassListing> listing;
  std::string error;  // why there is none: a tool missing, ptxas's or nvdisasm's messages
  std::map<std::string, KernelResources> resources;      // per entry function
  std::vector<ConstantRelocation> constant_relocations;  // the module's global variables
  KernelConstantBanks kernel_banks;                      // each kernel's constant bank 2
};

// The per-entry resources of ptxas -v's output.
std::map<std::string, KernelResources> parse_ptxas_resources(const std::string& output);

// ptxas -arch=ARCH -lineinfo of `ptx_text`, then nvdisasm -hex -c -gi of the cubin, parsed: each
// instruction with the source line its PTX's `.loc` named (for lowered IR, the IR line).
SassBuild build_sass(const std::string& ptx_text, const std::string& arch);

}  // namespace warpsim::sass

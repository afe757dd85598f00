// A kernel fault: the simulated kernel did something a GPU would trap on or hang at (an access
// outside its memory, a misaligned access, division by zero, a barrier some threads can never
// reach, more instructions than the budget). The user's error, reported and exit code 3.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/core/exec/launch.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::exec {

struct FaultSite {
  std::string kernel;
  Dim3 block;                // block index
  std::int64_t thread = -1;  // linear thread index within the block, -1: the whole block
  Dim3 thread_index;         // threadIdx of that thread
  std::uint32_t line = 0;    // IR source line
  ir::SourceOrigin origin;   // the CUDA line and PTX line, for an imported kernel
  std::string instruction;   // the instruction as printed
};

class KernelFault : public std::runtime_error {
 public:
  KernelFault(FaultSite site, const std::string& what)
      : std::runtime_error(what), site_(std::move(site)) {}
  const FaultSite& site() const { return site_; }

 private:
  FaultSite site_;
};

}  // namespace warpsim::exec

// One watched warp of a SASS run, told before each instruction it runs (warpsim step
// --frontend sass): what the warp is about to run, and on which lanes.
#pragma once

#include <cstdint>

#include "sim/sass/sass_machine.hpp"

namespace warpsim::sass {

class SassTraceHook {
 public:
  virtual ~SassTraceHook() = default;
  // `pc`: the instruction index; `active`: the lanes that run it (before its guard).
  virtual void before(const SassProgram& program, const SassWarp& warp, std::uint32_t pc,
                      std::uint32_t active) = 0;
  // Called once when the watched warp has finished.
  virtual void finished(const SassWarp& warp) = 0;
};

struct SassTrace {
  SassTraceHook* hook = nullptr;
  std::uint64_t block = 0;  // linear block index
  std::uint32_t warp = 0;
};

}  // namespace warpsim::sass

// Subnormal f32 values flushed to zero, sign kept: PTX's .ftz, the multi-function unit's inputs
// and results, and the f32 atomic add (shared by the IR and SASS executors).
#pragma once

#include <cmath>

namespace warpsim::exec {

inline float flush_f32(float v) {
  return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}

// atom.add.f32 and red.add.f32 (SASS .F32.FTZ.RN): rounded to nearest, subnormal inputs and
// result flushed to zero (PTX ISA, atom).
inline float atomic_add_f32(float old, float v) {
  return flush_f32(flush_f32(old) + flush_f32(v));
}

}  // namespace warpsim::exec

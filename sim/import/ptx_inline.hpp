// Calls to device functions nvcc did not inline (__noinline__ functions, libdevice's slow paths
// such as the argument reduction of double sin and cos), inlined before translation, so the IR
// sees one kernel body as it sees inlined code.
//
// Contract: every `call` in `entry` (an Instruction "call", see ptx_reader.cpp) is replaced by
// the called function's body, its registers, labels and local arrays given names of their own
// per call, its `ret` a branch to the end of the copy, and its parameters and return values
// passed through registers: `st.param.T [param0+off], x` before the call and the callee's
// `ld.param.T y, [f_param_0+off]` become moves through one register per parameter byte offset,
// as `st.param` into `func_retval0` and the caller's `ld.param` after it do. Calls inside the
// function are inlined the same way. Errors, located at the call: a function the module does
// not define (printf's vprintf among them), recursion, a parameter read that no store wrote.
#pragma once

#include <optional>

#include "sim/import/ptx_syntax.hpp"

namespace warpsim::ptx {

std::optional<ReadError> inline_calls(const Module& module, Entry& entry);

}  // namespace warpsim::ptx

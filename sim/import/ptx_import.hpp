// A PTX module into an IR module: every kernel (or the one asked for) translated, its
// parameters named and typed from the CUDA source and the mangled name, each instruction
// carrying its CUDA line and PTX line. Errors are located in the PTX text and name the CUDA
// line they came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ptx {

struct ImportOptions {
  std::string ptx_name = "input.ptx";  // how errors name the PTX text
  // The CUDA file the PTX was compiled from, as the user named it, and its text: parameter
  // names come from it, and its path replaces the one nvcc recorded.
  std::string cuda_path;
  std::string cuda_source;
  std::string cuda_absolute_path;     // the path nvcc recorded (.file), if known
  std::optional<std::string> kernel;  // import only this one (PTX, C++ or C++ template name)
  // For the SASS frontend, which runs ptxas's code and needs of the IR only the launch: a
  // kernel whose body holds a form the IR does not import keeps its parameters and arrays with
  // an empty body, and KernelName::body_error says why, instead of failing the import.
  bool bodies_optional = false;
};

// One kernel of the PTX: its PTX name, its C++ name and the IR name it was given.
struct KernelName {
  std::string ptx;
  std::string cpp;  // "smem_transpose<0>", or the PTX name when not mangled
  std::string ir;
  // A struct passed by value: where each IR parameter lies in the entry's parameter buffer
  // (ir::Kernel::ptx_params, which the printed IR does not carry).
  ir::PtxParams params;
  // With ImportOptions::bodies_optional: the located error that kept its body out of the IR.
  std::string body_error;
};

struct ImportResult {
  std::optional<ir::Module> module;  // nothing when an error was reported
  std::vector<KernelName> kernels;   // every kernel of the PTX, imported or not
  ir::Diagnostics diags;
};

ImportResult import_ptx(std::string_view ptx_text, const ImportOptions& options);

// "x" for names PTX allows and the IR does not ('$' becomes '_'; the IR's words are letters,
// digits and '_'): the IR's name of a PTX variable ("$str" is "_str").
std::string ir_word(std::string_view ptx_name);

}  // namespace warpsim::ptx

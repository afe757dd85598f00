// Where an instruction came from, as reports show it: its IR line, or for an imported kernel
// its CUDA file and line (with the PTX line), and the text of that CUDA line.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::cli {

// Whether any instruction of `k` has a CUDA origin (the kernel was imported).
bool has_origins(const ir::Kernel& k);

// "vecAdd.cu:3 (PTX 54)" for an imported instruction, "12" (its IR line) otherwise.
std::string line_label(const ir::Module* module, const ir::Instruction& inst);

// The text of source lines without their indentation, read once per file; "" for a file or
// line that cannot be read.
class SourceText {
 public:
  SourceText() = default;
  explicit SourceText(const ir::Module& module) : module_(&module) {}
  // An IR instruction's CUDA line (in a file of the module given).
  std::string line(const ir::SourceOrigin& origin);
  // Line `number` (from 1) of the file at `path`.
  std::string line(const std::string& path, std::uint32_t number);

 private:
  const ir::Module* module_ = nullptr;
  std::map<std::string, std::vector<std::string>> files_;
};

}  // namespace warpsim::cli

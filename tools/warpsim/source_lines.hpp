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

// The text of source lines, read once per file; "" for a file or line that cannot be read.
class SourceText {
 public:
  explicit SourceText(const ir::Module& module) : module_(module) {}
  std::string line(const ir::SourceOrigin& origin);

 private:
  const ir::Module& module_;
  std::map<std::uint32_t, std::vector<std::string>> files_;
};

}  // namespace warpsim::cli

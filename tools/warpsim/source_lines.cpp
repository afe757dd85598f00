#include "tools/warpsim/source_lines.hpp"

#include <fstream>

namespace warpsim::cli {

bool has_origins(const ir::Kernel& k) {
  for (const ir::BasicBlock& b : k.blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      if (inst.origin.known()) return true;
    }
  }
  return false;
}

std::string line_label(const ir::Module* module, const ir::Instruction& inst) {
  if (module != nullptr && inst.origin.known()) {
    const std::string at = module->origin_text(inst.origin);
    if (!at.empty()) return at + " (PTX " + std::to_string(inst.origin.ptx_line) + ")";
  }
  return std::to_string(inst.loc.line);
}

std::string SourceText::line(const ir::SourceOrigin& origin) {
  if (module_ == nullptr || !origin.known() || origin.file > module_->source_files.size())
    return "";
  return line(module_->source_files[origin.file - 1], origin.line);
}

std::string SourceText::line(const std::string& path, std::uint32_t number) {
  auto [it, inserted] = files_.try_emplace(path);
  if (inserted) {
    std::ifstream in(path);
    std::string text;
    while (std::getline(in, text)) it->second.push_back(text);
  }
  const std::vector<std::string>& lines = it->second;
  if (number == 0 || number > lines.size()) return "";
  std::string text = lines[number - 1];
  const std::size_t start = text.find_first_not_of(" \t");
  return start == std::string::npos ? "" : text.substr(start);
}

}  // namespace warpsim::cli

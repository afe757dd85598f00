#include "tools/warpsim/cfg_report.hpp"

#include <ostream>
#include <string>

#include "sim/core/ir/cfg.hpp"
#include "sim/core/ir/uniformity.hpp"

namespace warpsim::cli {
namespace {

std::string target_name(const ir::Kernel& k, std::size_t b) {
  if (b == ir::Cfg::kExit) return "(exit)";
  if (b == ir::Cfg::kNoPostDominator) return "(none: no path reaches a ret)";
  return k.blocks[b].label;
}

}  // namespace

void write_cfg_text(std::ostream& out, const ir::Kernel& k) {
  const ir::Cfg cfg = ir::build_cfg(k);
  const ir::Uniformity u = ir::analyze_uniformity(k, cfg);
  out << "kernel " << k.name << ": " << k.blocks.size() << " block"
      << (k.blocks.size() == 1 ? "" : "s") << '\n';
  for (std::size_t b = 0; b < k.blocks.size(); ++b) {
    out << "  " << k.blocks[b].label << " (line " << k.blocks[b].loc.line << ")";
    if (!cfg.reachable[b]) out << " [unreachable]";
    out << " ->";
    if (cfg.successors[b].empty()) out << " (exit)";
    for (std::size_t i = 0; i < cfg.successors[b].size(); ++i) {
      out << (i ? ", " : " ") << k.blocks[cfg.successors[b][i]].label;
    }
    out << '\n';
    const ir::Instruction* term = ir::terminator(k.blocks[b]);
    if (term != nullptr && term->opcode == ir::Opcode::Br && cfg.successors[b].size() > 1) {
      out << "      branch at line " << term->loc.line << " reconverges at "
          << target_name(k, cfg.ipdom[b])
          << (u.varying_branch[b] ? " (condition varies between threads: may diverge)"
                                  : " (condition uniform in a block)")
          << '\n';
    }
  }
}

void write_cfg_dot(std::ostream& out, const ir::Kernel& k) {
  const ir::Cfg cfg = ir::build_cfg(k);
  out << "digraph \"" << k.name << "\" {\n  node [shape=box, fontname=monospace];\n";
  for (std::size_t b = 0; b < k.blocks.size(); ++b) {
    out << "  b" << b << " [label=\"" << k.blocks[b].label << "\"];\n";
  }
  out << "  exit [label=\"(exit)\", shape=ellipse];\n";
  for (std::size_t b = 0; b < k.blocks.size(); ++b) {
    if (cfg.successors[b].empty()) out << "  b" << b << " -> exit;\n";
    for (std::size_t s : cfg.successors[b]) out << "  b" << b << " -> b" << s << ";\n";
    if (cfg.successors[b].size() > 1 && cfg.ipdom[b] != ir::Cfg::kNoPostDominator) {
      out << "  b" << b << " -> "
          << (cfg.ipdom[b] == ir::Cfg::kExit ? std::string("exit")
                                             : "b" + std::to_string(cfg.ipdom[b]))
          << " [style=dashed, color=blue, label=\"reconverge\"];\n";
    }
  }
  out << "}\n";
}

}  // namespace warpsim::cli

#include "tools/warpsim/memory_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <tuple>

#include "sim/core/ir/printer.hpp"
#include "tools/warpsim/source_lines.hpp"

namespace warpsim::cli {
namespace {

constexpr const char* kGlobalOps[] = {"ld", "st", "atom", "red"};
constexpr const char* kSharedOps[] = {"ld", "st", "atom", "cp.async"};

double per(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

struct MemoryLine {
  const ir::Instruction* inst;
  const exec::MemoryLineStats* stats;
};

// Memory instructions that executed, in the executor's order (blocks, then instructions).
std::vector<MemoryLine> memory_lines(const ir::Kernel& k, const exec::LaunchStats& stats) {
  std::vector<MemoryLine> lines;
  std::size_t i = 0;
  for (const ir::BasicBlock& b : k.blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      const exec::MemoryLineStats& s = stats.per_memory[i++];
      if (s.executions != 0) lines.push_back({&inst, &s});
    }
  }
  return lines;
}

bool is_shared(const ir::Instruction& inst) {
  return inst.space == ir::Space::Shared || inst.space == ir::Space::Dsmem;
}

// One row of the per-line table: a shared access's wavefronts, a global one's sectors.
void write_row(std::ostream& out, const std::string& where, int width, const std::string& text,
               bool shared, const exec::MemoryLineStats& s) {
  const std::string shown = text.size() > 42 ? text.substr(0, 39) + "..." : text;
  if (shared) {
    out << fmt::format("  {:>{}}  {:<42} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}\n", where, width,
                       shown, s.executions, "", "", s.wavefronts, s.ideal_wavefronts,
                       s.wavefronts - s.ideal_wavefronts);
  } else if (s.requests != 0) {
    out << fmt::format("  {:>{}}  {:<42} {:>9} {:>9.2f} {:>9.2f}\n", where, width, shown,
                       s.executions, per(s.sectors, s.requests), per(s.ideal_sectors, s.requests));
  } else {
    out << fmt::format("  {:>{}}  {:<42} {:>9}\n", where, width, shown, s.executions);
  }
}

// A row's counts in JSON: a shared access's wavefronts, a global one's sectors.
void add_counts(nlohmann::json& row, bool shared, const exec::MemoryLineStats& s) {
  if (shared) {
    row["wavefronts"] = s.wavefronts;
    row["ideal_wavefronts"] = s.ideal_wavefronts;
    row["bank_conflicts"] = s.wavefronts - s.ideal_wavefronts;
  } else if (s.requests != 0) {
    row["requests"] = s.requests;
    row["sectors"] = s.sectors;
    row["sectors_per_request"] = per(s.sectors, s.requests);
    row["ideal_sectors_per_request"] = per(s.ideal_sectors, s.requests);
  }
}

// A file as the user would name it: relative to the working directory when inside it (nvcc is
// given absolute paths).
std::string shown_path(const std::string& file) {
  std::error_code error;
  const std::filesystem::path here = std::filesystem::current_path(error);
  if (error) return file;
  const std::filesystem::path relative = std::filesystem::path(file).lexically_relative(here);
  if (relative.empty() || *relative.begin() == "..") return file;
  return relative.string();
}

// A kernel run on its SASS alone: its SASS memory instructions, by CUDA line.
void write_sass_lines(std::ostream& out, const exec::LaunchStats& stats) {
  std::vector<const exec::SassMemoryLine*> lines;
  for (const exec::SassMemoryLine& l : stats.sass_memory_lines) lines.push_back(&l);
  std::stable_sort(lines.begin(), lines.end(), [](const auto* a, const auto* b) {
    return std::tie(a->source_file, a->source_line) < std::tie(b->source_file, b->source_line);
  });
  out << "memory instructions by CUDA line (the SASS's: the IR has no body for this kernel)\n";
  out << fmt::format("  {:>8}  {:<42} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}\n", "SASS",
                     "instruction", "execs", "sect/req", "(ideal)", "wavefronts", "(ideal)",
                     "conflicts");
  SourceText sources;
  std::optional<std::pair<std::string, std::uint32_t>> shown_line;
  for (const exec::SassMemoryLine* l : lines) {
    if (shown_line != std::pair(l->source_file, l->source_line)) {
      shown_line = std::pair(l->source_file, l->source_line);
      if (l->source_line == 0) {
        out << "  (no CUDA line)\n";
      } else {
        const std::string code = sources.line(l->source_file, l->source_line);
        out << fmt::format("  {}:{}  {}\n", shown_path(l->source_file), l->source_line,
                           code.size() > 70 ? code.substr(0, 67) + "..." : code);
      }
    }
    write_row(out, fmt::format("{:05x}", l->address), 8, l->instruction, l->shared, l->counts);
  }
}

}  // namespace

void write_memory_text(std::ostream& out, const exec::LaunchSpec& launch,
                       const exec::LaunchStats& stats, bool per_line, const ir::Module* module) {
  const exec::MemoryStats& m = stats.memory;
  out << "global memory      requests       sectors  sectors/request (ideal)\n";
  for (std::size_t op = 0; op < 4; ++op) {
    const exec::GlobalOpStats& g = m.global[op];
    if (g.requests == 0) continue;
    out << fmt::format("  {:<5} {:>16} {:>13}  {:>6.2f} ({:.2f})\n", kGlobalOps[op], g.requests,
                       g.sectors, per(g.sectors, g.requests), per(g.ideal_sectors, g.requests));
  }
  for (const auto& [group, label] :
       {std::pair{&m.shared, "shared memory"}, std::pair{&m.dsmem, "distributed shared memory"}}) {
    bool any = false;
    for (const exec::SharedOpStats& s : *group) any = any || s.instructions != 0;
    if (!any) continue;
    out << fmt::format("{:<18} {:>10} {:>13} {:>10}  wavefronts/instruction (ideal)\n", label,
                       "insts", "wavefronts", "conflicts");
    for (std::size_t op = 0; op < group->size(); ++op) {
      const exec::SharedOpStats& s = (*group)[op];
      if (s.instructions == 0) continue;
      out << fmt::format("  {:<8} {:>17} {:>13} {:>10}  {:>6.2f} ({:.2f})\n", kSharedOps[op],
                         s.instructions, s.wavefronts, s.conflicts(),
                         per(s.wavefronts, s.instructions),
                         per(s.ideal_wavefronts, s.instructions));
    }
  }
  if (!per_line) return;
  if (!launch.kernel->sass_only.empty()) {
    write_sass_lines(out, stats);
    return;
  }
  const bool cuda = module != nullptr && has_origins(*launch.kernel);
  std::vector<MemoryLine> lines = memory_lines(*launch.kernel, stats);
  if (cuda) {
    std::stable_sort(lines.begin(), lines.end(), [](const MemoryLine& a, const MemoryLine& b) {
      return std::pair(a.inst->origin.file, a.inst->origin.line) <
             std::pair(b.inst->origin.file, b.inst->origin.line);
    });
  }
  out << (cuda ? "memory instructions by CUDA line\n" : "memory instructions by line\n");
  const int w = cuda ? 8 : 5;  // the line column: "PTX line" or "line"
  out << fmt::format("  {:>{}}  {:<42} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}\n",
                     cuda ? "PTX line" : "line", w, "instruction", "execs", "sect/req", "(ideal)",
                     "wavefronts", "(ideal)", "conflicts");
  std::optional<SourceText> source;
  if (cuda) source.emplace(*module);
  std::optional<std::pair<std::uint32_t, std::uint32_t>> shown_line;
  for (const MemoryLine& l : lines) {
    const exec::MemoryLineStats& s = *l.stats;
    std::uint32_t line = l.inst->loc.line;
    if (cuda) {
      const ir::SourceOrigin& o = l.inst->origin;
      if (shown_line != std::pair(o.file, o.line)) {
        shown_line = std::pair(o.file, o.line);
        const std::string code = source->line(o);
        out << fmt::format("  {}  {}\n", o.known() ? module->origin_text(o) : "(no CUDA line)",
                           code.size() > 70 ? code.substr(0, 67) + "..." : code);
      }
      line = o.ptx_line;
    }
    write_row(out, std::to_string(line), w, ir::to_string(*l.inst), is_shared(*l.inst), s);
  }
}

nlohmann::json memory_lines_json(const exec::LaunchSpec& launch, const exec::LaunchStats& stats,
                                 const ir::Module* module) {
  nlohmann::json lines = nlohmann::json::array();
  for (const exec::SassMemoryLine& l : stats.sass_memory_lines) {
    nlohmann::json row = {{"sass_address", l.address},
                          {"instruction", l.instruction},
                          {"space", l.shared ? "shared" : "global"},
                          {"executions", l.counts.executions}};
    if (l.source_line != 0) row["source"] = {{"file", l.source_file}, {"line", l.source_line}};
    add_counts(row, l.shared, l.counts);
    lines.push_back(std::move(row));
  }
  for (const MemoryLine& l : memory_lines(*launch.kernel, stats)) {
    const exec::MemoryLineStats& s = *l.stats;
    nlohmann::json row = {{"line", l.inst->loc.line},
                          {"instruction", ir::to_string(*l.inst)},
                          {"space", std::string(ir::name(l.inst->space))},
                          {"executions", s.executions}};
    if (module != nullptr && l.inst->origin.known()) {
      const ir::SourceOrigin& o = l.inst->origin;
      row["source"] = {
          {"file", o.file <= module->source_files.size() ? module->source_files[o.file - 1]
                                                         : std::string()},
          {"line", o.line},
          {"ptx_line", o.ptx_line}};
    }
    add_counts(row, is_shared(*l.inst), s);
    lines.push_back(std::move(row));
  }
  return lines;
}

}  // namespace warpsim::cli

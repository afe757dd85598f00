#include "tools/warpsim/run_report.hpp"

#include <fmt/format.h>

#include <ostream>

#include "sim/sass/sass_mnemonics.hpp"
#include "tools/warpsim/memory_report.hpp"
#include "tools/warpsim/metrics_report.hpp"
#include "tools/warpsim/source_lines.hpp"
#include "tools/warpsim/timing_report.hpp"

namespace warpsim::cli {
namespace {

struct LaunchShape {
  std::uint64_t blocks, threads, warps_per_block, idle_lanes;
};

LaunchShape shape_of(const exec::LaunchSpec& l) {
  const std::uint64_t per_block = l.threads_per_block();
  return {l.blocks(), l.blocks() * per_block, l.warps_per_block(),
          l.blocks() * (l.warps_per_block() * 32 - per_block)};
}

std::string dim3(const ir::Dim3& d) {
  return fmt::format("({}, {}, {})", d.x, d.y, d.z);
}

double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

// Each decoded instruction, in the executor's order (blocks, then instructions).
std::vector<const ir::Instruction*> instructions_of(const ir::Kernel& k) {
  std::vector<const ir::Instruction*> insts;
  for (const ir::BasicBlock& b : k.blocks) {
    for (const ir::Instruction& i : b.instructions) insts.push_back(&i);
  }
  return insts;
}

}  // namespace

std::string with_commas(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void write_printed(std::ostream& out, const exec::LaunchStats& stats) {
  for (const exec::PrintedLine& line : stats.printed) out << line.text;
  if (!stats.printed.empty() && !stats.printed.back().text.ends_with('\n')) out << '\n';
}

void write_run_text(std::ostream& out, const RunSummary& run) {
  const exec::LaunchSpec& l = run.launch;
  const exec::LaunchStats& s = run.result.stats;
  const LaunchShape shape = shape_of(l);
  out << "kernel " << l.kernel->name << " (" << run.file << ", launch " << l.name << ")\n";
  out << "launch\n";
  out << fmt::format("  grid {} x block {}, cluster {}, dynamic shared memory {} B\n", dim3(l.grid),
                     dim3(l.block), dim3(l.cluster), l.dynamic_smem);
  out << fmt::format("  blocks {}, threads launched {}, warps per block {}, idle lanes {}\n",
                     with_commas(shape.blocks), with_commas(shape.threads), shape.warps_per_block,
                     with_commas(shape.idle_lanes));
  if (run.gpu != nullptr && run.occupancy != nullptr) {
    write_occupancy_section(out, *run.gpu, *run.occupancy);
  }
  out << (run.sass ? "instructions (SASS instructions, as ptxas compiled the kernel for the GPU)\n"
                   : "instructions (IR instructions; the GPU's counters count SASS, which nvcc "
                     "may emit in other numbers)\n");
  out << fmt::format("  warp-level    {:>16}  smsp__inst_executed.sum\n",
                     with_commas(s.warp_instructions));
  out << fmt::format("  thread-level  {:>16}  smsp__thread_inst_executed.sum\n",
                     with_commas(s.thread_instructions));
  out << fmt::format("  mean active lanes per warp instruction {:.2f}\n",
                     ratio(s.thread_instructions, s.warp_instructions));
  if (!s.printed.empty()) {
    out << fmt::format(
        "  printf printed {} lines: the instructions, memory traffic and time of the runtime's "
        "vprintf, thousands of instructions a call on the GPU, are not in these counts\n",
        with_commas(s.printed.size()));
  }
  out << "branches\n";
  out << fmt::format("  executed {} (warp-level), divergent {}, branch efficiency {:.2f} %\n",
                     with_commas(s.branch_instructions), with_commas(s.divergent_branches),
                     100.0 * (1.0 - ratio(s.divergent_branches, s.branch_instructions)));
  const auto insts = instructions_of(*l.kernel);
  for (std::size_t i = 0; i < s.per_branch.size(); ++i) {
    const exec::BranchStats& b = s.per_branch[i];
    if (b.executions == 0) continue;
    out << fmt::format(
        "  line {:>4}: {} executions, {} divergent; threads taken {}, not taken "
        "{}\n",
        line_label(run.module, *insts[i]), with_commas(b.executions), with_commas(b.divergent),
        with_commas(b.threads_taken), with_commas(b.threads_not_taken));
  }
  write_memory_text(out, l, s, run.per_line, run.module);
  if (run.timing != nullptr) {
    write_timing_text(out, *run.timing, run.gpu != nullptr ? run.gpu->clock_mhz : 0);
  }
  write_counters_text(out, s, run.timing);
  const exec::HostTiming& t = run.result.timing;
  out << fmt::format(
      "host\n  wall time {:.3f} s (setup {:.3f} s, simulation {:.3f} s): {:.2f} M "
      "warp instructions/s simulated\n",
      run.wall_seconds, t.setup_seconds, t.simulate_seconds,
      ratio(s.warp_instructions, 1) / std::max(t.simulate_seconds, 1e-9) / 1e6);
}

nlohmann::json run_json(const RunSummary& run) {
  const exec::LaunchSpec& l = run.launch;
  const exec::LaunchStats& s = run.result.stats;
  const LaunchShape shape = shape_of(l);
  auto dims = [](const ir::Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); };
  nlohmann::json j;
  j["kernel"] = l.kernel->name;
  j["file"] = run.file;
  j["config"] = run.gpu != nullptr ? config_json(*run.gpu) : nlohmann::json(nullptr);
  j["launch"] = {{"name", l.name},
                 {"grid", dims(l.grid)},
                 {"block", dims(l.block)},
                 {"cluster", dims(l.cluster)},
                 {"dynamic_smem", l.dynamic_smem},
                 {"blocks", shape.blocks},
                 {"threads", shape.threads},
                 {"warps_per_block", shape.warps_per_block},
                 {"idle_lanes", shape.idle_lanes}};
  j["metrics"] = nlohmann::json::object();
  add_metrics_json(s, run.timing, j["metrics"]);
  j["lines"] = memory_lines_json(l, s, run.module);
  if (!s.printed.empty()) {
    nlohmann::json& printed = j["printf"] = nlohmann::json::array();
    for (const exec::PrintedLine& p : s.printed) {
      printed.push_back({{"block", p.block},
                         {"thread", std::uint64_t{p.warp} * kWarpSize + p.lane},
                         {"text", p.text}});
    }
  }
  if (run.occupancy != nullptr) {
    add_occupancy_metrics(*run.occupancy, j["metrics"]);
    j["registers_estimated"] = run.occupancy->registers.estimated;
  }
  if (run.timing != nullptr) {
    j["warp_states"] = warp_states_json(*run.timing);
    j["mode"] = "timing";
    j["cache_control"] = run.timing->l2_flushed ? "all" : "none";
  } else {
    j["mode"] = "functional";
  }
  j["frontend"] = run.sass ? "sass" : "ir";
  if (s.sass.instructions > 0) {
    // Each SASS mnemonic's warp-level executions (Nsight Compute's instruction statistics).
    nlohmann::json mix = nlohmann::json::object();
    for (std::size_t i = 0; i < s.sass.per_mnemonic.size() && i < sass::kMnemonicCount; ++i) {
      if (s.sass.per_mnemonic[i] != 0)
        mix[std::string(sass::kMnemonics[i].name)] = s.sass.per_mnemonic[i];
    }
    j["sass_mnemonics"] = mix;
  }
  j["metric_notes"] = metric_notes_json(run.timing != nullptr);
  nlohmann::json branches = nlohmann::json::array();
  const auto insts = instructions_of(*l.kernel);
  for (std::size_t i = 0; i < s.per_branch.size(); ++i) {
    const exec::BranchStats& b = s.per_branch[i];
    if (b.executions == 0) continue;
    branches.push_back({{"line", insts[i]->loc.line},
                        {"executions", b.executions},
                        {"divergent", b.divergent},
                        {"threads_taken", b.threads_taken},
                        {"threads_not_taken", b.threads_not_taken}});
  }
  j["branches"] = branches;
  const exec::HostTiming& t = run.result.timing;
  j["host"] = {{"wall_seconds", run.wall_seconds},
               {"setup_seconds", t.setup_seconds},
               {"simulate_seconds", t.simulate_seconds},
               {"warp_instructions_per_second",
                ratio(s.warp_instructions, 1) / std::max(t.simulate_seconds, 1e-9)}};
  return j;
}

}  // namespace warpsim::cli

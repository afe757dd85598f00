// `warpsim sass FILE`: the kernels as the GPU runs them. The IR is lowered to PTX, ptxas
// assembles it for the config's GPU and nvdisasm lists it; each instruction is shown with the
// scheduling controls ptxas encoded (sim/sass/sass_listing.hpp). With --counts, a launch runs on
// the SASS first and each instruction shows how many times a warp executed it, as Nsight
// Compute's Source page counts them (smsp__sass_inst_executed per instruction).
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <ostream>

#include "cuda_backend/ptx.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/sass/disassembler.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/sass_frontend.hpp"
#include "tools/warpsim/source_lines.hpp"

namespace warpsim::cli {
namespace {

// "SB0,SB3" for a wait mask, "-" for none.
std::string barriers(std::uint8_t mask) {
  std::string s;
  for (unsigned b = 0; b < 6; ++b) {
    if ((static_cast<unsigned>(mask) >> b) & 1u)
      s += (s.empty() ? "" : ",") + fmt::format("SB{}", b);
  }
  return s.empty() ? "-" : s;
}

std::string barrier(const std::optional<std::uint8_t>& b) {
  return b ? fmt::format("SB{}", *b) : "-";
}

// The IR instruction at each line of the module's text, with its CUDA line when imported.
std::map<std::uint32_t, std::string> ir_lines(const ir::Module& m, const ir::Kernel& k) {
  std::map<std::uint32_t, std::string> lines;
  for (const ir::BasicBlock& b : k.blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      std::string text = ir::to_string(inst);
      if (inst.origin.known()) text += "   [" + m.origin_text(inst.origin) + "]";
      lines.emplace(inst.loc.line, std::move(text));
    }
  }
  return lines;
}

// `executed`: warp-level executions by instruction index, or empty (no column).
void print_function(std::ostream& out, const sass::SassFunction& f, const ir::Module& m,
                    const ir::Kernel& kernel, const std::vector<std::uint64_t>& executed) {
  const auto lines = ir_lines(m, kernel);
  out << fmt::format("kernel {}: {} SASS instructions\n", kernel.name, f.instructions.size());
  const std::string count_header = executed.empty() ? "" : fmt::format("{:>10}  ", "executed");
  out << fmt::format("  {:>5}  {}{:<56} {:>5} {:>5} {:>5} {:>5}  {}\n", "addr", count_header,
                     "instruction", "stall", "yield", "write", "read", "wait");
  std::size_t next_label = 0;
  std::uint32_t shown_line = 0;
  SourceText sources;  // CUDA files' lines, read once
  for (const sass::SassInstruction& inst : f.instructions) {
    // Each run of instructions under the IR line (and CUDA line) they came from; nvcc's own
    // PTX (a .cu or .ptx file) names the CUDA line itself.
    if (inst.source_line != shown_line && inst.source_file == cuda::kIrSourceFile) {
      shown_line = inst.source_line;
      const auto it = lines.find(shown_line);
      out << fmt::format("  IR line {}: {}\n", shown_line, it != lines.end() ? it->second : "");
    } else if (inst.source_line != shown_line && !inst.source_file.empty()) {
      shown_line = inst.source_line;
      out << fmt::format("  {}:{}: {}\n",
                         std::filesystem::path(inst.source_file).filename().string(), shown_line,
                         sources.line(inst.source_file, shown_line));
    }
    while (next_label < f.labels.size() && f.labels[next_label].second <= inst.address) {
      out << "  " << f.labels[next_label++].first << ":\n";
    }
    std::string text = (inst.guard.empty() ? "" : inst.guard + " ") + inst.opcode;
    if (!inst.operands.empty()) text += " " + inst.operands;
    if (text.size() > 56) text = text.substr(0, 53) + "...";
    const sass::Controls& c = inst.controls;
    std::string count;
    if (!executed.empty()) {
      const std::size_t index = inst.address / sass::kInstructionBytes;
      count = fmt::format("{:>10}  ", index < executed.size() ? executed[index] : 0);
    }
    out << fmt::format("  {:05x}  {}{:<56} {:>5} {:>5} {:>5} {:>5}  {}\n", inst.address, count,
                       text, c.stall, c.yield ? "y" : "-", barrier(c.write_barrier),
                       barrier(c.read_barrier), barriers(c.wait_mask));
  }
}

}  // namespace

int run_sass(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(), "the .kir, .cu or .ptx file")(
      "config", po::value<std::string>()->default_value("h200"),
      "the GPU whose architecture ptxas compiles for: a built-in config name or an INI file")(
      "counts",
      "run each kernel's first launch (the file's launch blocks or --launch-file's) on its SASS "
      "and show how many times a warp executed each instruction");
  po::positional_options_description pos;
  add_input_options(desc);
  pos.add("file", 1);
  auto cl = parse_command_line("sass FILE", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (cl->vars.count("file") == 0) {
    err << "warpsim sass: error: no input file\n";
    return kExitBadInput;
  }
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), {}, err);
  if (!gpu) return kExitBadInput;
  InputOptions input = input_options(*cl);
  input.arch = sm_arch(gpu->cc_major, gpu->cc_minor);
  input.sass_frontend = true;  // the listing needs ptxas's code, not the IR's body
  const ir::LoadedModule loaded = load_kernel_file(cl->vars["file"].as<std::string>(), input);
  loaded.diags.render(err);
  if (!loaded.ok()) return kExitBadInput;
  // The PTX the SASS frontend runs: nvcc's own for a .cu or .ptx file, else the IR lowered.
  const sass::SassBuild built = sass::build_sass(sass_ptx(loaded.module, input.arch), input.arch);
  if (!built.listing) {
    err << "warpsim sass: error: " << built.error << '\n';
    return kExitBadInput;
  }
  out << fmt::format(
      "SASS for {} (ptxas -arch={}, listed by nvdisasm); stall in cycles, "
      "write/read: the scoreboard the instruction releases, wait: those it waits "
      "for\n",
      gpu->name, input.arch);
  for (const ir::Kernel& k : loaded.module.kernels) {
    const sass::SassFunction* f = built.listing->find(sass_entry(loaded.module, k));
    if (f == nullptr) {
      err << "warpsim sass: error: ptxas's cubin has no function " << sass_entry(loaded.module, k)
          << '\n';
      return kExitInternalError;
    }
    std::vector<std::uint64_t> executed;
    if (cl->vars.count("counts")) {
      const ir::Launch* launch = nullptr;
      for (const ir::Launch& l : loaded.module.launches) {
        if (launch == nullptr && l.kernel == k.name) launch = &l;
      }
      if (launch == nullptr) {
        err << "warpsim sass: error: --counts: no launch block names kernel " << k.name
            << " (give one with --launch-file)\n";
        return kExitBadInput;
      }
      LaunchOverrides o;
      o.command = "sass";
      o.launch_name = launch->name;
      const auto spec = resolve_launch(loaded, o, err);
      if (!spec) return kExitBadInput;
      std::string error;
      const auto result = run_on_sass(loaded.module, *spec, input.arch, {}, error);
      if (!result) {
        err << "warpsim sass: error: " << error << '\n';
        return kExitKernelFault;
      }
      executed = result->stats.sass.per_instruction;
      out << fmt::format("\nexecuted: warp-level, launch {} ({} warp instructions)", launch->name,
                         result->stats.sass.instructions);
    }
    out << '\n';
    print_function(out, *f, loaded.module, k, executed);
  }
  return kExitOk;
}

}  // namespace warpsim::cli

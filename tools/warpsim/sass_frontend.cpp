#include "tools/warpsim/sass_frontend.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "cuda_backend/ptx.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/import/ptx_import.hpp"
#include "sim/import/toolkit.hpp"
#include "sim/sass/disassembler.hpp"
#include "sim/sass/sass_run.hpp"
#include "sim/scheduler/frontend/sass_frontend.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::cli {

bool sass_checked_on(const std::string& arch) {
  return arch == "sm_90" || arch == "sm_90a";
}

bool sass_tools_found() {
  return toolkit::find_program("ptxas").has_value() && sass::find_disassembler().has_value();
}

bool resolve_frontend(boost::program_options::variables_map& vars, const char* command,
                      std::ostream& err, const std::string& arch, const char* ir_only) {
  const std::string word = vars["frontend"].as<std::string>();
  if (word == "ir" || word == "sass") return true;
  if (word != "auto") {
    err << "warpsim " << command << ": error: --frontend must be ir, sass or auto, not '" << word
        << "'\n";
    return false;
  }
  if (ir_only != nullptr) {
    vars.at("frontend").value() = std::string("ir");
    err << "warpsim " << command << ": --frontend auto: ir (" << ir_only << ")\n";
    return true;
  }
  const bool ptxas = toolkit::find_program("ptxas").has_value();
  const bool disassembler = sass::find_disassembler().has_value();
  const bool checked = sass_checked_on(arch);
  const std::string chosen = ptxas && disassembler && checked ? "sass" : "ir";
  vars.at("frontend").value() = chosen;
  err << "warpsim " << command << ": --frontend auto: " << chosen
      << (chosen == "sass" ? " (ptxas and nvdisasm found)"
          : !ptxas         ? " (ptxas not found)"
          : !disassembler  ? " (nvdisasm not found)"
                           : " (the SASS executor is checked on sm_90; the config is " + arch +
                                ", --frontend sass tries it)")
      << '\n';
  return true;
}

std::string sass_ptx(const ir::Module& module, const std::string& arch) {
  return module.imported_ptx.empty() ? cuda::lower_to_ptx(module, arch) : module.imported_ptx;
}

std::string sass_entry(const ir::Module& module, const ir::Kernel& kernel) {
  return module.imported_ptx.empty() || kernel.ptx_name.empty() ? kernel.name : kernel.ptx_name;
}

namespace {

std::optional<sass::SassKernel> compile(const ir::Module& module, const exec::LaunchSpec& launch,
                                        const std::string& arch, std::string& error) {
  auto kernel =
      sass::compile_sass(sass_ptx(module, arch), arch, sass_entry(module, *launch.kernel), error);
  if (kernel) {
    for (sass::ConstantRelocation& r : kernel->constant_relocations) {
      if (sass::runtime_function_address(r.symbol) != 0) continue;
      // The module holds the variable by its IR name (nvcc's string constants are "$str").
      if (module.find_global(r.symbol) == nullptr) r.symbol = ptx::ir_word(r.symbol);
      if (module.find_global(r.symbol) == nullptr) {
        error =
            "the SASS reads the address of '" + r.symbol +
            "', which is no global variable of the module nor a runtime function warpsim models "
            "(vprintf, __assertfail)";
        kernel.reset();
        break;
      }
    }
  }
  if (!kernel) {
    error += launch.kernel->sass_only.empty()
                 ? " (--frontend ir runs the IR instead)"
                 : " (and the IR does not import the kernel either, as the note above says)";
  }
  return kernel;
}

// The IR opcode and space a SASS memory instruction does the work of, if it is one.
std::optional<std::pair<ir::Opcode, ir::Space>> ir_kind(sass::Op op) {
  using sass::Op;
  switch (op) {
    case Op::LDG:
    case Op::LD:
      return std::pair{ir::Opcode::Ld, ir::Space::Global};
    case Op::STG:
    case Op::ST:
      return std::pair{ir::Opcode::St, ir::Space::Global};
    case Op::LDS:
      return std::pair{ir::Opcode::Ld, ir::Space::Shared};
    case Op::STS:
      return std::pair{ir::Opcode::St, ir::Space::Shared};
    case Op::LDL:
      return std::pair{ir::Opcode::Ld, ir::Space::Local};
    case Op::STL:
      return std::pair{ir::Opcode::St, ir::Space::Local};
    case Op::ATOMG:
    case Op::REDG:
      return std::pair{ir::Opcode::Atom, ir::Space::Global};
    case Op::ATOMS:
      return std::pair{ir::Opcode::Atom, ir::Space::Shared};
    default:
      return std::nullopt;
  }
}

// A kernel whose IR has no body (it runs on its SASS alone) keeps its SASS memory instructions'
// counts as they are, each under the CUDA line ptxas's line information gives it.
std::vector<exec::SassMemoryLine> sass_memory_lines(const sass::SassKernel& kernel,
                                                    const exec::LaunchStats& stats) {
  std::vector<exec::SassMemoryLine> lines;
  for (std::size_t pc = 0; pc < kernel.program.insts.size() && pc < stats.per_memory.size(); ++pc) {
    const exec::MemoryLineStats& counted = stats.per_memory[pc];
    const sass::SassInstruction* listed = kernel.program.insts[pc].listed;
    if (counted.executions == 0 || listed == nullptr) continue;
    exec::SassMemoryLine& line = lines.emplace_back();
    line.address = listed->address;
    line.instruction = (listed->guard.empty() ? "" : listed->guard + " ") + listed->opcode;
    if (!listed->operands.empty()) line.instruction += " " + listed->operands;
    line.source_file = listed->source_file;
    line.source_line = listed->source_line;
    const auto kind = ir_kind(kernel.program.insts[pc].op);
    // LDSM, LDGSTS and the like have no IR kind: shared where they count wavefronts only.
    line.shared =
        kind ? kind->second == ir::Space::Shared : counted.requests == 0 && counted.wavefronts != 0;
    line.counts = counted;
  }
  return lines;
}

// The SASS run counted memory by SASS instruction; the per-line tables are the IR's. Each SASS
// memory instruction's counts go to the IR instruction of its kind and space on its source line
// (ptxas's line information: the IR line of a .kir kernel, the CUDA line of an imported one),
// the first such when a line has several, so a line's SASS accesses (ptxas may merge or split
// them) show there. Branch tables stay empty: the SASS's branches are not the IR's. A kernel
// whose IR has no body gets the SASS's own rows instead (sass_memory_lines).
void onto_ir_lines(const exec::LaunchSpec& launch, const sass::SassKernel& kernel,
                   exec::LaunchStats& stats) {
  std::vector<const ir::Instruction*> ir_insts;
  for (const ir::BasicBlock& b : launch.kernel->blocks) {
    for (const ir::Instruction& inst : b.instructions) ir_insts.push_back(&inst);
  }
  if (!launch.kernel->sass_only.empty()) stats.sass_memory_lines = sass_memory_lines(kernel, stats);
  std::vector<exec::MemoryLineStats> by_ir(ir_insts.size());
  for (std::size_t pc = 0; pc < kernel.program.insts.size() && pc < stats.per_memory.size(); ++pc) {
    const exec::MemoryLineStats& counted = stats.per_memory[pc];
    const sass::Instruction& inst = kernel.program.insts[pc];
    const auto kind = ir_kind(inst.op);
    if (counted.executions == 0 || !kind || inst.listed == nullptr || inst.listed->source_line == 0)
      continue;
    const std::uint32_t line = inst.listed->source_line;
    for (std::size_t i = 0; i < ir_insts.size(); ++i) {
      const ir::Instruction& ir_inst = *ir_insts[i];
      const std::uint32_t ir_line = ir_inst.origin.known() ? ir_inst.origin.line : ir_inst.loc.line;
      if (ir_line != line || ir_inst.opcode != kind->first || ir_inst.space != kind->second)
        continue;
      exec::add_counters(by_ir[i], counted);
      break;
    }
  }
  stats.per_memory = std::move(by_ir);
  stats.per_branch.assign(ir_insts.size(), {});
}

}  // namespace

std::optional<exec::LaunchResult> run_on_sass(const ir::Module& module,
                                              const exec::LaunchSpec& launch,
                                              const std::string& arch,
                                              const exec::ExecOptions& options, std::string& error,
                                              const sass::SassTrace& trace) {
  const auto kernel = compile(module, launch, arch, error);
  if (!kernel) return std::nullopt;
  exec::LaunchResult result =
      sass::execute_sass(*kernel, launch, exec::constant_image(module), options, trace);
  onto_ir_lines(launch, *kernel, result.stats);
  return result;
}

std::optional<scheduler::TimingResult> time_on_sass(const ir::Module& module,
                                                    const exec::LaunchSpec& launch,
                                                    const config::GpuConfig& gpu,
                                                    const scheduler::Occupancy& occupancy,
                                                    const scheduler::TimingOptions& options,
                                                    std::string& error) {
  const auto kernel = compile(module, launch, sm_arch(gpu.cc_major, gpu.cc_minor), error);
  if (!kernel) return std::nullopt;
  const std::vector<std::uint8_t> constants = exec::constant_image(module);
  config::GpuConfig on_sass = gpu;
  on_sass.timing = config::sass_timing(gpu.timing);
  scheduler::TimingResult r = scheduler::simulate_timing_with(
      [&](exec::GlobalMemory& memory) {
        return std::make_unique<scheduler::SassFrontend>(
            *kernel, launch, memory, constants, on_sass.timing, options.max_warp_instructions);
      },
      launch, on_sass, occupancy, options);
  onto_ir_lines(launch, *kernel, r.functional.stats);
  return r;
}

}  // namespace warpsim::cli

#include "tools/warpsim/sass_frontend.hpp"

#include "cuda_backend/ptx.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/sass/sass_run.hpp"
#include "sim/scheduler/frontend/sass_frontend.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::cli {

bool frontend_ok(const std::string& word, const char* command, std::ostream& err) {
  if (word == "ir" || word == "sass") return true;
  err << "warpsim " << command << ": error: --frontend must be ir or sass, not '" << word << "'\n";
  return false;
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
  if (!kernel) error += " (--frontend ir runs the IR instead)";
  return kernel;
}

// The per-instruction tables are the IR's: SASS instructions are counted in the totals only.
void size_per_line_tables(const exec::LaunchSpec& launch, exec::LaunchStats& stats) {
  std::size_t instructions = 0;
  for (const ir::BasicBlock& b : launch.kernel->blocks) instructions += b.instructions.size();
  stats.per_branch.assign(instructions, {});
  stats.per_memory.assign(instructions, {});
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
  size_per_line_tables(launch, result.stats);
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
  size_per_line_tables(launch, r.functional.stats);
  return r;
}

}  // namespace warpsim::cli

// `warpsim occupancy --config F --block N --regs R --smem BYTES`: theoretical occupancy and what
// limits it, like Nsight Compute's occupancy section; --sweep over block sizes, --svg a graph.
// `warpsim occupancy FILE [--kernel K] [--block N]` takes the registers (from ptxas) and the
// static shared memory of a kernel of a .kir, .cu or .ptx file, and the block size of its first
// launch when --block is not given.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/core/exec/program.hpp"
#include "sim/core/ir/register_estimate.hpp"
#include "sim/scheduler/occupancy.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/occupancy_report.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

int run_occupancy(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(),
                     "a .kir, .cu or .ptx file: its kernel's registers and shared memory")(
      "config", po::value<std::string>()->default_value(kDefaultConfig),
      "a built-in config name or an INI file")("set", po::value<std::vector<std::string>>(),
                                               "section.key=value (repeatable)")(
      "block", count_value(1, std::uint64_t{1} << 32), "threads per block")(
      "regs", count_value(0, 65536)->default_value(32), "registers per thread")(
      "smem", count_value(0, std::uint64_t{1} << 40)->default_value(0),
      "shared memory per block in bytes, static plus dynamic")(
      "json", po::value<std::string>(), "write the result as JSON to this file")(
      "sweep", "occupancy for every block size from 32 to the maximum, in steps of 32")(
      "svg", po::value<std::string>(), "with --sweep: draw the occupancy curve to this file");
  add_input_options(desc);
  desc.add_options()("dynamic-smem", count_value(0, std::uint64_t{1} << 40),
                     "with FILE: dynamic shared memory per block, in bytes");
  po::positional_options_description pos;
  pos.add("file", 1);
  auto cl = parse_command_line("occupancy [FILE] --block N --regs R --smem BYTES", desc, pos, args,
                               out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const auto sets = cl->vars.count("set") ? cl->vars["set"].as<std::vector<std::string>>()
                                          : std::vector<std::string>{};
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), sets, err);
  if (!gpu) return kExitBadInput;
  scheduler::KernelResources k;
  k.registers_per_thread = cl->vars["regs"].as<std::uint64_t>();
  k.static_shared_bytes = cl->vars["smem"].as<std::uint64_t>();
  std::optional<std::uint64_t> launch_block;
  if (cl->vars.count("file")) {
    if (!cl->vars["regs"].defaulted() || !cl->vars["smem"].defaulted()) {
      err << "warpsim occupancy: error: with a file, registers and shared memory are the "
             "kernel's; leave out --regs and --smem\n";
      return kExitBadInput;
    }
    InputOptions input = input_options(*cl);
    input.arch = sm_arch(gpu->cc_major, gpu->cc_minor);
    const ir::LoadedModule loaded = load_kernel_file(cl->vars["file"].as<std::string>(), input);
    loaded.diags.render(err);
    if (!loaded.ok()) return kExitBadInput;
    if (loaded.module.kernels.size() != 1) {
      err << "warpsim occupancy: error: the file holds " << loaded.module.kernels.size()
          << " kernels; pick one with --kernel\n";
      return kExitBadInput;
    }
    const ir::Kernel& kernel = loaded.module.kernels[0];
    const ir::RegisterCount regs = ir::registers_per_thread(kernel);
    k.registers_per_thread = regs.registers;
    k.static_shared_bytes =
        exec::static_shared_bytes(kernel) +
        (cl->vars.count("dynamic-smem") ? cl->vars["dynamic-smem"].as<std::uint64_t>() : 0);
    for (const ir::Launch& l : loaded.module.launches) {
      if (l.kernel == kernel.name && !launch_block) launch_block = l.block.count();
    }
    out << fmt::format("kernel {}: {} registers per thread ({}), {} B of shared memory per block\n",
                       kernel.name, regs.registers,
                       regs.estimated    ? "an estimate from liveness, not compiled by ptxas"
                       : regs.from_ptxas ? "as ptxas allocates them"
                                         : "the kernel's regs()",
                       k.static_shared_bytes);
  }
  const bool sweep = cl->vars.count("sweep") != 0;
  if (cl->vars.count("svg") && !sweep) {
    err << "warpsim occupancy: error: --svg draws the sweep's curve; add --sweep\n";
    return kExitBadInput;
  }
  if (cl->vars.count("svg") &&
      !extension_of(cl->vars["svg"].as<std::string>(), {".svg"}, "occupancy", "--svg", err)) {
    return kExitBadInput;
  }
  if (sweep && cl->vars.count("block")) {
    err << "warpsim occupancy: error: --sweep covers every block size; leave out --block\n";
    return kExitBadInput;
  }
  if (sweep) {
    const auto points = occupancy_sweep(*gpu, k);
    write_sweep_text(out, *gpu, k, points);
    if (cl->vars.count("svg")) {
      std::ofstream svg(cl->vars["svg"].as<std::string>());
      write_sweep_svg(svg, *gpu, k, points);
      if (!svg) {
        err << "warpsim occupancy: error: cannot write the SVG file\n";
        return kExitBadInput;
      }
    }
    return kExitOk;
  }
  if (cl->vars.count("block") == 0 && !launch_block) {
    err << "warpsim occupancy: error: give --block N (or --sweep)\n";
    return kExitBadInput;
  }
  k.block_threads = cl->vars.count("block") ? cl->vars["block"].as<std::uint64_t>() : *launch_block;
  const scheduler::Occupancy o = scheduler::compute_occupancy(*gpu, k);
  write_occupancy_text(out, *gpu, k, o);
  if (cl->vars.count("json")) {
    std::ofstream json(cl->vars["json"].as<std::string>());
    json << occupancy_json(*gpu, k, o).dump(2) << '\n';
    if (!json) {
      err << "warpsim occupancy: error: cannot write the JSON file\n";
      return kExitBadInput;
    }
  }
  return o.blocks_per_sm == 0 ? kExitBadInput : kExitOk;
}

}  // namespace warpsim::cli

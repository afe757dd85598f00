// `warpsim occupancy --config F --block N --regs R --smem BYTES`: theoretical occupancy and what
// limits it, like Nsight Compute's occupancy section; --sweep over block sizes, --svg a graph.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/scheduler/occupancy.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/occupancy_report.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

int run_occupancy(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("config", po::value<std::string>()->default_value(kDefaultConfig),
                     "a built-in config name or an INI file")(
      "set", po::value<std::vector<std::string>>(), "section.key=value (repeatable)")(
      "block", count_value(1, std::uint64_t{1} << 32), "threads per block")(
      "regs", count_value(0, 65536)->default_value(32), "registers per thread")(
      "smem", count_value(0, std::uint64_t{1} << 40)->default_value(0),
      "shared memory per block in bytes, static plus dynamic")(
      "json", po::value<std::string>(), "write the result as JSON to this file")(
      "sweep", "occupancy for every block size from 32 to the maximum, in steps of 32")(
      "svg", po::value<std::string>(), "with --sweep: draw the occupancy curve to this file");
  auto cl =
      parse_command_line("occupancy --block N --regs R --smem BYTES", desc, {}, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  const auto sets = cl->vars.count("set") ? cl->vars["set"].as<std::vector<std::string>>()
                                          : std::vector<std::string>{};
  const auto gpu = load_gpu_config(cl->vars["config"].as<std::string>(), sets, err);
  if (!gpu) return kExitBadInput;
  scheduler::KernelResources k;
  k.registers_per_thread = cl->vars["regs"].as<std::uint64_t>();
  k.static_shared_bytes = cl->vars["smem"].as<std::uint64_t>();
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
  if (cl->vars.count("block") == 0) {
    err << "warpsim occupancy: error: give --block N (or --sweep)\n";
    return kExitBadInput;
  }
  k.block_threads = cl->vars["block"].as<std::uint64_t>();
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

// `warpsim step FILE --block B --warp W`: one warp's divergent execution, lane by lane.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <ostream>

#include "sim/core/exec/executor.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/fault_report.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"
#include "tools/warpsim/step_session.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

// --block as a linear index ("5") or block coordinates ("1,2" or "1,2,0").
std::optional<std::uint64_t> block_index(const std::string& text, const exec::LaunchSpec& spec) {
  auto d = parse_dim3(text);
  if (!d) return std::nullopt;
  const bool linear = text.find(',') == std::string::npos;
  const std::uint64_t index = linear ? d->x : exec::flatten(*d, spec.grid);
  if (linear ? index >= spec.blocks()
             : (d->x >= spec.grid.x || d->y >= spec.grid.y || d->z >= spec.grid.z)) {
    return std::nullopt;
  }
  return index;
}

}  // namespace

int run_step(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
             std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(), "the .kir file")(
      "block", po::value<std::string>()->default_value("0"),
      "the block: a linear index, or x,y[,z]")("warp", po::value<std::uint32_t>()->default_value(0),
                                               "the warp within the block")(
      "script", po::value<std::string>(), "read commands from this file instead of the terminal")(
      "launch", po::value<std::string>(), "which launch block (default: the first)")(
      "arg", po::value<std::vector<std::string>>(), "name=value, as for warpsim run")(
      "max-warp-insts", po::value<std::uint64_t>()->default_value(1'000'000'000),
      "fault when the kernel executes more warp instructions than this");
  po::positional_options_description pos;
  pos.add("file", 1);
  auto cl = parse_command_line("step FILE --block B --warp W", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (cl->vars.count("file") == 0) {
    err << "warpsim step: error: no input file\n";
    return kExitBadInput;
  }
  const std::string file = cl->vars["file"].as<std::string>();
  const ir::LoadedModule loaded = ir::load_module_file(file);
  loaded.diags.render(err);
  if (!loaded.ok()) return kExitBadInput;
  LaunchOverrides o;
  if (cl->vars.count("launch")) o.launch_name = cl->vars["launch"].as<std::string>();
  if (cl->vars.count("arg")) o.args = cl->vars["arg"].as<std::vector<std::string>>();
  const auto spec = resolve_launch(loaded, o, err);
  if (!spec) return kExitBadInput;
  const auto block = block_index(cl->vars["block"].as<std::string>(), *spec);
  const std::uint32_t warp = cl->vars["warp"].as<std::uint32_t>();
  if (!block || warp >= spec->warps_per_block()) {
    err << "warpsim step: error: the launch has " << spec->blocks() << " blocks (grid "
        << spec->grid.x << "," << spec->grid.y << "," << spec->grid.z << ") of "
        << spec->warps_per_block() << " warps; --block or --warp is outside it\n";
    return kExitBadInput;
  }
  std::ifstream script;
  if (cl->vars.count("script")) {
    script.open(cl->vars["script"].as<std::string>());
    if (!script) {
      err << "warpsim step: error: cannot read the script\n";
      return kExitBadInput;
    }
  }
  std::istream& commands = script.is_open() ? script : in;
  const bool terminal = !script.is_open() && &in == &std::cin && isatty(STDIN_FILENO) != 0;
  StepSession session(commands, out, terminal);
  exec::ExecOptions options;
  options.max_warp_instructions = cl->vars["max-warp-insts"].as<std::uint64_t>();
  options.trace = &session;
  options.trace_block = *block;
  options.trace_warp = warp;
  out << "kernel " << spec->kernel->name << ", block " << *block << ", warp " << warp
      << " (threads " << warp * 32 << "-"
      << std::min<std::uint64_t>(spec->threads_per_block(), warp * 32 + 32) - 1
      << "); lanes: \u2588 active, \u2591 waiting, \u00b7 exited\n";
  try {
    exec::execute(loaded.module, *spec, options);
  } catch (const StepStopped&) {
    return kExitOk;
  } catch (const exec::KernelFault& f) {
    write_fault(err, file, f);
    return kExitKernelFault;
  }
  return kExitOk;
}

}  // namespace warpsim::cli

// `warpsim ptx FILE`: the kernels lowered to PTX.
#include <spdlog/spdlog.h>

#include <ostream>
#include <set>

#include "cuda_backend/ptx.hpp"
#include "sim/core/ir/frontend.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/kernel_input.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

int run_ptx(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace po = boost::program_options;
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(), "the .kir, .cu or .ptx file")(
      "target", po::value<std::string>()->default_value("sm_90"), "the PTX target");
  po::positional_options_description pos;
  add_input_options(desc);
  pos.add("file", 1);
  auto cl = parse_command_line("ptx FILE", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (cl->vars.count("file") == 0) {
    err << "warpsim ptx: error: no input file\n";
    return kExitBadInput;
  }
  const std::string target = cl->vars["target"].as<std::string>();
  // The targets of the PTX ISA version the lowering writes (8.0); clusters and distributed
  // shared memory need sm_90.
  static const std::set<std::string> kTargets = {"sm_70", "sm_72", "sm_75", "sm_80", "sm_86",
                                                 "sm_87", "sm_89", "sm_90", "sm_90a"};
  if (!kTargets.contains(target)) {
    std::string list;
    for (const std::string& t : kTargets) list += (list.empty() ? "" : ", ") + t;
    err << "warpsim ptx: error: --target '" << target << "' is not a known target (" << list
        << ")\n";
    return kExitBadInput;
  }
  InputOptions input = input_options(*cl);
  input.arch = target;
  const ir::LoadedModule loaded = load_kernel_file(cl->vars["file"].as<std::string>(), input);
  loaded.diags.render(err);
  if (!loaded.ok()) return kExitBadInput;
  spdlog::debug("ptx: lowering {} kernel(s) of {} for {}", loaded.module.kernels.size(),
                cl->vars["file"].as<std::string>(), target);
  out << cuda::lower_to_ptx(loaded.module, target);
  return kExitOk;
}

}  // namespace warpsim::cli

// `warpsim import FILE.cu|FILE.ptx [--kernel NAME] [-o OUT.kir]`: the IR of a CUDA kernel, each
// instruction under the CUDA line (loc) it came from, and a launch block to fill in for each
// kernel, commented out until its sizes are chosen.
#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/ir/printer.hpp"
#include "sim/import/kernel_signature.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

// The launch buffer type of a C++ pointer parameter ("__half const*" -> f16) where its elements
// are narrower than the IR's 32-bit words; nothing otherwise (the IR's pointee type serves).
std::optional<std::string_view> narrow_buffer_type(std::string cpp) {
  if (!cpp.ends_with('*') || cpp.find('*') != cpp.size() - 1) return std::nullopt;
  cpp.pop_back();
  for (const std::string_view word : {"const", "volatile", "__restrict__", "__restrict"}) {
    for (std::size_t at = cpp.find(word); at != std::string::npos; at = cpp.find(word))
      cpp.erase(at, word.size());
  }
  std::erase_if(cpp, [](char c) { return c == ' '; });
  if (cpp == "unsignedchar" || cpp == "bool") return "u8";
  if (cpp == "char" || cpp == "signedchar") return "s8";
  if (cpp == "short") return "s16";
  if (cpp == "unsignedshort") return "u16";
  if (cpp == "__half") return "f16";
  if (cpp == "__nv_bfloat16") return "bf16";
  return std::nullopt;
}

// A launch block with every parameter, as comments: buffers of 256 elements (of the C++ element
// type where it is narrower than 32 bits), scalars 256, a block of 256 threads (fewer if the
// kernel's launch bounds say so), the kernel's own cluster.
std::string launch_template(const ir::Kernel& k) {
  std::vector<std::string> cpp_types;
  if (const auto demangled = ptx::demangle(k.ptx_name))
    cpp_types = ptx::demangled_parameter_types(*demangled);
  if (cpp_types.size() != k.params.size()) cpp_types.clear();
  const std::uint32_t threads =
      k.launch_bounds ? std::min<std::uint32_t>(256, k.launch_bounds->max_threads) : 256;
  std::string shape = fmt::format("grid(1) block({})", threads);
  if (const auto& c = k.cluster_dims) {
    shape = fmt::format("grid({}, {}, {}) block({}) cluster({}, {}, {})", c->x, c->y, c->z, threads,
                        c->x, c->y, c->z);
  }
  std::string s = fmt::format(
      "# A launch to fill in (uncomment it, or pass --grid, --block and --arg NAME=VALUE):\n"
      "# launch {} {} {{\n",
      k.name, shape);
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const ir::KernelParam& p = k.params[i];
    if (p.is_pointer) {
      const auto narrow = cpp_types.empty() ? std::nullopt : narrow_buffer_type(cpp_types[i]);
      s += fmt::format(
          "#   {} = {}[256] iota      # zero, iota, constant(V), random(seed = S), "
          "sorted(seed = S), permutation(seed = S) or file(\"x.npy\")\n",
          p.name, narrow ? *narrow : ir::name(p.type));
    } else {
      s += fmt::format("#   {} = {}\n", p.name, ir::is_float(p.type) ? "1.0" : "256");
    }
  }
  return s + "# }\n";
}

}  // namespace

int run_import(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("options");
  desc.add_options()("file", po::value<std::string>(), "the .cu or .ptx file")(
      "output,o", po::value<std::string>(), "write the IR here (default: standard output)");
  add_input_options(desc);
  po::positional_options_description pos;
  pos.add("file", 1);
  auto cl = parse_command_line("import FILE.cu|FILE.ptx", desc, pos, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (!cl->vars.count("file")) {
    err << "warpsim import: error: no input file (a .cu or .ptx file)\n";
    return kExitBadInput;
  }
  const std::string file = cl->vars["file"].as<std::string>();
  if (!is_imported(file)) {
    err << "warpsim import: error: '" << file << "' is not a .cu or .ptx file\n";
    return kExitBadInput;
  }
  const LoadedInput input = load_input(file, input_options(*cl));
  input.loaded.diags.render(err);
  if (!input.loaded.ok()) return kExitBadInput;
  const ir::Module& m = input.loaded.module;
  std::string text = fmt::format(
      "# {}, imported by warpsim import (loc FILE LINE ptx LINE: the "
      "CUDA line and PTX line of what follows)\n",
      file);
  text += ir::to_string(m);
  for (const ir::Kernel& k : m.kernels) text += "\n" + launch_template(k);
  if (cl->vars.count("output")) {
    const std::string path = cl->vars["output"].as<std::string>();
    std::ofstream f(path, std::ios::binary);
    if (!(f << text)) {
      err << "warpsim import: error: cannot write '" << path << "'\n";
      return kExitBadInput;
    }
  } else {
    out << text;
  }
  std::ostream& summary = cl->vars.count("output") ? out : err;
  summary << fmt::format("{}: {} kernel{}", file, input.kernels.size(),
                         input.kernels.size() == 1 ? "" : "s");
  for (const ptx::KernelName& k : input.kernels) {
    const bool imported = m.find_kernel(k.ir) != nullptr;
    summary << fmt::format("\n  {}{}{}", k.cpp, imported ? " -> " + k.ir : "  (not imported)",
                           k.cpp == k.ptx ? "" : "  [PTX " + k.ptx + "]");
  }
  summary << '\n';
  return kExitOk;
}

}  // namespace warpsim::cli

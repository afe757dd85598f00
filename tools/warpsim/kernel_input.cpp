#include "tools/warpsim/kernel_input.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda_backend/ptx.hpp"
#include "sim/core/ir/parser.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/verifier.hpp"
#include "sim/import/kernel_signature.hpp"
#include "sim/import/ptx_import.hpp"
#include "sim/import/ptxas_registers.hpp"
#include "sim/import/toolkit.hpp"
#include "tools/warpsim/module_values.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ir::LoadedModule failure(const std::string& path, const std::string& message) {
  ir::LoadedModule loaded{{}, ir::Diagnostics(path, "")};
  loaded.diags.error({0, 0}, message);
  return loaded;
}

LoadedInput import_file(const std::string& path, const InputOptions& options) {
  const bool cuda = path.ends_with(".cu");
  const auto text = read_text(path);
  if (!text) {
    std::error_code ec;
    return {failure(path, fs::is_directory(path, ec) ? "is a directory" : "cannot read the file"),
            {},
            {}};
  }
  ptx::ImportOptions import;
  import.kernel = options.kernel;
  import.bodies_optional = options.sass_frontend || options.launched_body_only;
  std::string ptx_text;
  if (cuda) {
    toolkit::CompileOptions compile;
    compile.arch = options.arch;
    compile.extra_flags = options.nvcc_flags;
    const toolkit::Compiled compiled = toolkit::compile_to_ptx(path, compile);
    if (!compiled.ptx) return {failure(path, compiled.error), {}, {}};
    ptx_text = *compiled.ptx;
    import.ptx_name = path + " (nvcc's PTX)";
    import.cuda_path = path;
    import.cuda_source = *text;
    std::error_code ec;
    import.cuda_absolute_path = fs::absolute(path, ec).lexically_normal().string();
  } else {
    ptx_text = *text;
    import.ptx_name = path;
  }
  const ptx::ImportResult imported = ptx::import_ptx(ptx_text, import);
  if (!imported.module) return {ir::LoadedModule{{}, imported.diags}, imported.kernels, {}};
  for (const ptx::KernelName& k : imported.kernels) {
    spdlog::debug("{}: kernel {} (PTX {}) is '{}' in the IR", path, k.cpp, k.ptx, k.ir);
  }
  // Read back from its printed text, so messages and reports point at real lines; the PTX
  // names of module variables, which the text does not carry, kept.
  ir::LoadedModule loaded =
      ir::load_module_text(path + " (imported IR)", ir::to_string(*imported.module));
  for (ir::ArrayDecl& g : loaded.module.globals) {
    if (const ir::ArrayDecl* original = imported.module->find_global(g.name))
      g.ptx_name = original->ptx_name;
  }
  return {std::move(loaded), imported.kernels, ptx_text};
}

// Each kernel without registers from an annotation gets ptxas's count for its PTX entry.
void add_ptxas_registers(LoadedInput& input, const std::string& arch) {
  ir::Module& m = input.loaded.module;
  std::map<std::string, std::string> entry_of;  // IR kernel -> PTX entry
  std::string ptx = input.ptx;
  if (ptx.empty()) {
    for (const ir::Kernel& k : m.kernels) entry_of[k.name] = k.name;
    ptx = cuda::lower_to_ptx(m, arch);
  } else {
    for (const ptx::KernelName& k : input.kernels) entry_of[k.ir] = k.ptx;
  }
  const toolkit::PtxasRegisters counted = toolkit::ptxas_registers(ptx, arch);
  if (!counted.error.empty()) spdlog::debug("registers from liveness: {}", counted.error);
  for (ir::Kernel& k : m.kernels) {
    if (k.regs) continue;
    auto entry = entry_of.find(k.name);
    if (entry == entry_of.end()) continue;
    auto regs = counted.registers.find(entry->second);
    if (regs == counted.registers.end()) continue;
    k.regs = regs->second;
    k.regs_from_ptxas = true;
  }
}

}  // namespace

void add_input_options(boost::program_options::options_description& desc) {
  namespace po = boost::program_options;
  desc.add_options()("kernel", po::value<std::string>(),
                     ".cu/.ptx: the kernel to import (its C++ name, e.g. 'transpose<0>', or "
                     "its PTX name); default: all")(
      "launch-file", po::value<std::string>(),
      "launch blocks (the IR's launch syntax) to add to the file's")(
      "nvcc-flag", po::value<std::vector<std::string>>(),
      ".cu: a flag for nvcc, e.g. --nvcc-flag=-DN=256 (repeatable)");
}

InputOptions input_options(const CommandLine& cl) {
  InputOptions o;
  const auto& v = cl.vars;
  if (v.count("kernel")) o.kernel = v["kernel"].as<std::string>();
  if (v.count("launch-file")) o.launch_file = v["launch-file"].as<std::string>();
  if (v.count("nvcc-flag")) o.nvcc_flags = v["nvcc-flag"].as<std::vector<std::string>>();
  return o;
}

std::string sm_arch(unsigned major, unsigned minor) {
  return "sm_" + std::to_string(major * 10 + minor);
}

bool is_imported(const std::string& path) {
  return path.ends_with(".cu") || path.ends_with(".ptx");
}

ir::LoadedModule load_kernel_file(const std::string& path, const InputOptions& options) {
  return load_input(path, options).loaded;
}

void note_sass_only(const ir::Kernel& kernel, const char* command, std::ostream& err) {
  if (kernel.sass_only.empty()) return;
  err << "warpsim " << command << ": note: kernel " << kernel.name
      << " runs on its SASS alone; the IR does not import its body:\n  " << kernel.sass_only
      << "\n  (its counters, cycles and per-line rows are the SASS's)\n";
}

bool require_ir_body(const ir::Kernel& kernel, const char* command, std::ostream& err) {
  if (kernel.sass_only.empty()) return true;
  err << "warpsim " << command << ": error: the IR does not import the body of kernel "
      << kernel.name << ":\n  " << kernel.sass_only
      << "\n  (--frontend sass runs ptxas's code of it)\n";
  return false;
}

ir::LoadedModule load_embedded_text(const std::string& display_name, const std::string& text,
                                    const std::string& arch) {
  LoadedInput input{ir::load_module_text(display_name, text), {}, {}};
  if (input.loaded.ok()) add_ptxas_registers(input, arch);
  return std::move(input.loaded);
}

LoadedInput load_input(const std::string& path, const InputOptions& options) {
  LoadedInput input = is_imported(path) ? import_file(path, options)
                                        : LoadedInput{ir::load_module_file(path), {}, {}};
  ir::LoadedModule& loaded = input.loaded;
  if (loaded.ok() && !input.ptx.empty()) {
    // The printed IR does not carry the PTX: give it back, and each kernel its PTX entry name.
    loaded.module.imported_ptx = input.ptx;
    for (ir::Kernel& k : loaded.module.kernels) {
      for (const ptx::KernelName& name : input.kernels) {
        if (name.ir != k.name) continue;
        k.ptx_name = name.ptx;
        k.ptx_params = name.params;
        k.sass_only = name.body_error;
      }
    }
  }
  if (loaded.ok()) add_ptxas_registers(input, options.arch);
  if (!loaded.ok() || !options.launch_file) return input;
  const std::string& launch_path = *options.launch_file;
  const auto text = read_text(launch_path);
  if (!text) return {failure(launch_path, "cannot read the launch file"), input.kernels, {}};
  ir::Diagnostics diags(launch_path, *text);
  const ir::Module launches = ir::parse(*text, diags);
  if (!launches.kernels.empty() || !launches.constants.empty()) {
    diags.error({1, 1}, "a launch file holds launch blocks only");
  }
  std::vector<ir::Launch> resolved = launches.launches;
  for (ir::Launch& l : resolved) {
    // A launch may name an imported kernel by its C++ name ("reduce6<256>"), as --kernel does;
    // unless it was given another (`as NAME`), the launch takes the kernel's IR name.
    for (const ptx::KernelName& name : input.kernels) {
      if (!ptx::same_cpp_name(l.kernel, name.cpp) || name.ir == l.kernel) continue;
      if (l.name == l.kernel) l.name = name.ir;
      l.kernel = name.ir;
    }
  }
  apply_module_values(loaded.module, resolved, diags);
  for (ir::Launch& l : resolved) {
    const bool imported = loaded.module.find_kernel(l.kernel) != nullptr;
    const bool of_the_file = std::ranges::any_of(
        input.kernels, [&](const ptx::KernelName& name) { return name.ir == l.kernel; });
    // With --kernel, the launches of the file's other kernels are not the user's concern.
    if (!imported && of_the_file && options.kernel) {
      l.kernel.clear();
      continue;
    }
    if (!input.kernels.empty() && !imported) {
      std::string names;  // what the launch could have named
      for (const ptx::KernelName& name : input.kernels)
        names += (names.empty() ? "" : ", ") + ("\"" + name.cpp + "\" (" + name.ir + ")");
      diags.error(l.loc, "launch of unknown kernel '" + l.kernel + "': the file's kernels are " +
                             names + ", by C++ name in quotes or by IR name");
      continue;
    }
    if (!diags.has_errors()) ir::verify_launch(loaded.module, l, diags);
  }
  if (diags.has_errors()) return {ir::LoadedModule{{}, diags}, input.kernels, {}};
  for (const ir::Launch& l : resolved) {
    if (!l.kernel.empty()) loaded.module.launches.push_back(l);
  }
  return input;
}

}  // namespace warpsim::cli

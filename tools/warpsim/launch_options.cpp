#include "tools/warpsim/launch_options.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <ostream>
#include <thread>

#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/fault.hpp"
#include "sim/core/ir/parser.hpp"
#include "sim/core/ir/verifier.hpp"
#include "tools/warpsim/fault_report.hpp"

namespace warpsim::cli {

void add_launch_shape_options(boost::program_options::options_description& desc) {
  namespace po = boost::program_options;
  desc.add_options()("launch", po::value<std::string>(), "which launch block (default: the first)")(
      "grid", po::value<std::string>(), "grid dimensions x[,y[,z]] (blocks)")(
      "block", po::value<std::string>(), "block dimensions x[,y[,z]] (threads)")(
      "cluster", po::value<std::string>(), "cluster dimensions x[,y[,z]] (blocks)")(
      "dynamic-smem", count_value(0, std::uint64_t{1} << 32),
      "dynamic shared memory per block, in bytes")(
      "arg", po::value<std::vector<std::string>>(),
      "name=value: a scalar, or a buffer as in a launch block (repeatable)");
}

LaunchOverrides launch_overrides(const CommandLine& cl, const std::string& command) {
  LaunchOverrides o;
  o.command = command;
  const auto& v = cl.vars;
  if (v.count("launch")) o.launch_name = v["launch"].as<std::string>();
  if (v.count("grid")) o.grid = v["grid"].as<std::string>();
  if (v.count("block")) o.block = v["block"].as<std::string>();
  if (v.count("cluster")) o.cluster = v["cluster"].as<std::string>();
  if (v.count("dynamic-smem")) o.dynamic_smem = v["dynamic-smem"].as<std::uint64_t>();
  if (v.count("arg")) o.args = v["arg"].as<std::vector<std::string>>();
  return o;
}

std::uint32_t simulation_threads(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::optional<ir::Dim3> parse_dim3(const std::string& text) {
  ir::Dim3 d;
  std::uint64_t* slots[] = {&d.x, &d.y, &d.z};
  std::size_t start = 0, n = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (n == 3 || part.empty()) return std::nullopt;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), *slots[n]);
    if (ec != std::errc() || end != part.data() + part.size()) return std::nullopt;
    ++n;
    if (comma == std::string::npos) return d;
    start = comma + 1;
  }
}

namespace {

const ir::KernelParam* find_param(const ir::Kernel& k, const std::string& name) {
  for (const ir::KernelParam& p : k.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// Reads `name=value` with the launch-block grammar by parsing a one-argument launch; errors name
// the option, since the text is the user's command line, not the file.
std::optional<ir::LaunchArg> parse_arg(const ir::Kernel& kernel, const std::string& text,
                                       const std::string& command, std::ostream& err) {
  const auto fail = [&](const std::string& why) {
    err << "warpsim " << command << ": error: --arg '" << text << "': " << why << '\n';
    return std::nullopt;
  };
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) return fail("expected name=value");
  std::string name = text.substr(0, eq);
  name.erase(name.find_last_not_of(" \t") + 1);
  name.erase(0, name.find_first_not_of(" \t"));
  const ir::KernelParam* param = find_param(kernel, name);
  if (param == nullptr) {
    std::string names;
    for (const ir::KernelParam& p : kernel.params) names += (names.empty() ? "" : ", ") + p.name;
    return fail("kernel '" + kernel.name + "' has no parameter '" + name + "' (it has: " + names +
                ")");
  }
  const std::string source = "launch " + kernel.name + " grid(1) block(1) {\n" + name + " = " +
                             text.substr(eq + 1) + "\n}\n";
  ir::Diagnostics diags("--arg", source);
  const ir::Module m = ir::parse(source, diags);
  if (diags.has_errors() || m.launches.size() != 1 || m.launches[0].args.size() != 1) {
    const std::string why = diags.all().empty() ? "not a value" : diags.all().front().message;
    return fail(why +
                " (a scalar literal, or a buffer: TYPE[COUNT] INITIALISER, e.g. f32[1024] iota)");
  }
  const ir::LaunchArg& arg = m.launches[0].args[0];
  ir::verify_argument(*param, arg, diags);
  if (diags.has_errors()) return fail(diags.all().front().message);
  return arg;
}

std::optional<ir::Launch> pick_launch(const ir::Module& m, const LaunchOverrides& o,
                                      std::ostream& err) {
  if (m.launches.empty()) {
    if (m.kernels.size() != 1 || !o.grid || !o.block) {
      err << "warpsim " << o.command
          << ": error: the file has no launch block; give --grid, --block and --arg for each "
             "parameter"
          << (m.kernels.size() != 1 ? " (and it must hold exactly one kernel)" : "") << '\n';
      return std::nullopt;
    }
    ir::Launch l;
    l.kernel = l.name = m.kernels[0].name;
    return l;
  }
  if (o.launch_name.empty()) return m.launches[0];
  std::string names;
  for (const ir::Launch& l : m.launches) {
    if (l.name == o.launch_name) return l;
    names += (names.empty() ? "" : ", ") + l.name;
  }
  err << "warpsim " << o.command << ": error: no launch named '" << o.launch_name
      << "' (the file has: " << names << ")\n";
  return std::nullopt;
}

// Applies --grid and --block; a bad shape is reported against the option that gave it.
bool apply_shape(const LaunchOverrides& o, ir::Launch& launch, std::ostream& err) {
  const struct {
    const char* option;
    const std::optional<std::string>* text;
    ir::Dim3* shape;
  } options[] = {{"--grid", &o.grid, &launch.grid},
                 {"--block", &o.block, &launch.block},
                 {"--cluster", &o.cluster, &launch.cluster}};
  for (const auto& [option, text, shape] : options) {
    if (!*text) continue;
    const auto parsed = parse_dim3(**text);
    if (!parsed) {
      err << "warpsim " << o.command << ": error: " << option << " '" << **text
          << "' is not a shape: x[,y[,z]] with positive integers\n";
      return false;
    }
    *shape = *parsed;
  }
  if (o.dynamic_smem) launch.dynamic_smem = *o.dynamic_smem;
  if (!o.grid && !o.block && !o.cluster) return true;
  const auto errors = ir::shape_errors(launch.grid, launch.block, launch.cluster);
  std::string given;
  for (const auto& [name, set] :
       {std::pair{"--grid", o.grid.has_value()}, std::pair{"--block", o.block.has_value()},
        std::pair{"--cluster", o.cluster.has_value()}}) {
    if (set) given += (given.empty() ? "" : " and ") + std::string(name);
  }
  for (const std::string& e : errors) {
    err << "warpsim " << o.command << ": error: " << given << ": " << e << '\n';
  }
  return errors.empty();
}

}  // namespace

namespace {

// Each result(LAUNCH, BUFFER) buffer of `spec` gets the bytes LAUNCH leaves in BUFFER: LAUNCH
// is resolved (its own results first: the verifier keeps the order acyclic) and run by the
// functional model, whose buffers are the GPU's bit for bit.
bool run_earlier_launches(const ir::LoadedModule& loaded, const LaunchOverrides& o,
                          exec::LaunchSpec& spec, std::ostream& err) {
  for (auto& [name, value] : spec.args) {
    auto* buf = std::get_if<ir::BufferSpec>(&value);
    if (buf == nullptr || buf->init != ir::BufferInit::Result) continue;
    LaunchOverrides earlier;
    earlier.command = o.command;
    earlier.launch_name = buf->launch;
    const auto before = resolve_launch(loaded, earlier, err);
    if (!before) return false;
    exec::LaunchResult ran;
    try {
      ran = exec::execute(loaded.module, *before, {});
    } catch (const exec::KernelFault& f) {
      err << loaded.diags.file() << ": error: launch '" << buf->launch << "', whose buffer '"
          << buf->buffer << "' launch '" << spec.name << "' starts from, faults:\n";
      write_fault(err, loaded.diags.file(), loaded.module, f);
      return false;
    }
    for (exec::GlobalBuffer& b : ran.memory.buffers) {
      if (b.name == buf->buffer)
        buf->bytes = std::make_shared<const std::vector<std::uint8_t>>(std::move(b.bytes));
    }
  }
  return true;
}

}  // namespace

std::optional<exec::LaunchSpec> resolve_launch(const ir::LoadedModule& loaded,
                                               const LaunchOverrides& o, std::ostream& err) {
  auto launch = pick_launch(loaded.module, o, err);
  if (!launch || !apply_shape(o, *launch, err)) return std::nullopt;
  const ir::Kernel* kernel = loaded.module.find_kernel(launch->kernel);
  for (const std::string& text : o.args) {
    auto arg = parse_arg(*kernel, text, o.command, err);
    if (!arg) return std::nullopt;
    std::erase_if(launch->args, [&](const ir::LaunchArg& a) { return a.name == arg->name; });
    launch->args.push_back(std::move(*arg));
  }
  ir::Diagnostics diags(loaded.diags.file(), loaded.diags.source());
  if (!ir::verify_launch(loaded.module, *launch, diags)) {
    diags.render(err);
    return std::nullopt;
  }
  exec::LaunchSpec spec;
  spec.kernel = kernel;
  spec.globals = loaded.module.globals;
  spec.constants = loaded.module.constants;
  spec.grid = launch->grid;
  spec.block = launch->block;
  spec.cluster = launch->cluster;
  spec.dynamic_smem = launch->dynamic_smem;
  spec.name = launch->name;
  for (const ir::LaunchArg& a : launch->args) spec.args[a.name] = a.value;
  if (!run_earlier_launches(loaded, o, spec, err)) return std::nullopt;
  return spec;
}

std::optional<bool> parse_cache_control(const std::string& value, const std::string& command,
                                        std::ostream& err) {
  if (value == "all") return true;
  if (value == "none") return false;
  err << "warpsim " << command << ": error: --cache-control must be all or none, not '" << value
      << "'\n";
  return std::nullopt;
}

}  // namespace warpsim::cli

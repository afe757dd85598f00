#include "tools/warpsim/launch_options.hpp"

#include <charconv>
#include <ostream>

#include "sim/core/ir/parser.hpp"
#include "sim/core/ir/verifier.hpp"

namespace warpsim::cli {
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

// Reads `name=value` with the launch-block grammar by parsing a one-argument launch.
std::optional<ir::LaunchArg> parse_arg(const std::string& kernel, const std::string& text,
                                       std::ostream& err) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    err << "warpsim run: error: --arg '" << text << "' is not name=value\n";
    return std::nullopt;
  }
  const std::string source = "launch " + kernel + " grid(1) block(1) {\n" + text.substr(0, eq) +
                             " = " + text.substr(eq + 1) + "\n}\n";
  ir::Diagnostics diags("--arg " + text, source);
  const ir::Module m = ir::parse(source, diags);
  if (diags.has_errors() || m.launches.size() != 1 || m.launches[0].args.size() != 1) {
    diags.render(err);
    return std::nullopt;
  }
  return m.launches[0].args[0];
}

std::optional<ir::Launch> pick_launch(const ir::Module& m, const LaunchOverrides& o,
                                      std::ostream& err) {
  if (m.launches.empty()) {
    if (m.kernels.size() != 1 || o.grid.empty() || o.block.empty()) {
      err << "warpsim run: error: the file has no launch block; give --grid, --block and --arg "
             "for each parameter"
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
  err << "warpsim run: error: no launch named '" << o.launch_name << "' (the file has: " << names
      << ")\n";
  return std::nullopt;
}

}  // namespace

std::optional<exec::LaunchSpec> resolve_launch(const ir::LoadedModule& loaded,
                                               const LaunchOverrides& o, std::ostream& err) {
  auto launch = pick_launch(loaded.module, o, err);
  if (!launch) return std::nullopt;
  for (const auto& [text, dims] : {std::pair{o.grid, &launch->grid}, {o.block, &launch->block}}) {
    if (text.empty()) continue;
    const auto parsed = parse_dim3(text);
    if (!parsed) {
      err << "warpsim run: error: '" << text
          << "' is not a shape: x[,y[,z]] with positive "
             "integers\n";
      return std::nullopt;
    }
    *dims = *parsed;
  }
  for (const std::string& text : o.args) {
    auto arg = parse_arg(launch->kernel, text, err);
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
  spec.kernel = loaded.module.find_kernel(launch->kernel);
  spec.grid = launch->grid;
  spec.block = launch->block;
  spec.cluster = launch->cluster;
  spec.dynamic_smem = launch->dynamic_smem;
  spec.name = launch->name;
  for (const ir::LaunchArg& a : launch->args) spec.args[a.name] = a.value;
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

#include "tools/warpsim/config_options.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace warpsim::cli {

std::optional<config::GpuConfig> load_gpu_config(const std::string& name_or_path,
                                                 const std::vector<std::string>& sets,
                                                 std::ostream& err) {
  std::string file = name_or_path, text;
  std::error_code ec;
  if (std::filesystem::is_regular_file(name_or_path, ec)) {
    std::ifstream in(name_or_path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  } else if (std::filesystem::is_directory(name_or_path, ec)) {
    err << "warpsim: error: config '" << name_or_path
        << "' is a directory; give an INI file or a built-in config name\n";
    return std::nullopt;
  } else {
    const EmbeddedConfig* found = nullptr;
    std::string names;
    for (const EmbeddedConfig& c : embedded_configs()) {
      if (c.name == name_or_path) found = &c;
      names += (names.empty() ? "" : ", ") + std::string(c.name);
    }
    if (found == nullptr) {
      err << "warpsim: error: no config file '" << name_or_path << "' and no built-in config of "
          << "that name (built in: " << names << ")\n";
      return std::nullopt;
    }
    file = "configs/" + std::string(found->name) + ".ini";
    text = std::string(found->text);
  }
  auto loaded = config::load_config(file, text, sets);
  if (auto* errors = std::get_if<std::vector<config::ConfigError>>(&loaded)) {
    for (const config::ConfigError& e : *errors) err << e.message << '\n';
    return std::nullopt;
  }
  return std::get<config::GpuConfig>(std::move(loaded));
}

bool timing_config_ok(const config::GpuConfig& gpu, const std::string& command, std::ostream& err) {
  if (gpu.l2_bytes != 0) return true;
  err << "warpsim " << command << ": error: the config (" << gpu.source
      << ") gives no gpu.l2_bytes, which the timing model needs; add it or --set "
         "gpu.l2_bytes=BYTES\n";
  return false;
}

}  // namespace warpsim::cli

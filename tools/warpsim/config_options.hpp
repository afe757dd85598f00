// --config NAME|FILE and --set section.key=value, shared by every command that needs a GPU.
// A NAME is one of the configs built in from configs/ (h200, a100, rtx3090, ...); anything
// else is read as a file.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/gpu_config.hpp"

namespace warpsim::cli {

struct EmbeddedConfig {
  std::string_view name;
  std::string_view text;
};
const std::vector<EmbeddedConfig>& embedded_configs();

inline constexpr const char* kDefaultConfig = "h200";

// Whether `gpu` describes what the timing model needs (its L2 size); says why not to `err`.
bool timing_config_ok(const config::GpuConfig& gpu, const std::string& command, std::ostream& err);

// The config, or nothing after printing every error to `err`.
std::optional<config::GpuConfig> load_gpu_config(const std::string& name_or_path,
                                                 const std::vector<std::string>& sets,
                                                 std::ostream& err);

}  // namespace warpsim::cli

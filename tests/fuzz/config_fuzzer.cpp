// libFuzzer target: any bytes as a GPU config (INI text), the part after a NUL byte as one
// --set override. What must hold: no crash, no sanitizer report, no hang; a config that loads
// names every declared key once.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>

#include "sim/config/config_keys.hpp"
#include "sim/config/gpu_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const auto nul = bytes.find('\0');
  const std::string text = bytes.substr(0, nul);
  std::vector<std::string> sets;
  if (nul != std::string::npos) sets.push_back(bytes.substr(nul + 1));
  const auto loaded = warpsim::config::load_config("fuzz.ini", text, sets);
  if (const auto* config = std::get_if<warpsim::config::GpuConfig>(&loaded)) {
    if (config->entries.size() != warpsim::config::config_keys().size()) std::abort();
  }
  return 0;
}

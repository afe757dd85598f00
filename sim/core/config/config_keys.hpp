// The declared keys of a GPU config: the single list load_config reads, checks and shows.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/config/gpu_config.hpp"

namespace warpsim::config {

// Choice: one of the words listed, comma-separated, in `unit`.
enum class KeyType : std::uint8_t { Integer, Text, CapabilityVersion, KilobyteList, Choice };

struct KeySpec {
  std::string_view key;  // section.name
  KeyType type;
  std::string_view unit;
  std::optional<std::string_view> default_value;  // nothing: required
  std::string_view description;
  std::uint64_t min = 0;  // integers: the accepted range
  std::uint64_t max = UINT64_MAX;
};

const std::vector<KeySpec>& config_keys();

// The timing model's keys (part of config_keys()), each stored in one TimingConfig field.
struct TimingKey {
  KeySpec spec;
  std::uint64_t TimingConfig::*field;  // null for timing.scheduler
};
const std::vector<TimingKey>& timing_keys();

// Stores the checked value of `spec` into `config`.
void assign(GpuConfig& config, const KeySpec& spec, std::uint64_t integer, const std::string& text,
            const std::vector<std::uint64_t>& list);

}  // namespace warpsim::config

// The declared keys of a GPU config: the single list load_config reads, checks and shows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/config/gpu_config.hpp"

namespace warpsim::config {

// Choice: one of the words listed, comma-separated, in `unit`.
enum class KeyType : std::uint8_t { Integer, Text, CapabilityVersion, KilobyteList, Choice };

// A key's checked value, as its type gives it.
struct KeyValue {
  std::uint64_t integer = 0;        // Integer; CapabilityVersion as major * 10 + minor
  std::string text;                 // the value as written
  std::vector<std::uint64_t> list;  // KilobyteList, in bytes
  std::size_t choice = 0;           // Choice: the word's position in the list
};

// Where a key's value goes: an integer field of the config, or of its timing part, or a
// function for the others.
using KeyStore = void (*)(GpuConfig&, const KeyValue&);
using KeyTarget = std::variant<std::uint64_t GpuConfig::*, std::uint64_t TimingConfig::*, KeyStore>;

struct KeySpec {
  std::string_view key;  // section.name
  KeyType type;
  std::string_view unit;
  std::optional<std::string_view> default_value;  // nothing: required
  std::string_view description;
  KeyTarget target;
  std::uint64_t min = 0;  // integers: the accepted range
  std::uint64_t max = UINT64_MAX;
};

// Every key, the timing model's included.
const std::vector<KeySpec>& config_keys();
// The timing model's keys ([timing] and [memory]).
const std::vector<KeySpec>& timing_keys();
// The SASS frontend's own values ([sass]).
const std::vector<KeySpec>& sass_timing_keys();

// Stores the checked value of `spec` into `config`.
void assign(GpuConfig& config, const KeySpec& spec, const KeyValue& value);

}  // namespace warpsim::config

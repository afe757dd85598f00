// A GPU description, read from an INI file (configs/*.ini) with Boost.Program_options.
//
// Every key is declared once, in config_keys.cpp, with its type, unit, default (or "required")
// and a one-line description. Loading rejects, naming the file and line: an unknown key, a
// key given twice, a line that is not `key = value`, `[section]` or a comment, a value of the
// wrong type or outside its range; and a missing required key, naming the file. Overrides
// (`--set section.key=value`) are checked the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace warpsim::config {

struct GpuConfig {
  // [gpu]
  std::string name;
  std::uint32_t cc_major = 0, cc_minor = 0;
  std::uint64_t sm_count = 0;
  std::uint64_t clock_mhz = 0;  // 0: not given
  std::uint64_t l2_bytes = 0;   // 0: not given
  // [sm]
  std::uint64_t max_threads_per_sm = 0;
  std::uint64_t max_blocks_per_sm = 0;
  std::uint64_t registers_per_sm = 0;
  std::uint64_t max_registers_per_thread = 0;
  std::uint64_t max_registers_per_block = 0;
  std::uint64_t register_allocation_unit = 0;
  std::uint64_t sub_partitions = 0;
  std::uint64_t fp32_cores_per_sm = 0;
  std::uint64_t shared_memory_per_sm = 0;
  std::uint64_t shared_memory_per_block = 0;
  std::uint64_t shared_memory_per_block_optin = 0;
  std::uint64_t reserved_shared_memory_per_block = 0;
  std::uint64_t shared_memory_allocation_unit = 0;
  std::vector<std::uint64_t> shared_memory_carveouts;  // bytes, ascending; empty: any size
  // [block]
  std::uint64_t max_threads_per_block = 0;

  std::uint64_t max_warps_per_sm() const { return max_threads_per_sm / 32; }

  // Every key with its effective value as text, in declaration order (for show and JSON).
  struct Entry {
    std::string key, value, unit, description, origin;  // origin: file line, default, --set
  };
  std::vector<Entry> entries;
  std::string source;  // the file, or the built-in name
};

struct ConfigError {
  std::string message;  // "file:line: error: ..." or "file: error: ..."
};

// Parses `text` (from `file`, for messages) and applies `overrides` ("section.key=value").
// Returns the config or every error found.
std::variant<GpuConfig, std::vector<ConfigError>> load_config(
    const std::string& file, const std::string& text, const std::vector<std::string>& overrides);

}  // namespace warpsim::config

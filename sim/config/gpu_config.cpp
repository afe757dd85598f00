#include "sim/config/gpu_config.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <map>
#include <sstream>

#include "sim/config/config_keys.hpp"
#include "sim/core/edit_distance.hpp"
#include "sim/core/gpu_constants.hpp"

namespace warpsim::config {
namespace {

namespace po = boost::program_options;

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

struct Located {
  std::string value;
  std::string origin;  // "file:line" or "--set"
};

class Loader {
 public:
  // A UTF-8 byte-order mark, as some editors write, is no part of the text.
  Loader(const std::string& file, const std::string& text)
      : file_(file), text_(text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text) {}

  std::variant<GpuConfig, std::vector<ConfigError>> run(const std::vector<std::string>& sets) {
    scan_lines();
    read_with_boost();
    for (const std::string& s : sets) apply_override(s);
    // Converting after an error would report keys the broken lines hid as missing.
    if (!errors_.empty()) return errors_;
    GpuConfig config;
    config.source = file_;
    for (const KeySpec& spec : config_keys()) convert(spec, config);
    if (errors_.empty()) check_consistency(config);
    if (!errors_.empty()) return errors_;
    return config;
  }

 private:
  // Finds the line of every key (Boost's parser does not say) and reports lines that are no
  // key, section or comment, keys outside a section, unknown keys and keys given twice.
  void scan_lines() {
    std::istringstream in(text_);
    std::string line, section;
    for (unsigned n = 1; std::getline(in, line); ++n) {
      const std::string body = trim(line.substr(0, line.find_first_of("#;")));
      if (body.empty()) continue;
      if (body.front() == '[') {
        if (body.back() != ']' || body.size() < 3) {
          error(n, "malformed section header '" + body + "'");
        } else {
          section = body.substr(1, body.size() - 2);
        }
        continue;
      }
      const auto eq = body.find('=');
      if (eq == std::string::npos || trim(body.substr(0, eq)).empty()) {
        error(n, "expected 'key = value', '[section]' or a comment, found '" + body + "'");
        continue;
      }
      if (section.empty()) {
        error(n, "key '" + trim(body.substr(0, eq)) + "' is outside any [section]");
        continue;
      }
      const std::string key = section + "." + trim(body.substr(0, eq));
      if (find_spec(key) == nullptr) {
        error(n, "unknown key '" + key + "'" + suggestion(key));
      } else if (!line_of_.emplace(key, n).second) {
        error(n, "key '" + key + "' is given twice (first on line " +
                     std::to_string(line_of_[key]) + ")");
      }
    }
  }

  void read_with_boost() {
    if (!errors_.empty()) return;  // the scan has found what Boost would reject, with lines
    po::options_description desc;
    for (const KeySpec& spec : config_keys()) {
      desc.add_options()(std::string(spec.key).c_str(), po::value<std::string>());
    }
    std::istringstream in(text_);
    po::variables_map vm;
    try {
      po::store(po::parse_config_file(in, desc, false), vm);
    } catch (const po::error& e) {
      errors_.push_back({file_ + ": error: " + e.what()});
      return;
    }
    for (const auto& [key, value] : vm) {
      values_[key] = {trim(value.as<std::string>()), file_ + ":" + std::to_string(line_of_[key])};
    }
  }

  void apply_override(const std::string& set) {
    const auto eq = set.find('=');
    const std::string key = trim(set.substr(0, eq));
    if (eq == std::string::npos || find_spec(key) == nullptr) {
      errors_.push_back({"--set " + set +
                         ": error: expected section.key=value with a declared "
                         "key" +
                         (eq == std::string::npos ? "" : suggestion(key))});
      return;
    }
    values_[key] = {trim(set.substr(eq + 1)), "--set " + trim(set)};
  }

  void convert(const KeySpec& spec, GpuConfig& config) {
    const std::string key(spec.key);
    auto it = values_.find(key);
    Located v;
    if (it != values_.end()) {
      v = it->second;
    } else if (spec.default_value) {
      v = {std::string(*spec.default_value), "default"};
    } else {
      errors_.push_back({file_ + ": error: missing required key '" + key + "' (" +
                         std::string(spec.description) + ")"});
      return;
    }
    KeyValue value;
    value.text = v.value;
    if (!parse_value(spec, v, value)) return;
    assign(config, spec, value);
    config.entries.push_back(
        {key, v.value, std::string(spec.unit), std::string(spec.description), v.origin});
  }

  bool parse_value(const KeySpec& spec, const Located& v, KeyValue& out) {
    std::uint64_t& number = out.integer;
    std::vector<std::uint64_t>& list = out.list;
    const std::string key(spec.key);
    auto bad = [&](const std::string& why) {
      errors_.push_back({v.origin + ": error: " + key + " = '" + v.value + "': " + why});
      return false;
    };
    switch (spec.type) {
      case KeyType::Text:
        return v.value.empty() ? bad("expected a value") : true;
      case KeyType::Choice: {
        std::istringstream words{std::string(spec.unit)};
        std::size_t position = 0;
        for (std::string word; std::getline(words, word, ','); ++position) {
          if (trim(word) == v.value) {
            out.choice = position;
            return true;
          }
        }
        return bad("expected one of: " + std::string(spec.unit));
      }
      case KeyType::CapabilityVersion: {
        if (v.value.size() != 3 && v.value.size() != 4)
          return bad("expected major.minor, e.g. 9.0");
        const auto dot = v.value.find('.');
        std::uint64_t major = 0, minor = 0;
        if (dot == std::string::npos || !parse_uint(v.value.substr(0, dot), major) ||
            !parse_uint(v.value.substr(dot + 1), minor) || minor > 9 || major == 0) {
          return bad("expected major.minor, e.g. 9.0");
        }
        number = major * 10 + minor;
        return true;
      }
      case KeyType::KilobyteList: {
        std::istringstream parts(v.value);
        for (std::string part; std::getline(parts, part, ',');) {
          std::uint64_t kb = 0;
          if (!parse_uint(trim(part), kb))
            return bad("expected kilobyte sizes separated by commas");
          if (!list.empty() && kb * 1024 <= list.back()) return bad("sizes must ascend");
          list.push_back(kb * 1024);
        }
        return true;
      }
      case KeyType::Integer:
        if (!v.value.empty() && v.value.front() == '-') return bad("must not be negative");
        if (!parse_uint(v.value, number)) return bad("expected a whole number");
        if (number < spec.min || number > spec.max) {
          return bad("must be between " + std::to_string(spec.min) + " and " +
                     std::to_string(spec.max));
        }
        return true;
    }
    return false;
  }

  static bool parse_uint(const std::string& s, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  }

  // Constraints between keys; each error is reported where the first key named was given.
  void check_consistency(const GpuConfig& c) {
    auto fail = [&](const std::string& key, const std::string& why) {
      const auto it = values_.find(key);
      errors_.push_back({(it == values_.end() ? file_ : it->second.origin) + ": error: " + why});
    };
    const TimingConfig& t = c.timing;
    if (c.max_threads_per_sm % kWarpSize != 0)
      fail("sm.max_threads", "sm.max_threads must be a multiple of 32");
    if (c.shared_memory_per_block > c.shared_memory_per_block_optin) {
      fail("sm.shared_memory_per_block_bytes",
           "sm.shared_memory_per_block_bytes exceeds sm.shared_memory_per_block_optin_bytes");
    }
    if (c.shared_memory_per_block_optin > c.shared_memory_per_sm) {
      fail("sm.shared_memory_per_block_optin_bytes",
           "sm.shared_memory_per_block_optin_bytes exceeds sm.shared_memory_bytes");
    }
    if (t.launch_latency_in_flight > t.block_launch_latency) {
      fail("timing.launch_latency_in_flight",
           "timing.launch_latency_in_flight exceeds timing.block_launch_latency");
    }
    // GPCs hold whole TPCs (pairs of SMs). A default larger than a small GPU's TPC count is
    // clamped by the timing model; a value the user gave is checked.
    const std::uint64_t tpcs = std::max<std::uint64_t>(1, c.sm_count / 2);
    if (t.gpcs > tpcs && values_.contains("timing.gpcs")) {  // the default is clamped
      fail("timing.gpcs", "timing.gpcs = " + std::to_string(t.gpcs) + " is more than the " +
                              std::to_string(tpcs) + " TPCs (pairs of SMs) of gpu.sm_count = " +
                              std::to_string(c.sm_count) + "; a GPC holds at least one TPC");
    }
    // The model takes min(partitions, slices) partitions and splits the slices evenly.
    if (t.l2_slices > t.l2_partitions && t.l2_slices % t.l2_partitions != 0) {
      fail("memory.l2_partitions", "memory.l2_partitions must divide memory.l2_slices (" +
                                       std::to_string(t.l2_slices) + ")");
    }
    if (c.l2_bytes != 0 && c.l2_bytes < t.l2_slices * t.l2_ways * kLineBytes) {
      fail("gpu.l2_bytes",
           "gpu.l2_bytes is smaller than one set of every L2 slice (memory.l2_slices "
           "x memory.l2_ways x 128-byte lines = " +
               std::to_string(t.l2_slices * t.l2_ways * kLineBytes) + " bytes)");
    }
    if (t.l1_bytes != 0 && t.l1_bytes < t.l1_ways * kLineBytes) {
      fail("memory.l1_bytes",
           "memory.l1_bytes is smaller than one set of memory.l1_ways 128-byte "
           "lines");
    }
  }

  static const KeySpec* find_spec(const std::string& key) {
    for (const KeySpec& spec : config_keys()) {
      if (spec.key == key) return &spec;
    }
    return nullptr;
  }

  // " (did you mean 'sm.max_threads'?)" for a key one or two edits from a declared one.
  static std::string suggestion(const std::string& key) {
    for (const KeySpec& spec : config_keys()) {
      if (edit_distance(key, spec.key) <= 2)
        return " (did you mean '" + std::string(spec.key) + "'?)";
    }
    return "";
  }

  void error(unsigned line, const std::string& message) {
    errors_.push_back({file_ + ":" + std::to_string(line) + ": error: " + message});
  }

  const std::string& file_;
  const std::string text_;
  std::map<std::string, unsigned> line_of_;
  std::map<std::string, Located> values_;
  std::vector<ConfigError> errors_;
};

}  // namespace

std::variant<GpuConfig, std::vector<ConfigError>> load_config(
    const std::string& file, const std::string& text, const std::vector<std::string>& overrides) {
  return Loader(file, text).run(overrides);
}

}  // namespace warpsim::config

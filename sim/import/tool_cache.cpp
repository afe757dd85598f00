#include "sim/import/tool_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

namespace warpsim::toolkit {
namespace {

namespace fs = std::filesystem;

// FNV-1a, 64 bits: names the entry's folder (the key itself is compared on every hit).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

fs::path entry_of(const fs::path& dir, const std::string& key) {
  std::ostringstream name;
  name << std::hex << fnv1a(key);
  return dir / name.str();
}

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return text;
}

bool write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

}  // namespace

std::optional<fs::path> tool_cache_directory() {
  const std::string chosen = environment("WARPSIM_CACHE_DIR");
  if (chosen == "off") return std::nullopt;
  if (!chosen.empty()) return fs::path(chosen) / "tools";
  if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty())
    return fs::path(xdg) / "warpsim" / "tools";
  if (const std::string home = environment("HOME"); !home.empty())
    return fs::path(home) / ".cache" / "warpsim" / "tools";
  return std::nullopt;
}

std::string program_identity(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto written = fs::last_write_time(path, ec);
  std::ostringstream id;
  id << path << ' ' << (ec ? 0 : size) << ' ' << (ec ? 0 : written.time_since_epoch().count());
  return id.str();
}

std::optional<std::vector<std::string>> cached_outputs(const fs::path& dir,
                                                       const std::string& key) {
  const fs::path entry = entry_of(dir, key);
  const auto stored_key = read_file(entry / "key");
  if (!stored_key || *stored_key != key) return std::nullopt;
  const auto count_text = read_file(entry / "count");
  if (!count_text) return std::nullopt;
  std::size_t count = 0;
  std::istringstream(*count_text) >> count;
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < count; ++i) {
    auto text = read_file(entry / std::to_string(i));
    if (!text) return std::nullopt;
    outputs.push_back(std::move(*text));
  }
  return outputs;
}

void store_outputs(const fs::path& dir, const std::string& key,
                   const std::vector<std::string>& outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  // Written in a folder of this process's own, then renamed into place in one step; when
  // another process stored the entry first, its copy stays and this one is dropped.
  const fs::path entry = entry_of(dir, key);
  const fs::path scratch = entry.string() + ".partial-" + std::to_string(getpid()) + "-" +
                           std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  fs::remove_all(scratch, ec);
  if (!fs::create_directory(scratch, ec)) return;
  bool written = write_file(scratch / "key", key) &&
                 write_file(scratch / "count", std::to_string(outputs.size()));
  for (std::size_t i = 0; written && i < outputs.size(); ++i)
    written = write_file(scratch / std::to_string(i), outputs[i]);
  if (written) fs::rename(scratch, entry, ec);
  if (!written || ec) fs::remove_all(scratch, ec);
}

std::optional<std::vector<std::string>> cached_run(const std::string& key, std::size_t count) {
  const auto dir = tool_cache_directory();
  if (!dir) return std::nullopt;
  auto hit = cached_outputs(*dir, key);
  if (!hit || hit->size() != count) return std::nullopt;
  return hit;
}

void remember_run(const std::string& key, const std::vector<std::string>& outputs) {
  if (const auto dir = tool_cache_directory()) store_outputs(*dir, key, outputs);
}

}  // namespace warpsim::toolkit

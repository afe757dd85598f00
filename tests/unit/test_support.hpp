// Helpers shared by the tests: paths into the source tree and running the CLI in-process.
#pragma once

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tools/warpsim/cli.hpp"

namespace warpsim::test {

inline std::filesystem::path source_dir() {
  return WARPSIM_SOURCE_DIR;
}

struct CommandResult {
  int exit_code;
  std::string out;
  std::string err;
};

inline CommandResult run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

// Splits one CSV line with quoted fields.
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// The files with `extension` directly in `dir`, sorted so test order is stable.
inline std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir,
                                                   const std::string& extension) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == extension) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace warpsim::test

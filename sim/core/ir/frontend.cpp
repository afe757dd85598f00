#include "sim/core/ir/frontend.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/ir/parser.hpp"
#include "sim/core/ir/verifier.hpp"

namespace warpsim::ir {

LoadedModule load_module_text(std::string display_name, const std::string& source) {
  LoadedModule loaded{Module{}, Diagnostics(std::move(display_name), source)};
  loaded.module = parse(source, loaded.diags);
  if (!loaded.diags.has_errors()) verify(loaded.module, loaded.diags);
  return loaded;
}

LoadedModule load_module_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) {
    LoadedModule failed{Module{}, Diagnostics(path, "")};
    failed.diags.error(SourceLoc{}, "cannot open file (missing, unreadable or not a regular file)");
    return failed;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return load_module_text(path, text.str());
}

}  // namespace warpsim::ir

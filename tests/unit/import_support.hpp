// Importing PTX text in-process for tests, as `warpsim run FILE.ptx` does: translated, printed as
// IR, read back, its launch resolved from overrides.
#pragma once

#include <sstream>
#include <string>

#include "sim/core/ir/printer.hpp"
#include "sim/import/ptx_import.hpp"
#include "tests/unit/run_support.hpp"

namespace warpsim::test {

inline ptx::ImportResult import_text(const std::string& ptx_text,
                                     const ptx::ImportOptions& options = {}) {
  return ptx::import_ptx(ptx_text, options);
}

// The rendered diagnostics of an import that must fail.
inline std::string import_error(const std::string& ptx_text) {
  const ptx::ImportResult r = import_text(ptx_text);
  REQUIRE_FALSE(r.module.has_value());
  std::ostringstream out;
  r.diags.render(out);
  return out.str();
}

inline KernelRun import_kernel(const std::string& ptx_text, const cli::LaunchOverrides& o,
                               const ptx::ImportOptions& options = {}) {
  const ptx::ImportResult r = import_text(ptx_text, options);
  std::ostringstream diags;
  r.diags.render(diags);
  INFO(diags.str());
  REQUIRE(r.module.has_value());
  return resolved(
      {ir::load_module_text("test.ptx (imported IR)", ir::to_string(*r.module)), {}, {}}, o);
}

inline cli::LaunchOverrides launch(const std::string& grid, const std::string& block,
                                   std::vector<std::string> args) {
  cli::LaunchOverrides o;
  o.grid = grid;
  o.block = block;
  o.args = std::move(args);
  return o;
}

}  // namespace warpsim::test

// Read, parse and verify a .kir file in one step, as every command does.
// Contract: never throws for bad input; an unreadable file is an error diagnostic at line 0.
#pragma once

#include <string>

#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

struct LoadedModule {
  Module module;
  Diagnostics diags;
  bool ok() const { return !diags.has_errors(); }
};

LoadedModule load_module_text(std::string display_name, const std::string& source);
LoadedModule load_module_file(const std::string& path);

}  // namespace warpsim::ir

// What the verifier's parts share while checking one kernel. Internal to the verifier.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "sim/core/ir/cfg.hpp"
#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

struct KernelContext {
  const Module& module;
  const Kernel& kernel;
  Diagnostics& diags;
  // The type of each register, from its first definition; std::map keeps iteration ordered.
  std::map<std::string, ScalarType> reg_types;

  const KernelParam* find_param(std::string_view name) const;
  const ArrayDecl* find_array(std::string_view name) const;
};

// Literal `lit` can be an operand of type `type`.
bool literal_fits(const Literal& lit, ScalarType type);

void verify_declarations(const Module& module, Diagnostics& diags);
void verify_launches(const Module& module, Diagnostics& diags);
// Structure of blocks and branch targets; returns false when the CFG cannot be trusted.
bool verify_blocks(KernelContext& ctx);
void verify_instructions(KernelContext& ctx);
void verify_dataflow(KernelContext& ctx, const Cfg& cfg);
void verify_barriers(KernelContext& ctx, const Cfg& cfg);

}  // namespace warpsim::ir

#include "sim/core/ir/verifier.hpp"

#include <cmath>
#include <limits>

#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {

const KernelParam* KernelContext::find_param(std::string_view name) const {
  for (const KernelParam& p : kernel.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const ArrayDecl* KernelContext::find_array(std::string_view name) const {
  for (const ArrayDecl& a : kernel.arrays) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

bool literal_fits(const Literal& lit, ScalarType type) {
  if (const auto* f = std::get_if<FloatLiteral>(&lit)) {
    if (type == ScalarType::F64) return true;
    return type == ScalarType::F32 &&
           (!std::isfinite(f->value) ||
            std::fabs(f->value) <= double{std::numeric_limits<float>::max()});
  }
  const auto& i = std::get<IntLiteral>(lit);
  if (is_float(type)) return true;
  if (type == ScalarType::Pred) return !i.negative && i.magnitude <= 1;
  const unsigned bits = size_bytes(type) * 8;
  if (i.negative) return i.magnitude <= (std::uint64_t{1} << (bits - 1));
  return bits == 64 || i.magnitude <= (std::uint64_t{1} << bits) - 1;
}

bool verify(const Module& module, Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  verify_declarations(module, diags);
  for (const Kernel& kernel : module.kernels) {
    KernelContext ctx{module, kernel, diags, {}};
    const bool cfg_ok = verify_blocks(ctx);
    verify_instructions(ctx);
    if (!cfg_ok) continue;
    const Cfg cfg = build_cfg(kernel);
    verify_dataflow(ctx, cfg);
    verify_barriers(ctx, cfg);
  }
  verify_launches(module, diags);
  return diags.error_count() == errors_before;
}

}  // namespace warpsim::ir

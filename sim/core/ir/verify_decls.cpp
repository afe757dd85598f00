// Module-level names, kernel parameters and array declarations.
#include <limits>
#include <set>
#include <string>

#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {
namespace {

constexpr std::uint64_t kConstantBankBytes = std::uint64_t{64} * 1024;
constexpr std::uint64_t kLocalBytesPerThread = std::uint64_t{512} * 1024;
constexpr std::uint64_t kMaxRegsPerThread = 255;
constexpr std::uint64_t kMaxBlockThreads = 1024;
constexpr std::size_t kMaxArrayDims = 8;  // the executor's limit

// Element count of a static array, or nullopt if it overflows 64 bits.
std::optional<std::uint64_t> element_count(const ArrayDecl& a) {
  std::uint64_t n = 1;
  for (std::uint64_t d : a.dims) {
    if (d != 0 && n > std::numeric_limits<std::uint64_t>::max() / d) return std::nullopt;
    n *= d;
  }
  return n;
}

// Checks one array; returns its size in bytes (0 if unknown or dynamic).
std::uint64_t verify_array(const ArrayDecl& a, Diagnostics& diags) {
  const std::string what = "array '" + a.name + "'";
  if (a.element == ScalarType::Pred) {
    diags.error(a.loc, what + " cannot hold predicates; use u32 or s32");
    return 0;
  }
  if (a.is_dynamic) {
    if (a.space != Space::Shared) {
      diags.error(a.loc, what + ": only shared arrays can be dynamic ('[]')");
    } else if (!a.dims.empty()) {
      diags.error(a.loc, what + ": a dynamic array has exactly one dimension, '[]'");
    }
    return 0;
  }
  if (a.dims.size() > kMaxArrayDims) {
    diags.error(a.loc, what + " has " + std::to_string(a.dims.size()) +
                           " dimensions; at most 8 are supported");
    return 0;
  }
  for (std::uint64_t d : a.dims) {
    if (d == 0) {
      diags.error(a.loc, what + ": every dimension must be at least 1");
      return 0;
    }
  }
  const auto count = element_count(a);
  if (!count || *count > (std::uint64_t{1} << 40)) {
    diags.error(a.loc, what + " is too large");
    return 0;
  }
  if (a.init.size() > *count) {
    diags.error(a.loc, what + " has " + std::to_string(*count) + " elements but " +
                           std::to_string(a.init.size()) + " initial values");
  }
  for (const Literal& v : a.init) {
    if (!literal_fits(v, a.element)) {
      diags.error(a.loc, what + ": initial value " + to_string(v) + " does not fit " +
                             std::string(name(a.element)));
      break;
    }
  }
  return *count * size_bytes(a.element);
}

void verify_kernel_decls(const Module& module, const Kernel& k, Diagnostics& diags) {
  std::set<std::string> names;
  for (const KernelParam& p : k.params) {
    if (!names.insert(p.name).second) {
      diags.error(p.loc, "duplicate parameter '" + p.name + "' in kernel '" + k.name + "'");
    }
    if (module.find_global(p.name) != nullptr) {
      diags.error(p.loc, "parameter '" + p.name + "' of kernel '" + k.name +
                             "' has the name of a module global variable");
    }
    if (p.is_pointer && p.type == ScalarType::Pred) {
      diags.error(p.loc, "parameter '" + p.name + "' cannot point to predicates");
    }
  }
  unsigned dynamic_arrays = 0;
  for (const ArrayDecl& a : k.arrays) {
    if (!names.insert(a.name).second || module.find_constant(a.name) != nullptr ||
        module.find_global(a.name) != nullptr) {
      diags.error(a.loc, "duplicate name '" + a.name + "' in kernel '" + k.name +
                             "' (already a parameter, array, module constant or global)");
    }
    const std::uint64_t bytes = verify_array(a, diags);
    if (a.space == Space::Local && bytes > kLocalBytesPerThread) {
      diags.error(a.loc, "local array '" + a.name +
                             "' exceeds the 512 KB of local memory a "
                             "thread may use");
    }
    if (a.is_dynamic && ++dynamic_arrays == 2) {
      diags.error(a.loc, "kernel '" + k.name +
                             "' declares a second dynamic shared array; a "
                             "kernel has at most one (partition it by hand)");
    }
  }
  if (k.regs && (*k.regs == 0 || *k.regs > kMaxRegsPerThread)) {
    diags.error(k.loc, "regs(" + std::to_string(*k.regs) + "): a thread uses 1 to 255 registers");
  }
  // ptxas needs a few registers for any kernel (PTX's .maxnreg is at least 1; ptxas raises
  // a cap below its minimum and says so), and at most 255.
  if (k.max_regs && (*k.max_regs == 0 || *k.max_regs > kMaxRegsPerThread)) {
    diags.error(k.loc, "max_regs(" + std::to_string(*k.max_regs) +
                           "): a cap of 1 to 255 registers a thread");
  }
  if (k.cluster_dims && (k.cluster_dims->count() == 0 || k.cluster_dims->count() > 8)) {
    diags.error(k.loc, "cluster_dims: a cluster has 1 to 8 blocks (the portable limit)");
  }
  if (k.launch_bounds &&
      (k.launch_bounds->max_threads == 0 || k.launch_bounds->max_threads > kMaxBlockThreads)) {
    diags.error(k.loc, "launch_bounds(" + std::to_string(k.launch_bounds->max_threads) +
                           "): a block has 1 to 1024 threads");
  }
}

}  // namespace

void verify_declarations(const Module& module, Diagnostics& diags) {
  if (module.kernels.empty()) diags.error(SourceLoc{1, 1}, "the file defines no kernel");
  std::set<std::string> kernels;
  for (const Kernel& k : module.kernels) {
    if (!kernels.insert(k.name).second) diags.error(k.loc, "duplicate kernel '" + k.name + "'");
    verify_kernel_decls(module, k, diags);
  }
  std::set<std::string> constants;
  std::uint64_t constant_bytes = 0;
  for (const ArrayDecl& c : module.constants) {
    if (!constants.insert(c.name).second) {
      diags.error(c.loc, "duplicate constant '" + c.name + "'");
    }
    if (c.is_dynamic) {
      diags.error(c.loc, "constant '" + c.name + "' needs a size");
      continue;
    }
    constant_bytes += verify_array(c, diags);
    if (constant_bytes > kConstantBankBytes) {
      diags.error(c.loc, "constants exceed the 64 KB constant bank");
      constant_bytes = 0;
    }
  }
  std::set<std::string> globals;
  for (const ArrayDecl& g : module.globals) {
    if (!globals.insert(g.name).second || constants.contains(g.name)) {
      diags.error(g.loc, "duplicate module name '" + g.name + "' (already a constant or global)");
    }
    if (g.is_dynamic) {
      diags.error(g.loc, "global '" + g.name + "' needs a size");
      continue;
    }
    verify_array(g, diags);
  }
}

}  // namespace warpsim::ir

#include "tools/warpsim/module_values.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <string>

#include "sim/core/exec/global_memory.hpp"

namespace warpsim::cli {
namespace {

ir::ArrayDecl* module_variable(ir::Module& module, const std::string& name) {
  for (ir::ArrayDecl& c : module.constants) {
    if (c.name == name) return &c;
  }
  for (ir::ArrayDecl& g : module.globals) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::uint64_t element_count(const ir::ArrayDecl& v) {
  std::uint64_t n = 1;
  for (const std::uint64_t d : v.dims) n *= d;
  return n;
}

// `bytes` as the variable's elements (little-endian, as the GPU's), zeros past them.
std::vector<ir::Literal> as_literals(const std::vector<std::uint8_t>& bytes, ir::ScalarType t) {
  const unsigned size = ir::size_bytes(t);
  std::vector<ir::Literal> out;
  for (std::size_t at = 0; at + size <= bytes.size(); at += size) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes.data() + at, size);
    if (t == ir::ScalarType::F32) {
      out.emplace_back(ir::FloatLiteral{std::bit_cast<float>(static_cast<std::uint32_t>(bits))});
    } else if (t == ir::ScalarType::F64) {
      out.emplace_back(ir::FloatLiteral{std::bit_cast<double>(bits)});
    } else {
      out.emplace_back(ir::IntLiteral{bits, false});
    }
  }
  return out;
}

}  // namespace

void apply_module_values(ir::Module& module, std::vector<ir::Launch>& launches,
                         ir::Diagnostics& diags) {
  std::map<std::string, std::vector<std::uint8_t>> given;  // by variable: the bytes given
  for (ir::Launch& l : launches) {
    const ir::Kernel* kernel = module.find_kernel(l.kernel);
    std::erase_if(l.args, [&](const ir::LaunchArg& a) {
      if (kernel != nullptr && std::ranges::any_of(kernel->params, [&](const ir::KernelParam& p) {
            return p.name == a.name;
          }))
        return false;
      ir::ArrayDecl* v = module_variable(module, a.name);
      const auto* spec = std::get_if<ir::BufferSpec>(&a.value);
      if (v == nullptr || spec == nullptr) return false;  // the verifier names it
      if (spec->init == ir::BufferInit::Result) {
        diags.error(a.loc, "a module variable's value cannot be another launch's result");
        return true;
      }
      const std::uint64_t capacity = element_count(*v) * ir::size_bytes(v->element);
      const std::uint64_t bytes = spec->count * ir::storage_bytes(spec->type());
      if (bytes > capacity) {
        diags.error(a.loc, "'" + a.name + "' holds " + std::to_string(capacity) +
                               " bytes; the value gives " + std::to_string(bytes));
        return true;
      }
      exec::GlobalBuffer b;
      b.name = a.name;
      b.element = spec->element;
      b.storage = spec->storage;
      b.bytes.assign(bytes, 0);
      exec::fill_buffer(b, *spec);
      b.bytes.resize(capacity, 0);
      const auto [at, fresh] = given.emplace(a.name, b.bytes);
      if (!fresh && at->second != b.bytes) {
        diags.error(a.loc, "'" + a.name +
                               "' is given another value by an earlier launch; the module holds "
                               "one (give each value in a launch file of its own)");
        return true;
      }
      v->init = as_literals(b.bytes, v->element);
      v->filled_by_launch = true;
      return true;
    });
  }
}

}  // namespace warpsim::cli

// Module and kernel frames: parameters, registers, arrays, the prologue, value and address
// operands. Instructions are in ptx_instructions.cpp.
#include <fmt/format.h>

#include <bit>

#include "cuda_backend/ptx.hpp"
#include "cuda_backend/ptx_emitter.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/exec/values.hpp"
#include "sim/core/ir/typing.hpp"

namespace warpsim::cuda {
namespace {

// 90 for "sm_90" or "sm_90a"; 0 where the text names no number.
unsigned target_number(const std::string& target) {
  unsigned n = 0;
  for (std::size_t i = target.find('_') + 1; i < target.size() && i != 0; ++i) {
    if (target[i] < '0' || target[i] > '9') break;
    n = n * 10 + static_cast<unsigned>(target[i] - '0');
  }
  return n;
}

// The oldest PTX ISA version that has `sm` as a target (the PTX ISA's release notes): 8.0 up to
// sm_90, which keeps the text the same for every older target; 8.6 for sm_100 and sm_101, 8.7
// for sm_120, 8.8 for sm_103 and sm_121, 9.0 beyond.
const char* ptx_version_for(unsigned sm) {
  if (sm <= 90) return "8.0";
  if (sm == 100 || sm == 101) return "8.6";
  if (sm == 120) return "8.7";
  if (sm == 103 || sm == 121) return "8.8";
  return "9.0";
}

std::uint64_t element_count(const std::vector<std::uint64_t>& dims) {
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) n *= d;
  return n;
}

std::string special_name(ir::SpecialReg r) {
  std::string s(ir::name(r));
  for (char& c : s) c = c == '.' ? '_' : c;
  return "%s_" + s;
}

// Module-scope name of a kernel's shared or local array.
std::string array_symbol(const ir::Kernel& k, const std::string& array) {
  return k.name + "__" + array;
}

}  // namespace

std::string ptx_type(ir::ScalarType t) {
  return "." + std::string(ir::name(t));
}

std::string ptx_bits(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::Pred:
      return ".pred";
    case ir::ScalarType::F32:
      return ".f32";
    case ir::ScalarType::F64:
      return ".f64";
    default:
      return ir::size_bytes(t) == 8 ? ".b64" : ".b32";
  }
}

std::string float_literal(double v, ir::ScalarType t) {
  if (t == ir::ScalarType::F32) {
    return fmt::format("0f{:08X}", std::bit_cast<std::uint32_t>(static_cast<float>(v)));
  }
  return fmt::format("0d{:016X}", std::bit_cast<std::uint64_t>(v));
}

KernelEmitter::KernelEmitter(const ir::Module& module, const ir::Kernel& kernel, bool clusters)
    : clusters_(clusters), module_(module), kernel_(kernel) {
  for (const ir::BasicBlock& b : kernel.blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      for (const ir::RegDef& d : inst.dests) reg_types_.emplace(d.name, ir::result_type(inst));
    }
  }
}

std::string KernelEmitter::temp(const char* type) {
  std::string name = fmt::format("%t{}", temps_.size());
  temps_.emplace_back(name, type);
  return name;
}

void KernelEmitter::declare_registers() {
  for (const ir::ArrayDecl& a : kernel_.arrays) {
    if (a.space != ir::Space::Local) continue;
    decls_ << "  .local .align 16 .b8 " << array_symbol(kernel_, a.name) << '['
           << element_count(a.dims) * ir::size_bytes(a.element) << "];\n";
  }
  for (const auto& [name, type] : reg_types_) {
    decls_ << "  .reg " << ptx_bits(type) << ' ' << reg(name) << ";\n";
  }
  for (unsigned i = 0; i < ir::kSpecialRegCount; ++i) {
    decls_ << "  .reg .b32 " << special_name(static_cast<ir::SpecialReg>(i)) << ";\n";
  }
}

void KernelEmitter::prologue() {
  raw("  // parameters, special registers and array bases");
  for (const ir::KernelParam& p : kernel_.params) {
    const std::string param = kernel_.name + "_param_" + p.name;
    const std::string r = "%p_" + p.name;
    if (p.is_pointer) {
      decls_ << "  .reg .b64 " << r << ";\n";
      const std::string raw_ptr = temp(".b64");
      line("ld.param.u64 " + raw_ptr + ", [" + param + "]");
      line("cvta.to.global.u64 " + r + ", " + raw_ptr);
    } else if (p.type == ir::ScalarType::Pred) {
      decls_ << "  .reg .pred " << r << ";\n";
      const std::string word = temp(".b32");
      line("ld.param.u32 " + word + ", [" + param + "]");
      line("setp.ne.u32 " + r + ", " + word + ", 0");
    } else {
      decls_ << "  .reg " << ptx_bits(p.type) << ' ' << r << ";\n";
      line("ld.param" + ptx_type(p.type) + ' ' + r + ", [" + param + "]");
    }
    params_[p.name] = r;
  }
  const char* sources[] = {"%tid.x",    "%tid.y",    "%tid.z",   "%ntid.x",  "%ntid.y",
                           "%ntid.z",   "%ctaid.x",  "%ctaid.y", "%ctaid.z", "%nctaid.x",
                           "%nctaid.y", "%nctaid.z", "%laneid"};
  for (unsigned i = 0; i < 13; ++i) {
    line("mov.u32 " + special_name(static_cast<ir::SpecialReg>(i)) + ", " + sources[i]);
  }
  // %warpid is the warp's index in its block (not PTX's hardware warp slot).
  const std::string linear = temp(".b32");
  line("mad.lo.u32 " + linear + ", %s_tid_z, %s_ntid_y, %s_tid_y");
  line("mad.lo.u32 " + linear + ", " + linear + ", %s_ntid_x, %s_tid_x");
  line("shr.u32 %s_warpid, " + linear + ", 5");
  if (clusters_) {
    line("mov.u32 %s_cluster_ctarank, %cluster_ctarank");
    line("mov.u32 %s_cluster_nctarank, %cluster_nctarank");
  } else {
    // Before sm_90 every block is a cluster of one: its rank 0 of 1.
    line("mov.u32 %s_cluster_ctarank, 0");
    line("mov.u32 %s_cluster_nctarank, 1");
  }
}

std::string KernelEmitter::value(const ir::ValueOperand& v, ir::ScalarType as) {
  if (const auto* r = std::get_if<ir::RegRef>(&v.value)) return reg(r->name);
  if (const auto* s = std::get_if<ir::SpecialReg>(&v.value)) return special_name(*s);
  if (const auto* p = std::get_if<ir::ParamRef>(&v.value)) {
    if (auto it = params_.find(p->name); it != params_.end()) return it->second;
    // An array read as a value: its address in its space (the verifier allows nothing else).
    const bool module_scope =
        module_.find_constant(p->name) != nullptr || module_.find_global(p->name) != nullptr;
    const std::string symbol = module_scope ? p->name : array_symbol(kernel_, p->name);
    const bool wide = ir::size_bytes(as) == 8;
    std::string out = temp(wide ? ".b64" : ".b32");
    line(std::string(wide ? "mov.u64 " : "mov.u32 ") + out + ", " + symbol);
    return out;
  }
  if (const auto* f = std::get_if<ir::FloatLiteral>(&v.value)) return float_literal(f->value, as);
  const auto& i = std::get<ir::IntLiteral>(v.value);
  if (ir::is_float(as)) {
    return float_literal(
        i.negative ? -static_cast<double>(i.magnitude) : static_cast<double>(i.magnitude), as);
  }
  const std::uint64_t bits = exec::literal_bits(i, as);
  if (as == ir::ScalarType::Pred) return bits != 0 ? "1" : "0";
  if (ir::is_signed_int(as)) {
    const auto v64 = as == ir::ScalarType::S32
                         ? static_cast<std::int64_t>(static_cast<std::int32_t>(bits))
                         : static_cast<std::int64_t>(bits);
    return std::to_string(v64);
  }
  return std::to_string(bits);
}

// An index widened to 64 bits (global, const, local) or kept at 32 (shared).
std::string KernelEmitter::index_value(const ir::ValueOperand& v, bool wide) {
  ir::ScalarType t = ir::ScalarType::S64;
  if (const auto* r = std::get_if<ir::RegRef>(&v.value)) t = reg_types_.at(r->name);
  if (std::holds_alternative<ir::SpecialReg>(v.value)) t = ir::ScalarType::U32;
  if (const auto* p = std::get_if<ir::ParamRef>(&v.value)) {
    for (const ir::KernelParam& kp : kernel_.params) {
      if (kp.name == p->name) t = kp.type;
    }
  }
  if (std::holds_alternative<ir::IntLiteral>(v.value)) {
    return value(v, wide ? ir::ScalarType::S64 : ir::ScalarType::S32);
  }
  std::string src = value(v, t);
  const bool is64 = ir::size_bytes(t) == 8;
  if (wide == is64) return src;
  std::string out = temp(wide ? ".b64" : ".b32");
  if (wide) {
    line(std::string("cvt") + (ir::is_signed_int(t) ? ".s64.s32 " : ".u64.u32 ") + out + ", " +
         src);
  } else {
    line("cvt.u32.u64 " + out + ", " + src);
  }
  return out;
}

std::string KernelEmitter::address(const ir::MemRef& ref, ir::Space space, ir::ScalarType element) {
  if (ref.is_address()) {
    // [base+N] is PTX's own form; a register base keeps its width.
    const ir::ValueOperand& base = ref.indices.at(0);
    const std::string displacement =
        ref.displacement == 0 ? "" : "+" + std::to_string(ref.displacement);
    if (const auto* i = std::get_if<ir::IntLiteral>(&base.value)) {
      const std::uint64_t at = exec::literal_bits(*i, ir::ScalarType::U64) +
                               static_cast<std::uint64_t>(ref.displacement);
      return "[" + std::to_string(at) + "]";
    }
    if (const auto* p = std::get_if<ir::ParamRef>(&base.value); p && !params_.contains(p->name)) {
      // An array's own symbol: PTX addresses it directly.
      const bool constant = module_.find_constant(p->name) != nullptr;
      return "[" + (constant ? p->name : array_symbol(kernel_, p->name)) + displacement + "]";
    }
    ir::ScalarType as = ir::ScalarType::U64;
    if (const auto* r = std::get_if<ir::RegRef>(&base.value)) as = reg_types_.at(r->name);
    if (space == ir::Space::Dsmem) {
      // A cluster address: the offset in its low 32 bits, 0 (this block) or rank + 1 above.
      const std::string a = value(base, ir::ScalarType::U64);
      const std::string offset = temp(".b32"), high64 = temp(".b64"), high = temp(".b32"),
                        rank = temp(".b32"), own = temp(".pred"), target = temp(".b32"),
                        mapped = temp(".b32");
      line("cvt.u32.u64 " + offset + ", " + a);
      line("shr.u64 " + high64 + ", " + a + ", 32");
      line("cvt.u32.u64 " + high + ", " + high64);
      line("setp.eq.u32 " + own + ", " + high + ", 0");
      line("sub.u32 " + rank + ", " + high + ", 1");
      line("selp.u32 " + target + ", %s_cluster_ctarank, " + rank + ", " + own);
      line("mapa.shared::cluster.u32 " + mapped + ", " + offset + ", " + target);
      return "[" + mapped + displacement + "]";
    }
    return "[" + value(base, as) + displacement + "]";
  }
  const bool shared = space == ir::Space::Shared || space == ir::Space::Dsmem;
  std::vector<std::uint64_t> dims;
  std::string base;
  if (space == ir::Space::Global && module_.find_global(ref.array) != nullptr) {
    dims = module_.find_global(ref.array)->dims;
    base = temp(".b64");
    line("mov.u64 " + base + ", " + ref.array);
  } else if (space == ir::Space::Global) {
    base = params_.at(ref.array);
  } else {
    const ir::ArrayDecl* a = space == ir::Space::Const ? module_.find_constant(ref.array) : nullptr;
    for (const ir::ArrayDecl& d : kernel_.arrays) {
      if (d.name == ref.array) a = &d;
    }
    dims = a->dims;
    base = temp(shared ? ".b32" : ".b64");
    const std::string symbol =
        space == ir::Space::Const ? ref.array : array_symbol(kernel_, ref.array);
    line(std::string(shared ? "mov.u32 " : "mov.u64 ") + base + ", " + symbol);
  }
  const char* int_type = shared ? ".u32" : ".u64";
  std::string linear = index_value(ref.indices[0], !shared);
  for (std::size_t k = 1; k < ref.indices.size(); ++k) {
    const std::string next = temp(shared ? ".b32" : ".b64");
    line(std::string("mad.lo") + int_type + ' ' + next + ", " + linear + ", " +
         std::to_string(dims[k]) + ", " + index_value(ref.indices[k], !shared));
    linear = next;
  }
  const std::string addr = temp(shared ? ".b32" : ".b64");
  line(std::string("mad.lo") + int_type + ' ' + addr + ", " + linear + ", " +
       std::to_string(ir::size_bytes(element)) + ", " + base);
  if (space != ir::Space::Dsmem) return "[" + addr + "]";
  const std::string remote = temp(".b32");
  line("mapa.shared::cluster.u32 " + remote + ", " + addr + ", " + index_value(*ref.rank, false));
  return "[" + remote + "]";
}

std::string KernelEmitter::emit() {
  declare_registers();
  prologue();
  for (const ir::BasicBlock& b : kernel_.blocks) {
    raw(label(b.label) + ":");
    // In the loop's header block, as nvcc places it for `#pragma unroll 1`.
    if (b.no_unroll) line(".pragma \"nounroll\"");
    for (const ir::Instruction& inst : b.instructions) instruction(inst);
  }
  std::ostringstream out;
  out << ".visible .entry " << kernel_.name << "(";
  for (std::size_t i = 0; i < kernel_.params.size(); ++i) {
    const ir::KernelParam& p = kernel_.params[i];
    const std::string type = p.is_pointer                     ? ".u64"
                             : p.type == ir::ScalarType::Pred ? ".u32"
                                                              : ptx_type(p.type);
    out << (i ? ",\n" : "\n") << "  .param " << type << ' ' << kernel_.name << "_param_" << p.name;
  }
  out << "\n)\n";
  // The performance directives of __launch_bounds__ and __maxnreg__.
  if (const auto& bounds = kernel_.launch_bounds) {
    out << ".maxntid " << bounds->max_threads << ", 1, 1\n";
    if (bounds->min_blocks != 0) out << ".minnctapersm " << bounds->min_blocks << '\n';
  }
  if (kernel_.max_regs) out << ".maxnreg " << *kernel_.max_regs << '\n';
  if (const auto& c = kernel_.cluster_dims) {
    out << ".explicitcluster\n.reqnctapercluster " << c->x << ", " << c->y << ", " << c->z << '\n';
  }
  out << "{\n" << decls_.str();
  for (const auto& [name, type] : temps_) out << "  .reg " << type << ' ' << name << ";\n";
  out << body_.str() << "}\n";
  return out.str();
}

std::string lower_to_ptx(const ir::Module& module, const std::string& target) {
  const unsigned sm = target_number(target);
  std::ostringstream out;
  out << "// Generated by warpsim from the kernel IR.\n.version " << ptx_version_for(sm)
      << "\n.target " << target << "\n.address_size 64\n.file 1 \"" << kIrSourceFile << "\"\n\n";
  // Module constants and globals with their initial bytes (little-endian, as the GPU holds them).
  auto declare = [&out](const char* space, const ir::ArrayDecl& c) {
    const unsigned size = ir::size_bytes(c.element);
    const std::uint64_t count = element_count(c.dims);
    out << '.' << space << " .align 16 .b8 " << c.name << '[' << count * size << ']';
    out << " = {";
    for (std::uint64_t e = 0; e < count; ++e) {
      const std::uint64_t bits = e < c.init.size() ? exec::literal_bits(c.init[e], c.element) : 0;
      for (unsigned b = 0; b < size; ++b) out << (e || b ? ", " : "") << ((bits >> (8 * b)) & 0xff);
    }
    out << "};\n";
  };
  for (const ir::ArrayDecl& c : module.constants) declare("const", c);
  // .visible, so that the driver finds each by its name (cuModuleGetGlobal).
  for (const ir::ArrayDecl& g : module.globals) declare("visible .global", g);
  for (const ir::Kernel& k : module.kernels) {
    for (const ir::ArrayDecl& a : k.arrays) {
      if (a.space != ir::Space::Shared) continue;  // local arrays live in the kernel body
      const std::string symbol = array_symbol(k, a.name);
      if (a.is_dynamic) {
        out << ".extern .shared .align " << ir::alignment(a) << " .b8 " << symbol << "[];\n";
      } else {
        out << ".shared .align " << ir::alignment(a) << " .b8 " << symbol << '['
            << element_count(a.dims) * ir::size_bytes(a.element) << "];\n";
      }
    }
  }
  for (const ir::Kernel& k : module.kernels)
    out << '\n' << KernelEmitter(module, k, sm >= 90).emit();
  return out.str();
}

}  // namespace warpsim::cuda

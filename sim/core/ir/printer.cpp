#include "sim/core/ir/printer.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "sim/core/overloaded.hpp"

namespace warpsim::ir {
namespace {

std::string float_text(double v) {
  std::string s = fmt::format("{}", v);
  // Keep a float a float when read back: "1" would parse as an integer.
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string int_text(const IntLiteral& i) {
  return (i.negative ? "-" : "") + std::to_string(i.magnitude);
}

std::string dims_text(const ArrayDecl& a) {
  if (a.is_dynamic) return "[]";
  std::string s;
  for (std::uint64_t d : a.dims) s += "[" + std::to_string(d) + "]";
  return s;
}

std::string dim3_text(std::string_view what, const Dim3& d) {
  return fmt::format("{}({}, {}, {})", what, d.x, d.y, d.z);
}

void print_array(std::ostream& out, const ArrayDecl& a) {
  out << name(a.space) << ' ' << a.name << ": " << name(a.element) << dims_text(a);
  if (a.align != 0) out << " align " << a.align;
  if (!a.init.empty()) {
    out << " = {";
    for (std::size_t i = 0; i < a.init.size(); ++i) {
      out << (i ? ", " : "") << to_string(a.init[i]);
    }
    out << '}';
  }
  out << '\n';
}

std::string operand_text(const Operand& op) {
  return std::visit(Overloaded{
                        [](const ValueOperand& v) { return to_string(v.value); },
                        [](const LabelRef& l) { return l.name; },
                        [](const RegList& list) {
                          std::string s = "{";
                          for (std::size_t i = 0; i < list.elements.size(); ++i) {
                            s += (i ? ", " : "") + to_string(list.elements[i].value);
                          }
                          return s + "}";
                        },
                        [](const MemRef& m) {
                          if (m.is_address()) {
                            std::string s = "[" + to_string(m.indices.at(0).value);
                            if (m.displacement > 0) s += "+" + std::to_string(m.displacement);
                            if (m.displacement < 0) s += std::to_string(m.displacement);
                            return s + "]";
                          }
                          std::string s = m.array;
                          if (m.rank) s += "@" + to_string(m.rank->value);
                          for (const ValueOperand& i : m.indices)
                            s += "[" + to_string(i.value) + "]";
                          return s;
                        },
                    },
                    op.kind);
}

std::string buffer_text(const BufferSpec& b) {
  std::string s = fmt::format("{}[{}] ", buffer_type_name(b.type()), b.count);
  switch (b.init) {
    case BufferInit::Zero:
      return s + "zero";
    case BufferInit::Uninitialised:
      return s + "uninit";
    case BufferInit::Iota:
      return s + "iota";
    case BufferInit::Constant:
      return s + "constant(" + to_string(b.value) + ")";
    case BufferInit::Random:
    case BufferInit::Sorted:
    case BufferInit::Permutation:
      s += fmt::format("{}(seed = {}",
                       b.init == BufferInit::Random   ? "random"
                       : b.init == BufferInit::Sorted ? "sorted"
                                                      : "permutation",
                       b.seed);
      if (b.min) s += ", min = " + to_string(*b.min);
      if (b.max) s += ", max = " + to_string(*b.max);
      return s + ")";
    case BufferInit::File:
      return s + "file(\"" + b.file + "\")";
    case BufferInit::Result:
      return s + "result(" + b.launch + ", " + b.buffer + ")";
  }
  return s;
}

void print_kernel(std::ostream& out, const Kernel& k) {
  out << "kernel " << k.name << '(';
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const KernelParam& p = k.params[i];
    out << (i ? ", " : "") << p.name << ": " << (p.is_pointer ? "ptr global " : "") << name(p.type);
  }
  out << ')';
  if (k.regs) out << " regs(" << *k.regs << ')';
  if (k.max_regs) out << " max_regs(" << *k.max_regs << ')';
  if (k.cluster_dims) {
    out << " cluster_dims(" << k.cluster_dims->x << ", " << k.cluster_dims->y << ", "
        << k.cluster_dims->z << ')';
  }
  if (k.launch_bounds) {
    out << " launch_bounds(" << k.launch_bounds->max_threads;
    if (k.launch_bounds->min_blocks != 0) out << ", " << k.launch_bounds->min_blocks;
    out << ')';
  }
  out << " {\n";
  for (const ArrayDecl& a : k.arrays) {
    out << "  ";
    print_array(out, a);
  }
  SourceOrigin origin;  // what the last loc said; each kernel starts with none
  for (const BasicBlock& b : k.blocks) {
    out << b.label << ":\n";
    if (b.no_unroll) out << "  nounroll\n";
    for (const Instruction& inst : b.instructions) {
      if (inst.origin != origin) {
        origin = inst.origin;
        out << "  loc " << origin.file << ' ' << origin.line;
        if (origin.ptx_line != 0) out << " ptx " << origin.ptx_line;
        out << '\n';
      }
      out << "  " << to_string(inst) << '\n';
    }
  }
  out << "}\n";
}

void print_launch(std::ostream& out, const Launch& l) {
  out << "launch " << l.kernel;
  if (l.name != l.kernel) out << " as " << l.name;
  out << ' ' << dim3_text("grid", l.grid) << ' ' << dim3_text("block", l.block);
  if (l.cluster != Dim3{}) out << ' ' << dim3_text("cluster", l.cluster);
  if (l.dynamic_smem != 0) out << " dynamic_smem(" << l.dynamic_smem << ')';
  out << " {\n";
  for (const LaunchArg& a : l.args) {
    out << "  " << a.name << " = ";
    if (const auto* lit = std::get_if<Literal>(&a.value)) {
      out << to_string(*lit);
    } else {
      out << buffer_text(std::get<BufferSpec>(a.value));
    }
    out << '\n';
  }
  out << "}\n";
}

}  // namespace

std::string to_string(const Literal& literal) {
  if (const auto* i = std::get_if<IntLiteral>(&literal)) return int_text(*i);
  return float_text(std::get<FloatLiteral>(literal).value);
}

std::string to_string(const Value& value) {
  return std::visit(Overloaded{
                        [](const RegRef& r) { return "%" + r.name; },
                        [](SpecialReg s) { return "%" + std::string(name(s)); },
                        [](const ParamRef& p) { return p.name; },
                        [](const IntLiteral& i) { return int_text(i); },
                        [](const FloatLiteral& f) { return float_text(f.value); },
                    },
                    value);
}

std::string opcode_text(const Instruction& inst) {
  std::string s(spelling(inst.opcode));
  auto add = [&s](std::string_view part) { s += "." + std::string(part); };
  switch (opcode_info(inst.opcode).modifiers) {
    case ModifierPattern::None:
      break;
    case ModifierPattern::Type:
      if (inst.rounding != Rounding::Nearest) add(name(inst.rounding));
      add(name(inst.type));
      break;
    case ModifierPattern::TypePair: {
      // A half's side prints as its format (cvt.rn.f16.f32), the other as its type.
      const bool half_source = inst.half != HalfFormat::None && is_float(inst.type);
      const bool half_dest = inst.half != HalfFormat::None && !half_source;
      if (inst.rounding != Rounding::Nearest || half_dest) add(name(inst.rounding));
      add(half_dest ? name(inst.half) : name(inst.type));
      add(half_source ? name(inst.half) : name(inst.source_type));
      break;
    }
    case ModifierPattern::SpaceType:
      add(name(inst.space));
      if (inst.vector_width > 1) add("v" + std::to_string(inst.vector_width));
      add(inst.narrow_bytes != 0 ? narrow_type_name(inst.type, inst.narrow_bytes)
                                 : name(inst.type));
      break;
    case ModifierPattern::AtomicType:
      add(name(inst.space));
      add(name(inst.atomic_op));
      add(name(inst.type));
      break;
    case ModifierPattern::ShuffleType:
      add(name(inst.shuffle_mode));
      add(name(inst.type));
      break;
    case ModifierPattern::ReduceType:
      add(name(inst.atomic_op));
      add(name(inst.type));
      break;
    case ModifierPattern::Vote:
      add(name(inst.vote_mode));
      break;
    case ModifierPattern::BarrierReduction:
      add(barrier_reduction_name(inst.vote_mode));
      break;
  }
  return s;
}

std::string to_string(const Instruction& inst) {
  std::string s;
  if (inst.dests.size() == 1) {
    s = "%" + inst.dests[0].name + " = ";
  } else if (!inst.dests.empty()) {
    s = "{";
    for (std::size_t i = 0; i < inst.dests.size(); ++i) {
      s += (i ? ", %" : "%") + inst.dests[i].name;
    }
    s += "} = ";
  }
  s += opcode_text(inst);
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    s += (i ? ", " : " ") + operand_text(inst.operands[i]);
  }
  return s;
}

void print(std::ostream& out, const Module& module) {
  bool first = true;
  auto separate = [&] {
    if (!first) out << '\n';
    first = false;
  };
  for (std::size_t i = 0; i < module.source_files.size(); ++i) {
    first = false;
    out << "source " << i + 1 << " \"" << module.source_files[i] << "\"\n";
  }
  for (const ArrayDecl& c : module.constants) {
    first = false;
    print_array(out, c);
  }
  for (const ArrayDecl& g : module.globals) {
    first = false;
    print_array(out, g);
  }
  for (const Kernel& k : module.kernels) {
    separate();
    print_kernel(out, k);
  }
  for (const Launch& l : module.launches) {
    separate();
    print_launch(out, l);
  }
}

std::string to_string(const Module& module) {
  std::ostringstream out;
  print(out, module);
  return out.str();
}

}  // namespace warpsim::ir

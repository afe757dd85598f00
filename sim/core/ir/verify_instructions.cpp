// Per-instruction checks: type suffixes, destination and operand counts, operand kinds and
// types, memory references. Register types come from definitions (collected first), so a use
// before the definition in program order is still typed.
#include <string>

#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/typing.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {
namespace {

std::string type_name(ScalarType t) {
  return std::string(name(t));
}

class InstructionChecker {
 public:
  explicit InstructionChecker(KernelContext& ctx) : ctx_(ctx) {}

  void collect_definitions() {
    for (const BasicBlock& b : ctx_.kernel.blocks) {
      for (const Instruction& inst : b.instructions) {
        const ScalarType t = result_type(inst);
        for (const RegDef& d : inst.dests) {
          // Integer types of one width share a register (PTX's registers are bits), so a
          // register may be defined as s32 in one place and as u32 in another.
          auto [it, inserted] = ctx_.reg_types.emplace(d.name, t);
          if (!inserted && !operand_compatible(it->second, t)) {
            error(d.loc, "register %" + d.name + " is defined as " + type_name(t) +
                             " here but as " + type_name(it->second) + " elsewhere");
          }
        }
      }
    }
  }

  void check(const Instruction& inst) {
    inst_ = &inst;
    const OpcodeInfo& info = opcode_info(inst.opcode);
    if (!check_suffix(info)) return;
    if (!check_dest_count(info)) return;
    std::size_t operands = info.signature.size();
    if (inst.opcode == Opcode::Atom && inst.atomic_op == AtomicOp::Cas) operands = 3;
    if (inst.operands.size() != operands) {
      error(inst.loc, "'" + opcode_text(inst) + "' takes " + std::to_string(operands) + " operand" +
                          (operands == 1 ? "" : "s") + ", found " +
                          std::to_string(inst.operands.size()));
      return;
    }
    for (std::size_t i = 0; i < operands; ++i) {
      const char kind = i < info.signature.size() ? info.signature[i] : 'A';
      check_operand(kind, inst.operands[i]);
    }
  }

 private:
  // cvt between a 16-bit float (bits in a u32) and f32 or f64; only a conversion to the half
  // rounds, so only it takes .rz, .rm or .rp.
  bool check_half_cvt(const std::string& op) {
    const Instruction& inst = *inst_;
    const bool to_half = !is_float(inst.type);
    const ScalarType other = to_half ? inst.source_type : inst.type;
    if (other != ScalarType::F32 && other != ScalarType::F64) {
      return error(inst.loc, op + ": a 16-bit float converts to and from f32 or f64");
    }
    if (!to_half && inst.rounding != Rounding::Nearest) {
      return error(inst.loc, op + ": widening a 16-bit float is exact and takes no rounding");
    }
    return true;
  }

  static bool takes_rounding(const Instruction& inst) {
    if (!is_float(inst.type)) return false;
    switch (inst.opcode) {
      case Opcode::Add:
      case Opcode::Sub:
      case Opcode::Mul:
      case Opcode::Fma:
      case Opcode::Div:
      case Opcode::Sqrt:
      case Opcode::Rcp:
        return true;
      case Opcode::Cvt:
        return is_int(inst.source_type) ||
               (inst.type == ScalarType::F32 && inst.source_type == ScalarType::F64);
      default:
        return false;
    }
  }

  bool check_suffix(const OpcodeInfo& info) {
    const Instruction& inst = *inst_;
    const std::string op = "'" + opcode_text(inst) + "'";
    if (info.modifiers != ModifierPattern::None && info.modifiers != ModifierPattern::Vote &&
        info.modifiers != ModifierPattern::BarrierReduction && !contains(info.types, inst.type)) {
      return error(inst.loc, op + ": '" + std::string(spelling(inst.opcode)) +
                                 "' does not take type " + type_name(inst.type));
    }
    if (inst.opcode == Opcode::Cvt && inst.half != HalfFormat::None) return check_half_cvt(op);
    if (inst.rounding != Rounding::Nearest && !takes_rounding(inst)) {
      return error(inst.loc, op + ": a rounding (.rz, .rm, .rp) is taken only by float add, sub, "
                                  "mul, fma, div, sqrt and rcp, and by a cvt to a float that "
                                  "may round (from an integer, or f64 to f32)");
    }
    if (inst.opcode == Opcode::ReduxSync &&
        (inst.atomic_op == AtomicOp::Exch || inst.atomic_op == AtomicOp::Cas ||
         inst.atomic_op == AtomicOp::Inc || inst.atomic_op == AtomicOp::Dec)) {
      return error(inst.loc, op + ": redux.sync reduces with add, min, max, and, or or xor");
    }
    if (inst.opcode == Opcode::Cvt && !contains(kIntOrFloat, inst.source_type)) {
      return error(inst.loc, op + ": cvt converts between integer and float types");
    }
    if (inst.opcode == Opcode::Bitcast && (!contains(kIntOrFloat, inst.source_type) ||
                                           size_bytes(inst.type) != size_bytes(inst.source_type))) {
      return error(inst.loc, op + ": bitcast reinterprets the bits of an integer or float as "
                                  "another type of the same width");
    }
    if (inst.opcode == Opcode::Atom) {
      if (inst.space != Space::Global && inst.space != Space::Shared &&
          inst.space != Space::Dsmem) {
        return error(inst.loc, op + ": atomics act on global, shared or dsmem memory");
      }
      const bool min_max = inst.atomic_op == AtomicOp::Min || inst.atomic_op == AtomicOp::Max;
      if (min_max && !is_int(inst.type)) {
        return error(inst.loc, op + ": atomic min and max take integer types");
      }
      const bool bitwise = inst.atomic_op == AtomicOp::And || inst.atomic_op == AtomicOp::Or ||
                           inst.atomic_op == AtomicOp::Xor;
      if (bitwise && !is_int(inst.type)) {
        return error(inst.loc, op + ": atomic and, or and xor take integer types");
      }
      const bool wrapping = inst.atomic_op == AtomicOp::Inc || inst.atomic_op == AtomicOp::Dec;
      if (wrapping && inst.type != ScalarType::U32) {
        return error(inst.loc, op + ": atomic inc and dec take u32");
      }
    }
    if (inst.narrow_bytes != 0) {
      const bool address = !inst.operands.empty() &&
                           std::holds_alternative<MemRef>(inst.operands[0].kind) &&
                           std::get<MemRef>(inst.operands[0].kind).is_address();
      if (!address || inst.space == Space::Dsmem) {
        return error(inst.loc, op + ": an 8- or 16-bit access is an access by byte address "
                                    "([base+N])");
      }
    }
    if (inst.opcode == Opcode::St && inst.space == Space::Const) {
      return error(inst.loc, op + ": constant memory is read-only");
    }
    if (inst.vector_width > 1 && inst.vector_width * size_bytes(inst.type) > 16) {
      return error(inst.loc, op + ": a vector access is at most 128 bits (v4 of 32-bit or v2 of "
                                  "64-bit elements)");
    }
    return true;
  }

  bool check_dest_count(const OpcodeInfo& info) {
    const Instruction& inst = *inst_;
    std::size_t want = 1;
    switch (info.result) {
      case ResultRule::None:
        want = 0;
        break;
      case ResultRule::Loaded:
        want = inst.vector_width;
        break;
      case ResultRule::Optional:
        want = inst.dests.size() <= 1 ? inst.dests.size() : 1;
        break;
      default:
        break;
    }
    if (inst.dests.size() == want) return true;
    const std::string op = "'" + opcode_text(inst) + "'";
    if (want == 0) return error(inst.loc, op + " defines no register");
    if (want == 1)
      return error(inst.loc, op + " defines one register: %d = " + opcode_text(inst) + " ...");
    return error(inst.loc, op + " defines " + std::to_string(want) +
                               " registers: {%a, %b, ...} = " + opcode_text(inst) + " ...");
  }

  void check_operand(char kind, const Operand& op) {
    if (kind == 'M') return check_memref(op);
    if (kind == 'L') {
      if (!std::holds_alternative<LabelRef>(op.kind)) error(op.loc, "expected a block label");
      return;
    }
    if (kind == 'V' && inst_->vector_width > 1) return check_vector_values(op);
    const ValueOperand* v = plain_value(op);
    if (v == nullptr) return;
    switch (kind) {
      case 'P':
        check_value(*v, ScalarType::Pred);
        break;
      case 'u':
        check_value(*v, ScalarType::U32);
        break;
      case 'S':
        check_value(*v, inst_->source_type);
        break;
      default:
        check_value(*v, inst_->type);
        break;  // T, V, A
    }
  }

  const ValueOperand* plain_value(const Operand& op) {
    if (const auto* v = std::get_if<ValueOperand>(&op.kind)) return v;
    if (std::holds_alternative<MemRef>(op.kind)) {
      error(op.loc, "a memory reference is only an operand of ld, st and atom; load it first");
    } else if (std::holds_alternative<RegList>(op.kind)) {
      error(op.loc, "a {...} list is only the value of a vector store");
    } else {
      error(op.loc, "expected a value here, found a label");
    }
    return nullptr;
  }

  void check_vector_values(const Operand& op) {
    const auto* list = std::get_if<RegList>(&op.kind);
    if (list == nullptr || list->elements.size() != inst_->vector_width) {
      error(op.loc, "'" + opcode_text(*inst_) + "' stores " + std::to_string(inst_->vector_width) +
                        " values: {%a, %b, ...}");
      return;
    }
    for (const ValueOperand& v : list->elements) check_value(v, inst_->type);
  }

  // The type of a register, special register or parameter read as a value.
  std::optional<ScalarType> value_type(const ValueOperand& v) {
    if (const auto* r = std::get_if<RegRef>(&v.value)) {
      auto it = ctx_.reg_types.find(r->name);
      if (it != ctx_.reg_types.end()) return it->second;
      error(v.loc, "undefined register %" + r->name);
      return std::nullopt;
    }
    if (std::holds_alternative<SpecialReg>(v.value)) return ScalarType::U32;
    const auto& p = std::get<ParamRef>(v.value);
    if (address_symbol(p)) return ScalarType::U64;
    const KernelParam* param = ctx_.find_param(p.name);
    if (param == nullptr) {
      error(v.loc, "unknown name '" + p.name + "': not a parameter of kernel '" + ctx_.kernel.name +
                       "'" +
                       (ctx_.find_array(p.name) || ctx_.module.find_constant(p.name)
                            ? " (an array is read with ld: ld.<space>.<type> " + p.name + "[i])"
                            : ""));
      return std::nullopt;
    }
    if (param->is_pointer) {
      error(v.loc,
            "pointer parameter '" + p.name + "' is not a value; index it: " + p.name + "[i]");
      return std::nullopt;
    }
    return param->type;
  }

  // A pointer parameter or an array read as a value is its address: the buffer's global virtual
  // address, or the array's offset in its space (shared, local or constant memory). The space
  // is returned.
  std::optional<Space> address_symbol(const ParamRef& p) const {
    if (const KernelParam* param = ctx_.find_param(p.name)) {
      if (param->is_pointer) return Space::Global;
      return std::nullopt;
    }
    if (const ArrayDecl* a = ctx_.find_array(p.name)) return a->space;
    if (ctx_.module.find_constant(p.name) != nullptr) return Space::Const;
    if (ctx_.module.find_global(p.name) != nullptr) return Space::Global;
    return std::nullopt;
  }

  void check_value(const ValueOperand& v, ScalarType want) {
    if (const auto* p = std::get_if<ParamRef>(&v.value); p != nullptr && address_symbol(*p)) {
      // A global address needs 64 bits; an offset in another space fits either width.
      const bool global = *address_symbol(*p) == Space::Global;
      if (!is_int(want) || (global && size_bytes(want) != 8)) {
        error(v.loc, std::string(global ? "pointer parameter '" : "array '") + p->name +
                         "' is an address (" + (global ? "u64 or s64" : "a 32- or 64-bit integer") +
                         "), not a value of type " + type_name(want) + "; index it to read its " +
                         "elements: " + p->name + "[i]");
      }
      return;
    }
    if (const auto* i = std::get_if<IntLiteral>(&v.value)) {
      if (!literal_fits(*i, want)) {
        error(v.loc, "literal " + to_string(v.value) + " does not fit " + type_name(want));
      }
      return;
    }
    if (std::holds_alternative<FloatLiteral>(v.value)) {
      if (!literal_fits(std::get<FloatLiteral>(v.value), want)) {
        error(v.loc,
              "float literal " + to_string(v.value) + " where " + type_name(want) + " is expected");
      }
      return;
    }
    const auto have = value_type(v);
    if (have && !operand_compatible(want, *have)) {
      error(v.loc, "operand " + to_string(v.value) + " has type " + type_name(*have) +
                       ", expected " + type_name(want));
    }
  }

  void check_index(const ValueOperand& v, std::optional<std::uint64_t> bound) {
    if (const auto* i = std::get_if<IntLiteral>(&v.value)) {
      if (i->negative || (bound && i->magnitude >= *bound)) {
        error(v.loc, "index " + to_string(v.value) + " is out of bounds for a dimension of " +
                         std::to_string(bound.value_or(0)));
      }
      return;
    }
    if (std::holds_alternative<FloatLiteral>(v.value)) {
      error(v.loc, "an index must be an integer");
      return;
    }
    const auto have = value_type(v);
    if (have && !is_int(*have)) {
      error(v.loc,
            "an index must be an integer; " + to_string(v.value) + " has type " + type_name(*have));
    }
  }

  void check_memref(const Operand& op);

  // [base+displacement]: the base is an address (a 64-bit one for global memory), or an
  // array's or pointer's name, whose space must be the instruction's.
  void check_address(const MemRef& ref, SourceLoc loc) {
    const Space space = inst_->space;
    if (ref.rank || ref.indices.size() != 1) {
      error(loc, "an address reference is [base] or [base+N]");
      return;
    }
    if (space == Space::Dsmem && !std::holds_alternative<RegRef>(ref.indices[0].value)) {
      error(loc, "a dsmem access by address takes a register holding a cluster address");
      return;
    }
    const ValueOperand& base = ref.indices[0];
    if (const auto* p = std::get_if<ParamRef>(&base.value)) {
      const auto symbol_space = address_symbol(*p);
      if (!symbol_space) {
        error(base.loc, "'" + p->name + "' is neither a pointer parameter nor an array");
      } else if (*symbol_space != space) {
        error(base.loc, "'" + p->name + "' is in " + std::string(name(*symbol_space)) +
                            " memory, but '" + opcode_text(*inst_) + "' accesses " +
                            std::string(name(space)) + " memory");
      }
      return;
    }
    if (std::holds_alternative<FloatLiteral>(base.value)) {
      error(base.loc, "an address must be an integer");
      return;
    }
    if (std::holds_alternative<IntLiteral>(base.value)) return;
    const auto have = value_type(base);
    if (!have) return;
    const bool wide = space == Space::Global || space == Space::Dsmem;
    if (!is_int(*have) || (wide && size_bytes(*have) != 8)) {
      error(base.loc, "an address in " + std::string(name(space)) + " memory is " +
                          (wide ? "a 64-bit integer" : "a 32- or 64-bit integer") + "; " +
                          to_string(base.value) + " has type " + type_name(*have));
    }
  }

  bool error(SourceLoc loc, std::string message) {
    ctx_.diags.error(loc, std::move(message));
    return false;
  }

  KernelContext& ctx_;
  const Instruction* inst_ = nullptr;
};

void InstructionChecker::check_memref(const Operand& op) {
  const auto* ref = std::get_if<MemRef>(&op.kind);
  if (ref == nullptr) {
    error(op.loc, "expected a memory reference such as a[%i]");
    return;
  }
  const Space space = inst_->space;
  if (ref->is_address()) return check_address(*ref, op.loc);
  const std::string sp(name(space));
  ScalarType element = ScalarType::Pred;
  std::vector<std::uint64_t> dims;  // empty: one unbounded index
  if (space == Space::Global && ctx_.module.find_global(ref->array) != nullptr) {
    const ArrayDecl* g = ctx_.module.find_global(ref->array);
    element = g->element;
    dims = g->dims;
  } else if (space == Space::Global) {
    const KernelParam* p = ctx_.find_param(ref->array);
    if (p == nullptr || !p->is_pointer) {
      error(op.loc, "'" + ref->array +
                        "' is not a pointer parameter or module global, so it cannot be "
                        "accessed in global memory");
      return;
    }
    element = p->type;
  } else {
    const ArrayDecl* a =
        space == Space::Const ? ctx_.module.find_constant(ref->array) : ctx_.find_array(ref->array);
    const Space declared = space == Space::Dsmem ? Space::Shared : space;
    if (a == nullptr || a->space != declared) {
      error(op.loc, "no " + std::string(name(declared)) + " array named '" + ref->array + "'");
      return;
    }
    element = a->element;
    dims = a->dims;
  }
  if (!operand_compatible(element, inst_->type)) {
    error(op.loc, "'" + ref->array + "' holds " + type_name(element) + " but '" +
                      opcode_text(*inst_) + "' accesses " + type_name(inst_->type));
  }
  const std::size_t want = dims.empty() ? 1 : dims.size();
  if (ref->indices.size() != want) {
    error(op.loc, "'" + ref->array + "' has " + std::to_string(want) + " dimension" +
                      (want == 1 ? "" : "s") + " but is indexed with " +
                      std::to_string(ref->indices.size()));
    return;
  }
  for (std::size_t i = 0; i < want; ++i) {
    check_index(ref->indices[i], dims.empty() ? std::nullopt : std::optional(dims[i]));
  }
  if (space == Space::Dsmem && !ref->rank) {
    error(op.loc, "a dsmem access names the block it reaches: " + ref->array + "@%rank[...]");
  } else if (space != Space::Dsmem && ref->rank) {
    error(op.loc, "only dsmem accesses take a block rank ('@'); this is " + sp + " memory");
  } else if (ref->rank) {
    check_index(*ref->rank, std::nullopt);
  }
}

}  // namespace

void verify_instructions(KernelContext& ctx) {
  InstructionChecker checker(ctx);
  checker.collect_definitions();
  for (const BasicBlock& b : ctx.kernel.blocks) {
    for (const Instruction& inst : b.instructions) checker.check(inst);
  }
}

}  // namespace warpsim::ir

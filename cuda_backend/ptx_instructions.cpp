// One IR instruction to PTX. Memory instructions become exactly one PTX memory instruction.
#include <fmt/format.h>

#include <stdexcept>

#include "cuda_backend/ptx_emitter.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::cuda {
namespace {

// ld/st's type: PTX's u8, s16, ... for a narrow access (a 32-bit register, as PTX allows).
std::string memory_type(const ir::Instruction& inst) {
  if (inst.narrow_bytes != 0)
    return "." + std::string(ir::narrow_type_name(inst.type, inst.narrow_bytes));
  return ptx_type(inst.type);
}

// PTX spells the modes of shfl.sync as the IR does, but for the butterfly: IR `xor`, PTX `bfly`.
const char* shuffle_spelling(ir::ShuffleMode mode) {
  switch (mode) {
    case ir::ShuffleMode::Idx:
      return "idx";
    case ir::ShuffleMode::Up:
      return "up";
    case ir::ShuffleMode::Down:
      return "down";
    case ir::ShuffleMode::Xor:
      return "bfly";
  }
  return "idx";
}

using ir::Opcode;
using ir::ScalarType;

const ir::ValueOperand& operand(const ir::Instruction& inst, std::size_t i) {
  return std::get<ir::ValueOperand>(inst.operands[i].kind);
}

// Integer instructions take .s/.u types; bitwise ones .b; floats their type.
std::string arith_type(ScalarType t) {
  return ptx_type(t);
}

std::string compare_op(Opcode op, ScalarType t) {
  const bool f = ir::is_float(t);
  switch (op) {
    case Opcode::Eq:
      return "eq";
    case Opcode::Ne:
      return f ? "neu" : "ne";  // C's != is true when either side is NaN
    case Opcode::Lt:
      return "lt";
    case Opcode::Le:
      return "le";
    case Opcode::Gt:
      return "gt";
    case Opcode::Ge:
      return "ge";
    default:
      throw std::logic_error("not a comparison");
  }
}

// .b32 or .b64: the untyped register of a value's width.
std::string untyped(ScalarType t) {
  return ir::size_bytes(t) == 8 ? ".b64" : ".b32";
}

// "global", "shared", ..., with dsmem as the cluster's shared window; and ".v2"/".v4".
std::string space_of(const ir::Instruction& inst) {
  return inst.space == ir::Space::Dsmem ? "shared::cluster" : std::string(ir::name(inst.space));
}
std::string vector_of(const ir::Instruction& inst) {
  return inst.vector_width > 1 ? ".v" + std::to_string(inst.vector_width) : "";
}

std::string atomic_type(ir::AtomicOp op, ScalarType t) {
  if (op == ir::AtomicOp::Exch || op == ir::AtomicOp::Cas || op == ir::AtomicOp::And ||
      op == ir::AtomicOp::Or || op == ir::AtomicOp::Xor) {
    return untyped(t);
  }
  if (op == ir::AtomicOp::Add && t == ScalarType::S64) return ".u64";  // same bits; no .s64 add
  return ptx_type(t);
}

}  // namespace

void KernelEmitter::instruction(const ir::Instruction& inst) {
  raw("  // " + std::to_string(inst.loc.line) + ": " + ir::to_string(inst));
  // The IR line as PTX line information (file 1 is the IR), so ptxas -lineinfo maps each SASS
  // instruction back to the IR instruction it came from; the code is the same with or without.
  if (inst.loc.line != 0) raw("  .loc 1 " + std::to_string(inst.loc.line) + " 1");
  const ScalarType t = inst.type;
  const std::string d = inst.dests.empty() ? "" : reg(inst.dests[0].name);
  auto v = [&](std::size_t i, ScalarType as) { return value(operand(inst, i), as); };
  const bool f = ir::is_float(t);
  switch (inst.opcode) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul: {
      const std::string op = inst.opcode == Opcode::Add   ? "add"
                             : inst.opcode == Opcode::Sub ? "sub"
                                                          : "mul";
      const std::string mod = f ? "." + std::string(ir::name(inst.rounding))
                                : (inst.opcode == Opcode::Mul ? ".lo" : "");
      line(op + mod + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t));
      return;
    }
    case Opcode::MulHi:
      line("mul.hi" + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t));
      return;
    case Opcode::Mad:
      line("mad.lo" + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t) + ", " + v(2, t));
      return;
    case Opcode::Fma:
      line("fma." + std::string(ir::name(inst.rounding)) + arith_type(t) + ' ' + d + ", " +
           v(0, t) + ", " + v(1, t) + ", " + v(2, t));
      return;
    case Opcode::Div:
      line(std::string("div") + (f ? "." + std::string(ir::name(inst.rounding)) : "") +
           arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t));
      return;
    case Opcode::Rem:
      line("rem" + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t));
      return;
    case Opcode::Min:
    case Opcode::Max:
      line(std::string(inst.opcode == Opcode::Min ? "min" : "max") + arith_type(t) + ' ' + d +
           ", " + v(0, t) + ", " + v(1, t));
      return;
    case Opcode::Neg:
    case Opcode::Abs:
      line(std::string(inst.opcode == Opcode::Neg ? "neg" : "abs") + arith_type(t) + ' ' + d +
           ", " + v(0, t));
      return;
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor: {
      const std::string op = inst.opcode == Opcode::And  ? "and"
                             : inst.opcode == Opcode::Or ? "or"
                                                         : "xor";
      line(op + ptx_bits(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, t));
      return;
    }
    case Opcode::Not:
      line("not" + ptx_bits(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::Popc:
    case Opcode::Clz: {
      // PTX counts into a 32-bit register whatever the operand's width.
      const std::string op = inst.opcode == Opcode::Popc ? "popc" : "clz";
      if (ir::size_bytes(t) == 4) {
        line(op + ptx_bits(t) + ' ' + d + ", " + v(0, t));
      } else {
        const std::string count = temp(".b32");
        line(op + ptx_bits(t) + ' ' + count + ", " + v(0, t));
        line("cvt.u64.u32 " + d + ", " + count);
      }
      return;
    }
    case Opcode::Brev:
      line("brev" + ptx_bits(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::Sqrt:
    case Opcode::Rcp:
      line(std::string(inst.opcode == Opcode::Sqrt ? "sqrt" : "rcp") + "." +
           std::string(ir::name(inst.rounding)) + arith_type(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::RcpApprox:
      line("rcp.approx.ftz" + arith_type(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::RsqrtApprox:
    case Opcode::Ex2Approx:
    case Opcode::Lg2Approx:
    case Opcode::SqrtApprox:
    case Opcode::SinApprox:
    case Opcode::CosApprox:
      line(std::string(ir::spelling(inst.opcode)) + arith_type(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::DivApprox:
    case Opcode::DivFull:
      line(std::string(ir::spelling(inst.opcode)) + arith_type(t) + ' ' + d + ", " + v(0, t) +
           ", " + v(1, t));
      return;
    case Opcode::Shl:
      line("shl" + ptx_bits(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, ScalarType::U32));
      return;
    case Opcode::Shr:
      line("shr" + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " + v(1, ScalarType::U32));
      return;
    case Opcode::Eq:
    case Opcode::Ne:
    case Opcode::Lt:
    case Opcode::Le:
    case Opcode::Gt:
    case Opcode::Ge:
      if (t == ScalarType::Pred) {  // setp takes no predicates: a == b is !(a ^ b)
        line("xor.pred " + d + ", " + v(0, t) + ", " + v(1, t));
        if (inst.opcode == Opcode::Eq) line("not.pred " + d + ", " + d);
        return;
      }
      line("setp." + compare_op(inst.opcode, t) + arith_type(t) + ' ' + d + ", " + v(0, t) + ", " +
           v(1, t));
      return;
    case Opcode::Select:
      if (t == ScalarType::Pred) {  // selp takes no predicates: (p & a) | (!p & b)
        const std::string a = temp(".pred"), b = temp(".pred"), np = temp(".pred");
        line("and.pred " + a + ", " + v(0, ScalarType::Pred) + ", " + v(1, t));
        line("not.pred " + np + ", " + v(0, ScalarType::Pred));
        line("and.pred " + b + ", " + np + ", " + v(2, t));
        line("or.pred " + d + ", " + a + ", " + b);
        return;
      }
      line("selp" + ptx_bits(t) + ' ' + d + ", " + v(1, t) + ", " + v(2, t) + ", " +
           v(0, ScalarType::Pred));
      return;
    case Opcode::Mov:
      line("mov" + ptx_bits(t) + ' ' + d + ", " + v(0, t));
      return;
    case Opcode::Cvt: {
      const ScalarType s = inst.source_type;
      if (inst.half != ir::HalfFormat::None) {
        half_conversion(inst, d);
        return;
      }
      std::string mod;
      const std::string rounding = "." + std::string(ir::name(inst.rounding));
      if (ir::is_float(t) && !ir::is_float(s)) mod = rounding;
      if (!ir::is_float(t) && ir::is_float(s)) mod = ".rzi";  // saturates, NaN -> 0
      if (t == ScalarType::F32 && s == ScalarType::F64) mod = rounding;
      if (ir::is_int(t) && ir::is_int(s) && ir::size_bytes(t) == ir::size_bytes(s)) {
        line("mov" + ptx_bits(t) + ' ' + d + ", " + v(0, s));
        return;
      }
      line("cvt" + mod + ptx_type(t) + ptx_type(s) + ' ' + d + ", " + v(0, s));
      return;
    }
    case Opcode::Bitcast:
      line("mov" + ptx_bits(t) + ' ' + d + ", " + v(0, inst.source_type));
      return;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
      memory_instruction(inst);
      return;
    case Opcode::Shfl:
    case Opcode::Vote:
    case Opcode::ShflSync:
    case Opcode::VoteSync:
    case Opcode::MatchAny:
    case Opcode::ReduxSync:
    case Opcode::WarpSync:
    case Opcode::BarSync:
    case Opcode::BarRed:
    case Opcode::BarNamed:
    case Opcode::BarArrive:
    case Opcode::ClusterSync:
    case Opcode::Br:
    case Opcode::Jmp:
    case Opcode::Ret:
      warp_instruction(inst);
      return;
  }
}

void KernelEmitter::half_conversion(const ir::Instruction& inst, const std::string& dest) {
  const std::string format = "." + std::string(ir::name(inst.half));
  if (ir::is_float(inst.type)) {
    // Widening is exact; bf16 widens by a shift (what ptxas makes of cvt.f32.bf16, which needs
    // sm_90), so the lowering assembles for every architecture with the same bits.
    const std::string source = value(operand(inst, 0), ScalarType::U32);
    if (inst.half == ir::HalfFormat::BF16) {
      const std::string shifted = temp(".b32");
      line("shl.b32 " + shifted + ", " + source + ", 16");
      if (inst.type == ScalarType::F32) {
        line("mov.b32 " + dest + ", " + shifted);
      } else {
        const std::string single = temp(".f32");
        line("mov.b32 " + single + ", " + shifted);
        line("cvt.f64.f32 " + dest + ", " + single);
      }
      return;
    }
    const std::string bits16 = temp(".b16");
    line("cvt.u16.u32 " + bits16 + ", " + source);
    line("cvt" + ptx_type(inst.type) + format + ' ' + dest + ", " + bits16);
    return;
  }
  const std::string bits16 = temp(".b16");
  line("cvt." + std::string(ir::name(inst.rounding)) + format + ptx_type(inst.source_type) + ' ' +
       bits16 + ", " + value(operand(inst, 0), inst.source_type));
  line("cvt.u32.u16 " + dest + ", " + bits16);
}

void KernelEmitter::memory_instruction(const ir::Instruction& inst) {
  const ScalarType t = inst.type;
  const std::string d = inst.dests.empty() ? "" : reg(inst.dests[0].name);
  auto v = [&](std::size_t i, ScalarType as) { return value(operand(inst, i), as); };
  switch (inst.opcode) {
    case Opcode::Ld: {
      const auto& ref = std::get<ir::MemRef>(inst.operands[0].kind);
      const std::string addr = address(ref, inst.space, t);
      std::string dests = d;
      if (inst.vector_width > 1) {
        dests = "{";
        for (std::size_t i = 0; i < inst.dests.size(); ++i)
          dests += (i ? ", " : "") + reg(inst.dests[i].name);
        dests += "}";
      }
      line("ld." + space_of(inst) + vector_of(inst) + memory_type(inst) + ' ' + dests + ", " +
           addr);
      return;
    }
    case Opcode::St: {
      const auto& ref = std::get<ir::MemRef>(inst.operands[0].kind);
      const std::string addr = address(ref, inst.space, t);
      std::string values;
      if (inst.vector_width > 1) {
        const auto& list = std::get<ir::RegList>(inst.operands[1].kind);
        values = "{";
        for (std::size_t i = 0; i < list.elements.size(); ++i)
          values += (i ? ", " : "") + value(list.elements[i], t);
        values += "}";
      } else {
        values = v(1, t);
      }
      line("st." + space_of(inst) + vector_of(inst) + memory_type(inst) + ' ' + addr + ", " +
           values);
      return;
    }
    case Opcode::Atom: {
      const auto& ref = std::get<ir::MemRef>(inst.operands[0].kind);
      const std::string addr = address(ref, inst.space, t);
      const std::string space = space_of(inst);
      const std::string op(ir::name(inst.atomic_op));
      const std::string type = atomic_type(inst.atomic_op, t);
      std::string operands = v(1, t);
      if (inst.atomic_op == ir::AtomicOp::Cas) operands += ", " + v(2, t);
      const bool has_red =
          inst.atomic_op != ir::AtomicOp::Exch && inst.atomic_op != ir::AtomicOp::Cas;
      if (inst.dests.empty() && has_red) {
        line("red." + space + "." + op + type + ' ' + addr + ", " + operands);
      } else {
        // exch and cas have no reduction form: their old value goes to a scratch register.
        const std::string dst = inst.dests.empty() ? temp(untyped(t).c_str()) : d;
        line("atom." + space + "." + op + type + ' ' + dst + ", " + addr + ", " + operands);
      }
      return;
    }
    default:
      throw std::logic_error("not a memory instruction");
  }
}

void KernelEmitter::warp_instruction(const ir::Instruction& inst) {
  const ScalarType t = inst.type;
  const std::string d = inst.dests.empty() ? "" : reg(inst.dests[0].name);
  auto v = [&](std::size_t i, ScalarType as) { return value(operand(inst, i), as); };
  switch (inst.opcode) {
    case Opcode::Shfl:
    case Opcode::ShflSync: {
      const bool given = inst.opcode == Opcode::ShflSync;
      const std::string mask = given ? v(2, ScalarType::U32) : temp(".b32");
      if (!given) line("activemask.b32 " + mask);
      const char* clamp = inst.shuffle_mode == ir::ShuffleMode::Up ? "0" : "31";
      line("shfl.sync." + std::string(shuffle_spelling(inst.shuffle_mode)) + ".b32 " + d + ", " +
           v(0, t) + ", " + v(1, ScalarType::U32) + ", " + clamp + ", " + mask);
      return;
    }
    case Opcode::Vote:
    case Opcode::VoteSync: {
      const bool given = inst.opcode == Opcode::VoteSync;
      const std::string mask = given ? v(1, ScalarType::U32) : temp(".b32");
      if (!given) line("activemask.b32 " + mask);
      const std::string mode(ir::name(inst.vote_mode));
      line("vote.sync." + mode + (inst.vote_mode == ir::VoteMode::Ballot ? ".b32 " : ".pred ") + d +
           ", " + v(0, ScalarType::Pred) + ", " + mask);
      return;
    }
    case Opcode::MatchAny:
      line(std::string("match.any.sync") + (ir::size_bytes(t) == 8 ? ".b64 " : ".b32 ") + d + ", " +
           v(0, t) + ", " + v(1, ScalarType::U32));
      return;
    case Opcode::WarpSync:
      line("bar.warp.sync " + v(0, ScalarType::U32));
      return;
    case Opcode::ReduxSync: {
      const ir::AtomicOp o = inst.atomic_op;
      const bool bitwise =
          o == ir::AtomicOp::And || o == ir::AtomicOp::Or || o == ir::AtomicOp::Xor;
      line("redux.sync." + std::string(ir::name(o)) + (bitwise ? ".b32 " : arith_type(t) + ' ') +
           d + ", " + v(0, t) + ", " + v(1, ScalarType::U32));
      return;
    }
    case Opcode::BarSync:
      line("bar.sync 0");
      return;
    case Opcode::BarNamed:
    case Opcode::BarArrive:
      line(std::string(inst.opcode == Opcode::BarNamed ? "bar.sync " : "bar.arrive ") +
           v(0, ScalarType::U32) + ", " + v(1, ScalarType::U32));
      return;
    case Opcode::BarRed: {
      const bool count = inst.vote_mode == ir::VoteMode::Popc;
      line("bar.red." + std::string(ir::barrier_reduction_name(inst.vote_mode)) +
           (count ? ".u32 " : ".pred ") + d + ", 0, " + v(0, ScalarType::Pred));
      return;
    }
    case Opcode::ClusterSync:
      line("barrier.cluster.arrive");
      line("barrier.cluster.wait");
      return;
    case Opcode::Br: {
      const std::string t_label = label(std::get<ir::LabelRef>(inst.operands[1].kind).name);
      const std::string f_label = label(std::get<ir::LabelRef>(inst.operands[2].kind).name);
      line("@" + v(0, ScalarType::Pred) + " bra " + t_label);
      line("bra " + f_label);
      return;
    }
    case Opcode::Jmp:
      line("bra " + label(std::get<ir::LabelRef>(inst.operands[0].kind).name));
      return;
    case Opcode::Ret:
      line("ret");
      return;
    default:
      throw std::logic_error("not a warp-wide or control instruction");
  }
}

}  // namespace warpsim::cuda

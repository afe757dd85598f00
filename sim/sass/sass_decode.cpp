// The decoder: opcode names to Op, modifiers to Modifiers, operands to Operand, targets to
// instruction indices. Every name it does not know is an error naming the instruction.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <iterator>
#include <map>
#include <utility>

#include "sim/sass/sass_mbarrier.hpp"
#include "sim/sass/sass_mnemonics.hpp"
#include "sim/sass/sass_operands.hpp"
#include "sim/sass/sass_program.hpp"

namespace warpsim::sass {
namespace {

// Modifiers that select caching, scope, ordering or encoding only.
constexpr std::string_view kHints[] = {"E",
                                       "EF",
                                       "EL",
                                       "LU",
                                       "EU",
                                       "NA",
                                       "CONSTANT",
                                       "STRONG",
                                       "GPU",
                                       "SYS",
                                       "CTA",
                                       "SM",
                                       "WEAK",
                                       "PRIVATE",
                                       "ZD",
                                       "NTZ",
                                       "DEFER_BLOCKING",
                                       "NODEC",
                                       "NOINC",
                                       "REL",
                                       "LUT",
                                       "U",
                                       "ALL",
                                       "MMA",
                                       "IADD",
                                       "MOV",
                                       "SHL",
                                       "BYPASS",
                                       "LTC64B",
                                       "LTC128B",
                                       "LTC256B",
                                       "SPIN"};

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table,
                        std::string_view key) {
  for (const auto& [name, value] : table) {
    if (name == key) return value;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, Compare>, 16> kCompares{{
    {"F", Compare::F},
    {"LT", Compare::LT},
    {"EQ", Compare::EQ},
    {"LE", Compare::LE},
    {"GT", Compare::GT},
    {"NE", Compare::NE},
    {"GE", Compare::GE},
    {"T", Compare::T},
    {"NUM", Compare::NUM},
    {"NAN", Compare::NAN_},
    {"LTU", Compare::LTU},
    {"EQU", Compare::EQU},
    {"LEU", Compare::LEU},
    {"GTU", Compare::GTU},
    {"NEU", Compare::NEU},
    {"GEU", Compare::GEU},
}};
// A NaN immediate as encoded: nvdisasm lists every one as QNAN, but the instruction's bits 32-63
// hold its 32 bits (ptxas keeps nvcc's 0f7FFFFFFF, the GPU's NaN) or, for a double operation,
// the double's high word.
double encoded_nan(const SassInstruction& s) {
  const auto imm32 = static_cast<std::uint32_t>(s.low >> 32);
  if (s.opcode.starts_with("DADD") || s.opcode.starts_with("DMUL") ||
      s.opcode.starts_with("DFMA") || s.opcode.starts_with("DSETP") ||
      s.opcode.starts_with("DMNMX"))
    return std::bit_cast<double>(std::uint64_t{imm32} << 32);
  return static_cast<double>(std::bit_cast<float>(imm32));
}

constexpr std::array<std::pair<std::string_view, DataType>, 19> kTypes{{
    {"U8", DataType::U8},         {"S8", DataType::S8},       {"U16", DataType::U16},
    {"S16", DataType::S16},       {"U32", DataType::U32},     {"S32", DataType::S32},
    {"U64", DataType::U64},       {"S64", DataType::S64},     {"F16", DataType::F16},
    {"BF16", DataType::BF16},     {"F32", DataType::F32},     {"F64", DataType::F64},
    {"128", DataType::B128},      {"F16x2", DataType::F16X2}, {"BF16x2", DataType::BF16X2},
    {"F32x2", DataType::F32X2},   {"F32x4", DataType::F32X4}, {"F16x8", DataType::F16X8},
    {"BF16x4", DataType::BF16X4},
}};
constexpr std::array<std::pair<std::string_view, std::uint8_t>, 37> kSubs{{
    {"RCP", 0},  {"RSQ", 1},    {"SQRT", 2},   {"EX2", 3}, {"LG2", 4},  {"SIN", 5},  {"COS", 6},
    {"TANH", 7}, {"RCP64H", 8}, {"RSQ64H", 9}, {"IDX", 0}, {"UP", 1},   {"DOWN", 2}, {"BFLY", 3},
    {"ANY", 0},  {"ALL", 1},    {"EQ", 2},     {"ADD", 0}, {"MIN", 1},  {"MAX", 2},  {"INC", 3},
    {"DEC", 4},  {"AND", 5},    {"OR", 6},     {"XOR", 7}, {"EXCH", 8}, {"CAS", 9},  {"CAST", 10},
    {"SYNC", 0}, {"ARV", 1},    {"RED", 2},    {"SUM", 0}, {"MIN", 1},  {"MAX", 2},  {"AND", 3},
    {"OR", 4},   {"XOR", 5},
}};

bool is_float_type(DataType t) {
  return t == DataType::F16 || t == DataType::BF16 || t == DataType::F32 || t == DataType::F64;
}

// Applies one modifier to `m`; false when it means nothing the executor implements for `op`.
// HMMA: the shape, then the accumulator's type, then the inputs' (BF16; TF32, read as F32);
// IMMA: the shape, then A's type and B's (S8, U8) in `type` and `dest`; DMMA: its one shape.
bool apply_mma_modifier(Op op, std::string_view mod, Modifiers& m, int& types_seen) {
  constexpr std::array<std::pair<std::string_view, MmaShape>, 5> kShapes{{
      {"16816", MmaShape::M16N8K16},
      {"1688", MmaShape::M16N8K8},
      {"1684", MmaShape::M16N8K4},
      {"16832", MmaShape::M16N8K32},
      {"8816", MmaShape::M8N8K16},
  }};
  if (op == Op::DMMA) return mod == "8x8x4";
  if (const auto shape = lookup(kShapes, mod)) {
    m.sub = static_cast<std::uint8_t>(*shape);
    return true;
  }
  if (op == Op::IMMA) {
    if (mod == "SAT") return m.saturate = true;
    if (mod != "S8" && mod != "U8") return false;
    (types_seen++ == 0 ? m.type : m.dest) = mod == "S8" ? DataType::S8 : DataType::U8;
    return true;
  }
  const auto t = mod == "TF32" ? std::optional{DataType::F32} : lookup(kTypes, mod);
  if (!t || (*t != DataType::F32 && *t != DataType::F16 && *t != DataType::BF16)) return false;
  if (types_seen++ == 0) {
    m.dest = *t;
    m.type = DataType::F16;
  } else {
    m.type = *t;
  }
  return true;
}

bool apply_modifier(Op op, std::string_view mod, Modifiers& m, int& types_seen) {
  const bool setp =
      op == Op::ISETP || op == Op::FSETP || op == Op::DSETP || op == Op::HSETP2 || op == Op::HSET2;
  if (op == Op::HSETP2 && mod == "H_AND") {
    m.sub = kHalvesAnd;
    return true;
  }
  if (op == Op::HSET2 && mod == "BF") {
    m.sub = kBooleanFloat;
    return true;
  }
  if (op == Op::HMMA || op == Op::IMMA || op == Op::DMMA)
    return apply_mma_modifier(op, mod, m, types_seen);
  if (op == Op::SYNCS || op == Op::ARRIVES || op == Op::NANOSLEEP)
    return apply_mbarrier_modifier(op, mod, m);
  if (op == Op::LDSM) {  // .16, then .M88 or .MT88, then the matrix count (.2, .4)
    if (mod == "16") return m.sub == 0 ? (m.sub = 1, true) : false;
    if (mod == "M88") return true;
    if (mod == "MT88") return (m.sub |= kLdsmTransposed), true;
    if (mod == "2" || mod == "4") {
      m.sub = static_cast<std::uint8_t>((m.sub & kLdsmTransposed) | (mod == "2" ? 2 : 4));
      return true;
    }
    return false;
  }
  if ((op == Op::IADD3 || op == Op::IMNMX) && (mod == "16x2" || mod == "S16x2" || mod == "U16x2")) {
    m.sub = kPacked16;
    m.is_unsigned = mod == "U16x2";
    return true;
  }
  if (op == Op::F2FP) {
    const std::uint8_t flag = mod == "E4M3"               ? kFp8E4M3
                              : mod == "E5M2"             ? kFp8E5M2
                              : mod == "UNPACK_B"         ? kFp8Unpack
                              : mod == "UNPACK_B_MERGE_C" ? kFp8Unpack | kFp8Merge
                              : mod == "PACK_AB_MERGE_C"  ? kFp8Merge
                                                          : 0;
    if (flag != 0) {
      m.sub |= flag;
      return true;
    }
    if (mod == "SATFINITE") return m.saturate = true;
  }
  if (op == Op::HFMA2 && mod == "RELU") {
    m.sub = kRelu;
    return true;
  }
  if (op == Op::HMNMX2 && mod == "NAN") {
    m.sub = kPropagateNan;
    return true;
  }
  if (op == Op::VABSDIFF4 && mod == "ACC") {
    m.sub = kAccumulate;
    return true;
  }
  if (op == Op::DSETP && (mod == "MIN" || mod == "MAX")) {  // min.f64 / max.f64's selection
    m.sub = mod == "MIN" ? kDsetpMin : kDsetpMax;
    return true;
  }
  if (setp) {
    if (const auto c = lookup(kCompares, mod)) {
      m.compare = *c;
      return true;
    }
    if (mod == "AND" || mod == "OR" || mod == "XOR") {
      m.bool_op = mod == "AND" ? BoolOp::And : mod == "OR" ? BoolOp::Or : BoolOp::Xor;
      return true;
    }
  }
  auto sub_from = [&](std::size_t first, std::size_t count) {
    for (std::size_t i = first; i < first + count; ++i) {
      if (kSubs[i].first == mod) {
        m.sub = kSubs[i].second;
        return true;
      }
    }
    return false;
  };
  if (op == Op::MUFU && sub_from(0, 10)) return true;
  if (op == Op::SHFL && sub_from(10, 4)) return true;
  if ((op == Op::VOTE || op == Op::MATCH) && sub_from(14, 3)) return op == Op::VOTE || m.sub <= 1;
  if ((op == Op::ATOMG || op == Op::REDG || op == Op::ATOMS || op == Op::ATOM) && sub_from(17, 11))
    return true;
  if (op == Op::BAR && sub_from(28, 3)) return true;
  if (op == Op::BAR && m.sub == static_cast<std::uint8_t>(BarKind::Red) &&
      (mod == "POPC" || mod == "AND" || mod == "OR")) {
    m.bar_reduction = mod == "POPC"  ? BarReduction::Popc
                      : mod == "AND" ? BarReduction::And
                                     : BarReduction::Or;
    return true;
  }
  if (op == Op::B2R && mod == "RESULT") return true;
  if (op == Op::WARPSYNC && mod == "EXCLUSIVE") {
    m.sub = kWarpsyncExclusive;
    return true;
  }
  if ((op == Op::HADD2 || op == Op::HFMA2 || op == Op::HMUL2 || op == Op::HMNMX2 ||
       op == Op::HSETP2 || op == Op::HSET2) &&
      mod == "BF16_V2") {
    m.type = DataType::BF16;
    return true;
  }
  if (op == Op::IDP) {  // 4A or 2A, LO or HI, then a's type and b's
    if (mod == "4A" || mod == "2A") {
      m.sub = mod == "4A" ? 4 : 2;
      return true;
    }
    if (mod == "LO" || mod == "HI") {
      m.high = mod == "HI";
      return true;
    }
    if (const auto t = lookup(kTypes, mod)) {
      (types_seen++ == 0 ? m.type : m.dest) = *t;
      return true;
    }
    return false;
  }
  if (op == Op::BPT && mod == "TRAP") return true;
  if (op == Op::QSPC && (mod == "S" || mod == "G")) {
    m.sub = mod == "S" ? 1 : 0;
    return true;
  }
  if (op == Op::BMOV && (mod == "32" || mod == "CLEAR")) {
    if (mod == "CLEAR") m.sub = kBmovClear;
    return true;
  }
  if (op == Op::CALL && mod == "ABS") {
    m.sub = kCallAbsolute;
    return true;
  }
  if (op == Op::BRA && mod == "DIV") {
    m.sub = kBraDivergent;
    return true;
  }
  if (op == Op::REDUX && sub_from(31, 6)) return true;
  if (mod == "RN" || mod == "RZ" || mod == "RM" || mod == "RP" || mod == "TRUNC" ||
      mod == "FLOOR" || mod == "CEIL") {
    m.rounding = mod == "RN"                       ? Rounding::Nearest
                 : (mod == "RZ" || mod == "TRUNC") ? Rounding::Zero
                 : (mod == "RM" || mod == "FLOOR") ? Rounding::Down
                                                   : Rounding::Up;
    m.truncate = mod == "TRUNC" || mod == "FLOOR" || mod == "CEIL";
    return true;
  }
  if (mod == "32" && op == Op::CS2R) {
    m.sub = 32;
    return true;
  }
  const bool atomic = op == Op::ATOMG || op == Op::REDG || op == Op::ATOMS || op == Op::ATOM;
  if (atomic && mod == "POPC") {
    m.count_lanes = true;
    return true;
  }
  if (atomic && mod == "32") return true;
  if (mod == "64") {
    m.type = DataType::U64;
    return true;
  }
  if (const auto t = lookup(kTypes, mod)) {
    // Conversions name the destination kind first (I2F: its float, F2I: its integer).
    const bool convert =
        op == Op::I2F || op == Op::F2I || op == Op::F2F || op == Op::FRND || op == Op::F2FP;
    if (convert) {
      const bool to_float = op == Op::I2F || op == Op::F2F || op == Op::FRND;
      const bool dest =
          (op == Op::F2F || op == Op::F2FP) ? types_seen == 0 : is_float_type(*t) == to_float;
      (dest ? m.dest : m.type) = *t;
      ++types_seen;
      return true;
    }
    m.type = *t;
    if (*t == DataType::U32 || *t == DataType::U64) m.is_unsigned = true;
    return true;
  }
  if (mod == "X" || mod == "EX")
    m.extended = true;
  else if (mod == "HI" || (mod == "SH" && op == Op::FLO))  // FLO.SH: the shift amount
    m.high = true;
  else if (mod == "L" && op == Op::SHF)
    m.left = true;
  else if (mod == "R" && op == Op::SHF)
    m.left = false;
  else if (mod == "W" && (op == Op::SHF || op == Op::BMSK || op == Op::SGXT))
    m.wrap = true;
  else if (mod == "FTZ")
    m.ftz = true;
  else if (mod == "SAT")
    m.saturate = true;
  else if (mod == "SX32")
    m.sx32 = true;
  else if ((mod == "PACK_AB" && op == Op::F2FP) || (mod == "WIDE" && op == Op::IMADWIDE))
    return true;  // F2FP's only packing; IMAD.WIDE handled by the caller
  else
    return std::find(std::begin(kHints), std::end(kHints), mod) != std::end(kHints);
  return true;
}

struct Decoder {
  const SassFunction& f;
  DecodeError& error;
  std::uint32_t max_reg = 0, max_ureg = 0;
  std::map<std::uint32_t, std::vector<std::uint32_t>> jump_targets;

  // "R2 -0x390   (*"BRANCH_TARGETS .L_x_10,.L_x_3,.L_x_12"*)": the register, the offset and
  // the targets nvdisasm read off the jump table.
  bool indirect_jump(const SassInstruction& s, Instruction& inst) {
    std::string_view text = s.operands;
    constexpr std::string_view kTargets = "(*\"BRANCH_TARGETS ";
    const auto comment = text.find(kTargets);
    if (comment == std::string_view::npos) return fail(s, "BRX without its branch targets");
    std::string_view targets = text.substr(comment + kTargets.size());
    targets = targets.substr(0, targets.find('"'));
    text = text.substr(0, comment);
    std::vector<std::string> words;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find(' ', at), text.size());
      if (end > at) words.emplace_back(text.substr(at, end - at));
      at = end + 1;
    }
    std::string why;
    const auto reg = words.size() == 2 ? parse_operand(words[0], why) : std::nullopt;
    const auto offset = words.size() == 2 ? parse_operand(words[1], why) : std::nullopt;
    if (!reg || reg->kind != OperandKind::Reg || !offset || offset->kind != OperandKind::Imm)
      return fail(s, "BRX other than of a register and an offset is not modelled");
    inst.operands = {*reg, *offset};
    if (reg->index != kZeroReg) max_reg = std::max<std::uint32_t>(max_reg, reg->index);
    std::vector<std::uint32_t>& to = jump_targets[s.address / 16];
    while (!targets.empty()) {
      const std::string_view label = targets.substr(0, targets.find(','));
      targets.remove_prefix(std::min(targets.size(), label.size() + 1));
      const auto index = label_index(label);
      if (!index) return fail(s, "branch target " + std::string(label) + " is not in the listing");
      to.push_back(*index);
    }
    inst.pipe = instruction_pipe(inst, false);
    return true;
  }

  bool fail(const SassInstruction& s, const std::string& why) {
    error.message =
        fmt::format("{}: SASS instruction at /*{:04x}*/ `{}{}{} {}`: {}", f.name, s.address,
                    s.guard, s.guard.empty() ? "" : " ", s.opcode, s.operands, why);
    return false;
  }

  std::optional<std::uint32_t> label_index(std::string_view name) const {
    for (const auto& [label, address] : f.labels) {
      if (label == name) return address / 16;
    }
    if (name == f.name) return 0u;
    return std::nullopt;
  }

  bool guard(const SassInstruction& s, Instruction& inst) {
    if (s.guard.empty()) return true;
    std::string why;
    const auto g = parse_operand(std::string_view(s.guard).substr(1), why);
    if (!g || (g->kind != OperandKind::Pred && g->kind != OperandKind::UPred) ||
        g->index == kPredicateWord)
      return fail(s, "guard " + s.guard);
    inst.guard = g->index;
    inst.guard_negate = g->negate;
    inst.guard_uniform = g->kind == OperandKind::UPred;
    return true;
  }

  bool instruction(const SassInstruction& s, Instruction& inst) {
    inst.address = s.address;
    inst.listed = &s;
    const std::string_view base = s.base();
    const auto row = find_mnemonic(base);
    if (!row) return fail(s, "opcode " + std::string(base) + " is not modelled");
    const Mnemonic& name = kMnemonics[*row];
    inst.mnemonic = *row;
    inst.op = name.op;
    if (inst.op == Op::NOP) {
      inst.pipe = name.pipe;
      if (base == "YIELD") inst.mods.sub = kNopYield;
      return guard(s, inst);
    }
    inst.mods.uniform = name.uniform;
    if (inst.op == Op::I2F) inst.mods.type = DataType::S32, inst.mods.dest = DataType::F32;
    if (inst.op == Op::F2I) inst.mods.type = DataType::F32, inst.mods.dest = DataType::S32;
    if (inst.op == Op::FRND) inst.mods.type = DataType::F32, inst.mods.dest = DataType::F32;
    if (inst.op == Op::ISETP || inst.op == Op::SHF) inst.mods.type = DataType::S32;
    // A REDUX without an operation is an AND: nvdisasm lists __reduce_and_sync as `REDUX UR7,
    // R19` beside REDUX.OR and REDUX.XOR.
    if (inst.op == Op::REDUX) inst.mods.sub = static_cast<std::uint8_t>(ReduxOp::And);
    int types_seen = 0;
    std::string_view mods = std::string_view(s.opcode).substr(base.size());
    while (!mods.empty()) {
      mods.remove_prefix(1);  // the '.'
      const std::string_view mod = mods.substr(0, mods.find('.'));
      mods.remove_prefix(mod.size());
      if (inst.op == Op::IMAD && mod == "WIDE") inst.op = Op::IMADWIDE;
      if (!apply_modifier(inst.op, mod, inst.mods, types_seen))
        return fail(s, "modifier ." + std::string(mod) + " is not modelled");
    }
    if (inst.op == Op::BAR && inst.mods.sub == static_cast<std::uint8_t>(BarKind::Red) &&
        inst.mods.bar_reduction == BarReduction::None)
      return fail(s, "BAR.RED without POPC, AND or OR is not modelled");
    if (inst.op == Op::B2R && s.opcode != "B2R.RESULT")
      return fail(s, "only B2R.RESULT (a BAR.RED's result) is modelled");
    if (!guard(s, inst)) return false;
    if (inst.op == Op::BRX) return indirect_jump(s, inst);
    for (const std::string& text : split_operands(s.operands)) {
      if (const auto label = target_label(text)) {
        const auto index = label_index(*label);
        if (!index) return fail(s, "branch target " + *label + " is not in the listing");
        // RET names its function; its target is the return address register.
        if (inst.op != Op::RET) inst.target = *index;
        continue;
      }
      std::string why;
      auto op = parse_operand(text, why);
      if (!op) return fail(s, why + " is not understood");
      if (op->kind == OperandKind::Imm && op->is_real && std::isnan(op->real))
        op->real = encoded_nan(s);
      if (op->kind == OperandKind::Pred && op->index == kPredicateWord && inst.op != Op::P2R &&
          inst.op != Op::R2P)
        return fail(s, "operand PR outside P2R and R2P is not modelled");
      const bool packed_half = inst.op == Op::HADD2 || inst.op == Op::HFMA2 ||
                               inst.op == Op::HMUL2 || inst.op == Op::HMNMX2 ||
                               inst.op == Op::HSETP2 || inst.op == Op::HSET2;
      if (op->part_bytes != 0 && inst.op != Op::I2F && !packed_half) {
        return fail(s,
                    "operand '" + std::string(text) + "' (a part of a register) is not modelled");
      }
      if (op->kind == OperandKind::Reg && op->index != kZeroReg)
        max_reg = std::max<std::uint32_t>(max_reg, op->index);
      if ((op->kind == OperandKind::Mem || op->kind == OperandKind::Const) && op->reg != kNoReg &&
          op->reg != kZeroReg)
        max_reg = std::max<std::uint32_t>(max_reg, op->reg);
      if (op->kind == OperandKind::UReg && op->index != kZeroUReg)
        max_ureg = std::max<std::uint32_t>(max_ureg, op->index);
      if (op->kind == OperandKind::Mem && op->bank != kNoReg)
        max_ureg = std::max<std::uint32_t>(max_ureg, op->bank);
      // A generic access's address is a register pair, listed as one register (ATOM [R12]).
      inst.operands.push_back(*op);
      if (op->kind == OperandKind::Mem && inst.op == Op::ATOM && op->reg != kNoReg)
        inst.operands.back().wide = true;
    }
    inst.pipe = instruction_pipe(inst, s.opcode.find(".MMA") != std::string::npos);
    return true;
  }
};

// Which instructions a warp can reach from the entry without taking a BRA.DIV (whose target is
// the general path for a warp whose lanes do not run together). An instruction that was not
// decoded is taken to fall through.
std::vector<bool> reached_by_converged_warps(const SassProgram& program) {
  const std::vector<Instruction>& insts = program.insts;
  std::vector<bool> reached(insts.size(), false);
  std::vector<std::uint32_t> work{0};
  while (!work.empty()) {
    const std::uint32_t i = work.back();
    work.pop_back();
    if (i >= insts.size() || reached[i]) continue;
    reached[i] = true;
    const Instruction& inst = insts[i];
    const bool always = inst.guard == kTruePred && !inst.guard_negate;
    bool falls_through = true;
    if (!inst.unmodelled) {
      switch (inst.op) {
        case Op::BRA:
          if (inst.mods.sub == kBraDivergent) break;
          work.push_back(inst.target);
          falls_through = !always || !inst.operands.empty();
          break;
        case Op::BSSY:
        case Op::CALL:
          work.push_back(inst.target);
          break;
        case Op::EXIT:
        case Op::RET:
          falls_through = !always;
          break;
        case Op::BRX:
          for (const std::uint32_t t : program.jump_targets.at(i)) work.push_back(t);
          falls_through = !always;
          break;
        default:
          break;
      }
    }
    if (falls_through) work.push_back(i + 1);
  }
  return reached;
}

}  // namespace

std::optional<SassProgram> decode_program(const SassFunction& f, DecodeError& error) {
  SassProgram program;
  program.kernel = f.name;
  Decoder decoder{f, error, 0, 0, {}};
  program.insts.resize(f.instructions.empty() ? 0 : f.instructions.back().address / 16 + 1);
  for (const SassInstruction& s : f.instructions) {
    if (s.address % 16 != 0) {
      error.message = fmt::format("{}: SASS instruction at /*{:04x}*/ is not 16-byte aligned",
                                  f.name, s.address);
      return std::nullopt;
    }
    Instruction& inst = program.insts[s.address / 16];
    if (!decoder.instruction(s, inst)) {
      program.unmodelled.emplace_back(s.address / 16, error.message);
      inst = Instruction{};
      inst.address = s.address;
      inst.listed = &s;
      inst.unmodelled = true;
    }
  }
  program.jump_targets = std::move(decoder.jump_targets);
  // An instruction not modelled is refused unless only divergent warps can reach it.
  if (!program.unmodelled.empty()) {
    const std::vector<bool> reached = reached_by_converged_warps(program);
    for (const auto& [index, why] : program.unmodelled) {
      if (!reached[index]) continue;
      error.message = why;
      return std::nullopt;
    }
    error.message.clear();
  }
  // Room for the widest access through the last register named (a 128-bit load's four).
  program.registers = std::min<std::uint32_t>(decoder.max_reg + 4, kZeroReg);
  program.uniform_registers = std::min<std::uint32_t>(decoder.max_ureg + 4, kZeroUReg);
  return program;
}

}  // namespace warpsim::sass

// Branches, exits, barriers, fences, shuffles and votes. A shuffle or vote over the whole warp
// (member mask 0xffffffff) is the IR's shfl or vote over the active lanes; one with another
// mask is the IR's shfl.sync or vote.sync, which take the mask (and fault where a member is not
// active: PTX leaves it undefined, and warpsim cannot wait for a lane on another path).
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

constexpr std::uint64_t kFullMask = 0xffffffffu;

}  // namespace

bool EntryTranslator::control(const OpcodeParts& parts) {
  const std::string& b = parts.base;
  if (b == "ret" || b == "exit") {
    emit(ir::Opcode::Ret, ir::ScalarType::Pred, {}, {});
    return true;
  }
  if (b == "bra") {
    expect_operands(1);
    const auto* target = std::get_if<Symbol>(&operand(0));
    if (target == nullptr) throw Unsupported{"an indirect branch (brx.idx) is not imported"};
    emit(ir::Opcode::Jmp, ir::ScalarType::Pred, {},
         {ir::Operand{ir::LabelRef{label_name(target->name)}, {}}});
    return true;
  }
  if (b == "bar" && parts.has("warp")) {  // bar.warp.sync members: CUDA's __syncwarp
    refuse_modifiers(parts, {"warp", "sync"});
    expect_operands(1);
    emit(ir::Opcode::WarpSync, ir::ScalarType::Pred, {},
         {op(value(operand(0), ir::ScalarType::U32))});
    return true;
  }
  if ((b == "bar" || b == "barrier") && parts.has("red")) return barrier_reduction(parts);
  if (b == "bar" || b == "barrier") {
    const bool arrive = parts.has("arrive");
    const bool sync = parts.mods.empty() || parts.has("sync");
    if ((!sync && !arrive) || parts.has("cluster")) {
      throw Unsupported{"'" + current_->opcode +
                        "' is not imported (bar.sync and bar.arrive with a barrier id are)"};
    }
    // bar.sync ID, COUNT and bar.arrive ID, COUNT: named barriers (the IR's own rows).
    if (current_->operands.size() == 2) {
      emit(
          arrive ? ir::Opcode::BarArrive : ir::Opcode::BarNamed, ir::ScalarType::Pred, {},
          {op(value(operand(0), ir::ScalarType::U32)), op(value(operand(1), ir::ScalarType::U32))});
      return true;
    }
    const auto id =
        current_->operands.empty() ? std::optional<std::uint64_t>(0) : known_constant(operand(0));
    if (arrive || current_->operands.size() > 2 || id != std::optional<std::uint64_t>(0)) {
      throw Unsupported{
          "a barrier other than 0 without a thread count, or bar.arrive without one, is not "
          "imported (bar.sync 0 and bar.sync ID, COUNT are)"};
    }
    emit(ir::Opcode::BarSync, ir::ScalarType::Pred, {}, {});
    return true;
  }
  if (b == "membar" || b == "fence") {
    // Memory here is sequentially consistent: a fence orders nothing that is not ordered.
    return true;
  }
  return false;
}

// bar.red.popc.u32 d, 0, p / bar.red.and.pred d, 0, p / bar.red.or.pred d, 0, p: CUDA's
// __syncthreads_count, _and, _or (the IR's bar.red). Barrier 0 over the whole block only.
bool EntryTranslator::barrier_reduction(const OpcodeParts& parts) {
  refuse_modifiers(parts, {"red", "cta", "aligned", "popc", "and", "or", "u32", "pred"});
  std::optional<ir::VoteMode> mode;
  if (parts.has("popc") && parts.has("u32")) mode = ir::VoteMode::Popc;
  if (parts.has("and") && parts.has("pred")) mode = ir::VoteMode::All;
  if (parts.has("or") && parts.has("pred")) mode = ir::VoteMode::Any;
  if (!mode) {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (bar.red.popc.u32, bar.red.and.pred and bar.red.or.pred "
                      "are)"};
  }
  if (current_->operands.size() != 3 ||
      known_constant(operand(1)) != std::optional<std::uint64_t>(0)) {
    throw Unsupported{
        "a barrier reduction on a named barrier or with a thread count is not imported "
        "(bar.red on barrier 0 over the whole block is)"};
  }
  const ir::ValueOperand p = value(operand(2), ir::ScalarType::Pred);
  const Dest d =
      dest(operand(0), *mode == ir::VoteMode::Popc ? ir::ScalarType::U32 : ir::ScalarType::Pred);
  emit(ir::Opcode::BarRed, ir::ScalarType::Pred, {d.name}, {op(p)}).vote_mode = *mode;
  finish(d);
  return true;
}

// PTX's shuffle in general (the ISA's pseudo-code): with segment mask s = c[12:8] and clamp
// c[4:0], a lane's segment runs from minLane = lane & s to maxLane = minLane | (clamp & ~s); the
// source j is lane - b (up), lane + b (down), lane ^ b (bfly) or minLane | (b & ~s) (idx), and
// is used when it is in range (j >= maxLane for up, j <= maxLane otherwise), else the lane's
// own value. That is an IR idx shuffle from the chosen lane. `in_range`, when given, receives
// whether j was in range (the shuffle's predicate result).
void EntryTranslator::segmented_shuffle(ir::ShuffleMode mode, std::uint64_t c,
                                        const Register& result, const Register* in_range,
                                        const std::optional<ir::ValueOperand>& members) {
  using ir::Opcode;
  using ir::ScalarType;
  const std::uint64_t s = (c >> 8) & 0x1f, clamp = c & 0x1f;
  const ir::ValueOperand lane{ir::SpecialReg::LaneId, {}};
  const std::string min_lane = fresh_temp(), max_lane = fresh_temp(), j = fresh_temp(),
                    ok = fresh_temp(), source = fresh_temp();
  emit(Opcode::And, ScalarType::U32, {min_lane}, {op(lane), op(number(s))});
  emit(Opcode::Or, ScalarType::U32, {max_lane}, {op(reg(min_lane)), op(number(clamp & ~s & 0x1f))});
  const ir::ValueOperand b = value(operand(2), ScalarType::U32);
  switch (mode) {
    case ir::ShuffleMode::Up:
      emit(Opcode::Sub, ScalarType::S32, {j}, {op(lane), op(b)});
      emit(Opcode::Ge, ScalarType::S32, {ok}, {op(reg(j)), op(reg(max_lane))});
      break;
    case ir::ShuffleMode::Down:
      emit(Opcode::Add, ScalarType::U32, {j}, {op(lane), op(b)});
      emit(Opcode::Le, ScalarType::U32, {ok}, {op(reg(j)), op(reg(max_lane))});
      break;
    case ir::ShuffleMode::Xor:
      emit(Opcode::Xor, ScalarType::U32, {j}, {op(lane), op(b)});
      emit(Opcode::Le, ScalarType::U32, {ok}, {op(reg(j)), op(reg(max_lane))});
      break;
    case ir::ShuffleMode::Idx: {
      const std::string within = fresh_temp();
      emit(Opcode::And, ScalarType::U32, {within}, {op(b), op(number(~s & 0x1f))});
      emit(Opcode::Or, ScalarType::U32, {j}, {op(reg(min_lane)), op(reg(within))});
      emit(Opcode::Le, ScalarType::U32, {ok}, {op(reg(j)), op(reg(max_lane))});
      break;
    }
  }
  emit(Opcode::Select, ScalarType::U32, {source}, {op(reg(ok)), op(reg(j)), op(lane)});
  ScalarType t = ScalarType::U32;
  if (const auto* r = std::get_if<Register>(&operand(1)); r && !special_register(r->name)) {
    const ScalarType st = storage_of(*r);
    if (st != ScalarType::Pred && ir::size_bytes(st) == 4) t = st;
  }
  const ir::ValueOperand a = value(operand(1), t);
  const Dest d = dest(result, t);
  ir::Instruction& inst = emit_shuffle(t, d.name, a, reg(source), members);
  inst.shuffle_mode = ir::ShuffleMode::Idx;
  finish(d);
  if (in_range != nullptr) {
    const Dest p = dest(*in_range, ScalarType::Pred);
    emit(Opcode::Mov, ScalarType::Pred, {p.name}, {op(reg(ok))});
  }
}

std::optional<ir::ValueOperand> EntryTranslator::member_mask(std::size_t operand_index) {
  if (const auto c = known_constant(operand(operand_index)); c && (*c & kFullMask) == kFullMask) {
    return std::nullopt;
  }
  return value(operand(operand_index), ir::ScalarType::U32);
}

// The member mask of match.any.sync and redux.sync, whose IR instructions always name their
// members: a whole-warp mask means the lanes executing it (a ballot of true over them).
ir::ValueOperand EntryTranslator::members_or_active(std::size_t operand_index) {
  if (auto members = member_mask(operand_index)) return *members;
  const std::string active = fresh_temp();
  emit(ir::Opcode::Vote, ir::ScalarType::Pred, {active}, {op(number(1))}).vote_mode =
      ir::VoteMode::Ballot;
  return reg(active);
}

ir::Instruction& EntryTranslator::emit_shuffle(ir::ScalarType t, const std::string& dest,
                                               const ir::ValueOperand& value,
                                               const ir::ValueOperand& lane,
                                               const std::optional<ir::ValueOperand>& members) {
  if (members) return emit(ir::Opcode::ShflSync, t, {dest}, {op(value), op(lane), op(*members)});
  return emit(ir::Opcode::Shfl, t, {dest}, {op(value), op(lane)});
}

// match.all.sync.b32/b64 d[|p], a, members (CUDA's __match_all_sync): the members when every
// member holds this lane's value, else 0, and p whether they do. Every member holds the value
// exactly when the members match.any finds holding it are all the members.
bool EntryTranslator::match_all(const OpcodeParts& parts) {
  using ir::Opcode;
  using ir::ScalarType;
  expect_operands(3);
  const ScalarType t = ir::size_bytes(parts.type()) == 8 ? ScalarType::U64 : ScalarType::U32;
  const ir::ValueOperand members = members_or_active(2);
  const ir::ValueOperand a = value(operand(1), t);
  const std::string same = fresh_temp(), all = fresh_temp();
  emit(Opcode::MatchAny, t, {same}, {op(a), op(members)});
  emit(Opcode::Eq, ScalarType::U32, {all}, {op(reg(same)), op(members)});
  const Operand& target = operand(0);
  const auto* pair = std::get_if<PairOperand>(&target);
  const Dest d = dest(pair ? Operand{pair->first} : target, ScalarType::U32);
  emit(Opcode::Select, ScalarType::U32, {d.name}, {op(reg(all)), op(members), op(number(0))});
  finish(d);
  if (pair) {
    const Dest p = dest(Operand{pair->second}, ScalarType::Pred);
    emit(Opcode::Mov, ScalarType::Pred, {p.name}, {op(reg(all))});
    finish(p);
  }
  return true;
}

bool EntryTranslator::warp_reduction(const OpcodeParts& parts) {
  // redux.sync.OP.T d, a, members (CUDA's __reduce_OP_sync): the IR's redux.sync; a whole-warp
  // mask means the lanes executing it, as for match.
  static const std::map<std::string, ir::AtomicOp, std::less<>> kOps = {
      {"add", ir::AtomicOp::Add}, {"min", ir::AtomicOp::Min}, {"max", ir::AtomicOp::Max},
      {"and", ir::AtomicOp::And}, {"or", ir::AtomicOp::Or},   {"xor", ir::AtomicOp::Xor}};
  std::optional<ir::AtomicOp> reduction;
  for (const auto& [name, o] : kOps) {
    if (parts.has(name)) reduction = o;
  }
  const ir::ScalarType t = parts.type();
  if (!parts.has("sync") || !reduction || ir::size_bytes(t) != 4 || !ir::is_int(t)) {
    throw Unsupported{"'" + current_->opcode +
                      "' is not imported (redux.sync of 32-bit integers with add, min, max, "
                      "and, or, xor is)"};
  }
  expect_operands(3);
  const ir::ValueOperand members = members_or_active(2);
  const ir::ValueOperand a = value(operand(1), t);
  const Dest d = dest(operand(0), t);
  emit(ir::Opcode::ReduxSync, t, {d.name}, {op(a), op(members)}).atomic_op = *reduction;
  finish(d);
  return true;
}

bool EntryTranslator::warp_wide(const OpcodeParts& parts) {
  const std::string& b = parts.base;
  if (b == "shfl") {
    const bool sync = parts.has("sync");
    expect_operands(sync ? 5 : 4);
    static const std::map<std::string, ir::ShuffleMode, std::less<>> kModes = {
        {"idx", ir::ShuffleMode::Idx},
        {"up", ir::ShuffleMode::Up},
        {"down", ir::ShuffleMode::Down},
        {"bfly", ir::ShuffleMode::Xor}};
    std::optional<ir::ShuffleMode> mode;
    for (const std::string& m : parts.mods) {
      if (auto it = kModes.find(m); it != kModes.end()) mode = it->second;
    }
    if (!mode || parts.type() != ir::ScalarType::U32) throw Unsupported{"a malformed shfl"};
    const auto clamp = known_constant(operand(3));
    if (!clamp) {
      throw Unsupported{
          "a shuffle whose segment and clamp (c) are run-time values is not "
          "imported"};
    }
    const std::optional<ir::ValueOperand> members =
        sync ? member_mask(4) : std::optional<ir::ValueOperand>{};
    const Operand& target = operand(0);
    const auto* pair = std::get_if<PairOperand>(&target);
    const bool in_range_read = pair && is_read(pair->second);
    const std::uint64_t full_width = *mode == ir::ShuffleMode::Up ? 0 : 0x1f;
    if (*clamp != full_width || in_range_read) {
      segmented_shuffle(*mode, *clamp, pair ? pair->first : std::get<Register>(target),
                        in_range_read ? &pair->second : nullptr, members);
      return true;
    }
    const Register& result = pair ? pair->first : std::get<Register>(target);
    // The value's own 32-bit type, so a float shuffles without casts.
    ir::ScalarType t = ir::ScalarType::U32;
    if (const auto* r = std::get_if<Register>(&operand(1)); r && !special_register(r->name)) {
      const ir::ScalarType s = storage_of(*r);
      if (s != ir::ScalarType::Pred && ir::size_bytes(s) == 4) t = s;
    }
    const ir::ValueOperand a = value(operand(1), t);
    const ir::ValueOperand lane = value(operand(2), ir::ScalarType::U32);
    const Dest d = dest(result, t);
    ir::Instruction& inst = emit_shuffle(t, d.name, a, lane, members);
    inst.shuffle_mode = *mode;
    finish(d);
    return true;
  }
  if (b == "match") {
    // match.any.sync.b32/b64 d, a, members: the members holding this lane's value. A whole-warp
    // mask means the lanes executing it, as for the plain shuffles and votes.
    if (parts.has("all") && parts.has("sync")) return match_all(parts);
    if (!parts.has("any") || !parts.has("sync")) {
      throw Unsupported{"'" + current_->opcode + "' is not imported (match.any.sync is)"};
    }
    expect_operands(3);
    const bool wide = ir::size_bytes(parts.type()) == 8;
    const ir::ScalarType t = wide ? ir::ScalarType::U64 : ir::ScalarType::U32;
    const ir::ValueOperand members = members_or_active(2);
    const ir::ValueOperand a = value(operand(1), t);
    const Dest d = dest(operand(0), ir::ScalarType::U32);
    emit(ir::Opcode::MatchAny, t, {d.name}, {op(a), op(members)});
    finish(d);
    return true;
  }
  if (b == "redux") return warp_reduction(parts);
  if (b == "activemask") {
    // The lanes executing it: the IR's ballot of true over the active lanes.
    expect_operands(1);
    const Dest d = dest(operand(0), ir::ScalarType::U32);
    ir::Instruction& inst = emit(ir::Opcode::Vote, ir::ScalarType::Pred, {d.name}, {op(number(1))});
    inst.vote_mode = ir::VoteMode::Ballot;
    finish(d);
    return true;
  }
  if (b == "vote") {
    const bool sync = parts.has("sync");
    expect_operands(sync ? 3 : 2);
    std::optional<ir::VoteMode> mode;
    if (parts.has("ballot")) mode = ir::VoteMode::Ballot;
    if (parts.has("any")) mode = ir::VoteMode::Any;
    if (parts.has("all")) mode = ir::VoteMode::All;
    if (!mode)
      throw Unsupported{"'" + current_->opcode + "' is not imported (ballot, any and all are)"};
    const std::optional<ir::ValueOperand> members =
        sync ? member_mask(2) : std::optional<ir::ValueOperand>{};
    const ir::ValueOperand p = value(operand(1), ir::ScalarType::Pred);
    const ir::ScalarType result =
        *mode == ir::VoteMode::Ballot ? ir::ScalarType::U32 : ir::ScalarType::Pred;
    const Dest d = dest(operand(0), result);
    ir::Instruction& inst =
        members ? emit(ir::Opcode::VoteSync, ir::ScalarType::Pred, {d.name}, {op(p), op(*members)})
                : emit(ir::Opcode::Vote, ir::ScalarType::Pred, {d.name}, {op(p)});
    inst.vote_mode = *mode;
    finish(d);
    return true;
  }
  return false;
}

}  // namespace warpsim::ptx

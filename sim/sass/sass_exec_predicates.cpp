// Instructions on the predicates P0-P6 as a whole: PLOP3 (a truth table over three predicates,
// indexed as LOP3's), and P2R and R2P, which move them to and from the bits 0-6 of a register
// (PR, the predicate word: ptxas saves predicates so around a call).
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

Operand predicate(unsigned index) {
  Operand p;
  p.kind = OperandKind::Pred;
  p.index = static_cast<std::uint8_t>(index);
  return p;
}

void plop3(const Lanes& x) {
  // Pd, Pe, a, b, c, lut_d, lut_e
  x.each([&](unsigned lane) {
    const std::uint32_t a = x.pred(x.op(2), lane) ? 1u : 0u;
    const std::uint32_t b = x.pred(x.op(3), lane) ? 1u : 0u;
    const std::uint32_t c = x.pred(x.op(4), lane) ? 1u : 0u;
    const std::uint32_t index = a << 2 | b << 1 | c;
    x.set_pred(x.op(0), lane, ((x.raw(x.op(5), lane) >> index) & 1u) != 0);
    x.set_pred(x.op(1), lane, ((x.raw(x.op(6), lane) >> index) & 1u) != 0);
  });
}

// P2R Rd, PR, Ra, mask: the bits of mask from P0-P6 (bit i from Pi), the others Ra's.
void predicates_to_register(const Lanes& x) {
  if (x.count() != 4 || x.op(1).index != kPredicateWord)
    x.fault(0, "a P2R other than P2R R, PR, R, mask");
  x.each([&](unsigned lane) {
    std::uint32_t bits = 0;
    for (unsigned i = 0; i < kTruePred; ++i) bits |= (x.pred(predicate(i), lane) ? 1u : 0u) << i;
    const std::uint32_t mask = x.u32(x.op(3), lane);
    x.set(x.op(0), lane, (x.u32(x.op(2), lane) & ~mask) | (bits & mask));
  });
}

// R2P PR, Ra, mask: Pi from bit i of Ra, for the bits i < 7 of mask.
void register_to_predicates(const Lanes& x) {
  if (x.count() != 3 || x.op(0).index != kPredicateWord)
    x.fault(0, "an R2P other than R2P PR, R, mask");
  x.each([&](unsigned lane) {
    const std::uint32_t v = x.u32(x.op(1), lane), mask = x.u32(x.op(2), lane);
    for (unsigned i = 0; i < kTruePred; ++i) {
      if (((mask >> i) & 1u) != 0) x.set_pred(predicate(i), lane, ((v >> i) & 1u) != 0);
    }
  });
}

}  // namespace

void execute_predicates(const Lanes& x) {
  switch (x.inst.op) {
    case Op::PLOP3:
      return plop3(x);
    case Op::P2R:
      return predicates_to_register(x);
    case Op::R2P:
      return register_to_predicates(x);
    default:
      return x.fault(0, "not a predicate instruction");
  }
}

}  // namespace warpsim::sass

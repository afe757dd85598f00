// Integer, logic, predicate and move instructions. Semantics as the instructions' names and
// ptxas's use of them define them (sm_70-sm_90): IADD3's carries come out as predicates and go
// back in with .X; IMAD is a*b+c in 32 bits (.WIDE: 64 bits; .HI: the high word of a*b plus
// the pair {c+1:c}); SHF is a funnel shift of the register pair {b:a}; LOP3 applies an
// 8-entry truth table indexed by (a<<2 | b<<1 | c), so a is 0xF0, b 0xCC, c 0xAA (PLOP3 too, on
// predicates: sass_exec_predicates.cpp).
#include <algorithm>
#include <bit>
#include <iterator>

#include "sim/sass/sass_warp_words.hpp"

namespace warpsim::sass {
namespace {

bool is_pred(const Operand& o) {
  return o.kind == OperandKind::Pred || o.kind == OperandKind::UPred;
}

std::uint32_t truth_table(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (((lut >> i) & 1u) == 0) continue;
    r |= ((i & 4u) ? a : ~a) & ((i & 2u) ? b : ~b) & ((i & 1u) ? c : ~c);
  }
  return r;
}

// The lanes whose sum carries at least `count` out of bit 31. A three-input add carries 0, 1 or
// 2, split over its two carry predicates (each worth 1 to IADD3.X, which adds both): the first
// is set from a carry of 1, the second from 2 (ptxas sums three 64-bit values so).
std::uint32_t carry_at_least(const LaneWords64& sum, unsigned count) {
  std::uint32_t bits = 0;
  for (unsigned l = 0; l < kWarpSize; ++l)
    bits |= static_cast<std::uint32_t>((sum[l] >> 32) >= count) << l;
  return bits;
}

// The operand positions of an instruction of the form: dest, [pred outs...], sources...,
// [pred ins...] (IADD3, LEA).
struct OperandLayout {
  std::size_t outs_begin = 1, sources_begin = 1, ins_begin = 1;
};
OperandLayout layout_of(const Lanes& x) {
  OperandLayout s;
  std::size_t i = 1;
  while (i < x.count() && is_pred(x.op(i))) ++i;
  s.sources_begin = i;
  while (i < x.count() && !is_pred(x.op(i))) ++i;
  s.ins_begin = i;
  return s;
}

void iadd3(const Lanes& x) {
  if (x.inst.mods.sub == kPacked16) return add_packed16(x);
  const OperandLayout s = layout_of(x);
  LaneWords64 sum{};
  LaneWords v;
  for (std::size_t i = s.sources_begin; i < s.ins_begin; ++i) {
    const Operand& o = x.op(i);
    read_raw(x, o, v);
    if (o.invert)
      for (std::uint32_t& a : v) a = ~a;
    // -v as the adder sees it: ~v + 1 in 64 bits, so -0 carries out.
    for (unsigned l = 0; l < kWarpSize; ++l)
      sum[l] += o.negate ? std::uint64_t{~v[l]} + 1u : std::uint64_t{v[l]};
  }
  if (x.inst.mods.extended) {
    for (std::size_t i = s.ins_begin; i < x.count(); ++i) {
      const std::uint32_t carry = read_pred(x, x.op(i));
      for (unsigned l = 0; l < kWarpSize; ++l) sum[l] += (carry >> l) & 1u;
    }
  }
  for (unsigned l = 0; l < kWarpSize; ++l) v[l] = static_cast<std::uint32_t>(sum[l]);
  write_words(x, x.op(0), v);
  for (std::size_t i = 1; i < s.sources_begin; ++i)
    write_pred(x, x.op(i), carry_at_least(sum, static_cast<unsigned>(i)));
}

// Rd, [Pcarry,] a, b, c[, Pin]. A carry out is modelled for .HI, whose sum is 64 bits wide
// (ptxas's 64-bit divisions chain IMAD.HI.U32 R14, P1, R13, R17, R14 into IADD3.X).
void imad(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const bool carry_out = is_pred(x.op(1));
  const std::size_t first = carry_out ? 2 : 1;
  if (carry_out && !m.high) x.fault(0, "IMAD with a carry out (not .HI or .WIDE) is not modelled");
  LaneWords a, b, c;
  read_u32(x, x.op(first), a);
  read_u32(x, x.op(first + 1), b);
  read_u32(x, x.op(first + 2), c);
  const std::uint32_t carry_in =
      m.extended && x.count() > first + 3 ? read_pred(x, x.op(first + 3)) : 0u;
  LaneWords v;
  if (!m.high) {
    // Without a carry in (nearly always) the loop is the plain multiply-add, which vectorises.
    if (carry_in == 0) {
      for (unsigned l = 0; l < kWarpSize; ++l) v[l] = a[l] * b[l] + c[l];
    } else {
      for (unsigned l = 0; l < kWarpSize; ++l) v[l] = a[l] * b[l] + c[l] + ((carry_in >> l) & 1u);
    }
    return write_words(x, x.op(0), v);
  }
  // .HI: the high word of a*b plus the register pair {c+1:c} (ptxas zeroes c's low word to
  // add c+1 to the product's high word), and the carry out of that 64-bit sum.
  LaneWords64 pair;
  read_raw64(x, x.op(first + 2), pair);
  std::uint32_t carried = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t product =
        m.is_unsigned ? std::uint64_t{a[l]} * b[l]
                      : static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(a[l])} *
                                                   static_cast<std::int32_t>(b[l]));
    const std::uint64_t sum = product + pair[l];
    const std::uint64_t total = sum + ((carry_in >> l) & 1u);
    carried |= static_cast<std::uint32_t>(sum < product || total < sum) << l;
    v[l] = static_cast<std::uint32_t>(total >> 32);
  }
  write_words(x, x.op(0), v);
  if (carry_out) write_pred(x, x.op(1), carried);
}

// Rd, [Pcarry,] a, b, c[, Pin]: the 64-bit a*b + {c+1:c} (+ Pin with .X), its carry out of bit
// 63 into Pcarry (ptxas multiplies 64-bit integers in 32-bit pieces so: mul.hi.u64).
void imad_wide(const Lanes& x) {
  const bool is_unsigned = x.inst.mods.is_unsigned;
  const bool carry_out = is_pred(x.op(1));
  const std::size_t first = carry_out ? 2 : 1;
  LaneWords a, b;
  LaneWords64 c;
  read_u32(x, x.op(first), a);
  read_u32(x, x.op(first + 1), b);
  read_raw64(x, x.op(first + 2), c);
  const std::uint32_t carry_in =
      x.inst.mods.extended && x.count() > first + 3 ? read_pred(x, x.op(first + 3)) : 0u;
  std::uint32_t carried = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t product =
        is_unsigned ? std::uint64_t{a[l]} * b[l]
                    : static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(a[l])} *
                                                 static_cast<std::int32_t>(b[l]));
    const std::uint64_t sum = c[l] + product;
    const std::uint64_t total = sum + ((carry_in >> l) & 1u);
    carried |= static_cast<std::uint32_t>(sum < product || total < sum) << l;
    c[l] = total;
  }
  write_words64(x, x.op(0), c);
  if (carry_out) write_pred(x, x.op(1), carried);
}

void lea(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const OperandLayout s = layout_of(x);
  const std::size_t sources = s.ins_begin - s.sources_begin;
  LaneWords shift, a, b, high{};
  read_raw(x, x.op(s.ins_begin - 1), shift);
  read_raw(x, x.op(s.sources_begin), a);
  if (x.op(s.sources_begin).invert)
    for (std::uint32_t& v : a) v = ~v;
  read_u32(x, x.op(s.sources_begin + 1), b);
  if (m.high && !m.sx32 && sources == 4) read_u32(x, x.op(s.sources_begin + 2), high);
  LaneWords64 sum;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint32_t amount = shift[l] & 31u;
    if (m.high) {
      const std::uint32_t top = m.sx32 ? ((a[l] & 0x80000000u) ? 0xffffffffu : 0u) : high[l];
      const std::uint64_t pair = std::uint64_t{top} << 32 | a[l];
      sum[l] = std::uint64_t{b[l]} + static_cast<std::uint32_t>((pair << amount) >> 32);
    } else {
      sum[l] = std::uint64_t{static_cast<std::uint32_t>(a[l] << amount)} + b[l];
    }
  }
  if (m.extended) {
    for (std::size_t i = s.ins_begin; i < x.count(); ++i) {
      const std::uint32_t carry = read_pred(x, x.op(i));
      for (unsigned l = 0; l < kWarpSize; ++l) sum[l] += (carry >> l) & 1u;
    }
  }
  LaneWords v;
  for (unsigned l = 0; l < kWarpSize; ++l) v[l] = static_cast<std::uint32_t>(sum[l]);
  write_words(x, x.op(0), v);
  for (std::size_t i = 1; i < s.sources_begin; ++i) write_pred(x, x.op(i), carry_at_least(sum, 1));
}

void shf(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const bool wide = m.type == DataType::U64 || m.type == DataType::S64;
  const bool is_signed = m.type == DataType::S32 || m.type == DataType::S64;
  const unsigned limit = wide ? 64 : 32;
  LaneWords low, amounts, top, v;
  read_u32(x, x.op(1), low);
  read_raw(x, x.op(2), amounts);
  read_u32(x, x.op(3), top);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t pair = std::uint64_t{top[l]} << 32 | low[l];
    const std::uint32_t amount = m.wrap ? amounts[l] & (limit - 1) : std::min(amounts[l], limit);
    std::uint64_t r = 0;
    if (m.left) {
      r = amount >= 64 ? 0 : pair << amount;
    } else if (is_signed) {
      const auto sp = static_cast<std::int64_t>(pair);
      r = static_cast<std::uint64_t>(amount >= 64 ? (sp < 0 ? -1 : 0) : sp >> amount);
    } else {
      r = amount >= 64 ? 0 : pair >> amount;
    }
    v[l] = static_cast<std::uint32_t>(m.high ? r >> 32 : r);
  }
  write_words(x, x.op(0), v);
}

void lop3(const Lanes& x) {
  // [Pd,] Rd, a, b, c, lut, Pq: Pd is set when the result is not zero (Pq must be !PT).
  const bool pred_out = is_pred(x.op(0));
  const std::size_t d = pred_out ? 1 : 0;
  const Operand& q = x.op(x.count() - 1);
  if (!is_pred(q) || q.index != kTruePred || !q.negate)
    x.fault(0, "LOP3 with a predicate input other than !PT is not modelled");
  LaneWords a, b, c, lut, v;
  read_u32(x, x.op(d + 1), a);
  read_u32(x, x.op(d + 2), b);
  read_u32(x, x.op(d + 3), c);
  read_raw(x, x.op(d + 4), lut);
  std::uint32_t nonzero = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    v[l] = truth_table(a[l], b[l], c[l], lut[l]);
    nonzero |= static_cast<std::uint32_t>(v[l] != 0) << l;
  }
  write_words(x, x.op(d), v);
  if (pred_out) write_pred(x, x.op(0), nonzero);
}

bool compare_int(Compare c, std::uint64_t a, std::uint64_t b, bool is_unsigned, bool wide) {
  const std::int64_t sa =
      wide ? static_cast<std::int64_t>(a) : std::int64_t{static_cast<std::int32_t>(a)};
  const std::int64_t sb =
      wide ? static_cast<std::int64_t>(b) : std::int64_t{static_cast<std::int32_t>(b)};
  const auto lt = is_unsigned ? a < b : sa < sb;
  const auto gt = is_unsigned ? a > b : sa > sb;
  switch (c) {
    case Compare::LT:
      return lt;
    case Compare::EQ:
      return a == b;
    case Compare::LE:
      return !gt;
    case Compare::GT:
      return gt;
    case Compare::NE:
      return a != b;
    case Compare::GE:
      return !lt;
    case Compare::T:
      return true;
    default:
      return false;
  }
}

void isetp(const Lanes& x) {
  // Pd, Pe, a, b, Pc [, Pex]: r = a cmp b (.EX: of the high words, the low words' result in
  // Pex when they are equal); Pd = r bop Pc, Pe = !r bop Pc.
  const Modifiers& m = x.inst.mods;
  LaneWords a, b;
  read_u32(x, x.op(2), a);
  read_u32(x, x.op(3), b);
  const std::uint32_t low_result = m.extended && x.count() > 5 ? read_pred(x, x.op(5)) : 0u;
  std::uint32_t r = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    bool v = compare_int(m.compare, a[l], b[l], m.is_unsigned, false);
    if (m.extended && x.count() > 5 && a[l] == b[l]) v = ((low_result >> l) & 1u) != 0;
    r |= static_cast<std::uint32_t>(v) << l;
  }
  const std::uint32_t c = read_pred(x, x.op(4));
  auto combine = [&](std::uint32_t v) {
    return m.bool_op == BoolOp::And ? v & c : m.bool_op == BoolOp::Or ? v | c : v ^ c;
  };
  write_pred(x, x.op(0), combine(r));
  write_pred(x, x.op(1), combine(~r));
}

std::uint32_t permute(std::uint32_t a, std::uint32_t selector, std::uint32_t b) {
  const std::uint64_t bytes = std::uint64_t{b} << 32 | a;
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const std::uint32_t s = (selector >> (4 * i)) & 0xfu;
    std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (s & 7u))) & 0xffu;
    if (s & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;  // replicate the sign
    r |= byte << (8 * i);
  }
  return r;
}

void select(const Lanes& x) {
  LaneWords a, b;
  read_u32(x, x.op(1), a);
  read_u32(x, x.op(2), b);
  const std::uint32_t take_a = read_pred(x, x.op(3));
  for (unsigned l = 0; l < kWarpSize; ++l) a[l] = ((take_a >> l) & 1u) != 0 ? a[l] : b[l];
  write_words(x, x.op(0), a);
}

// MOV (modifiers applied) and S2R, S2UR, R2UR (the raw bits).
void copy(const Lanes& x, bool with_modifiers) {
  LaneWords v;
  if (with_modifiers) {
    read_u32(x, x.op(1), v);
  } else {
    read_raw(x, x.op(1), v);
  }
  write_words(x, x.op(0), v);
}

std::uint32_t special_or_const(const Lanes& x, unsigned lane) {
  const Operand& s = x.op(1);
  if (x.inst.op == Op::LDC) {
    const unsigned bytes = data_bytes(x.inst.mods.type);
    std::uint32_t v = x.raw(s, lane);
    if (bytes == 1)
      v = x.inst.mods.type == DataType::S8 ? static_cast<std::uint32_t>(static_cast<std::int8_t>(v))
                                           : v & 0xffu;
    if (bytes == 2)
      v = x.inst.mods.type == DataType::S16
              ? static_cast<std::uint32_t>(static_cast<std::int16_t>(v))
              : v & 0xffffu;
    return v;
  }
  return x.raw(s, lane);
}

}  // namespace

void execute_integer(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  switch (x.inst.op) {
    case Op::IADD3:
      return iadd3(x);
    case Op::IMAD:
      return imad(x);
    case Op::IMADWIDE:
      return imad_wide(x);
    case Op::LEA:
      return lea(x);
    case Op::SHF:
      return shf(x);
    case Op::LOP3:
      return lop3(x);
    case Op::PLOP3:
    case Op::P2R:
    case Op::R2P:
      return execute_predicates(x);
    case Op::ISETP:
      return isetp(x);
    case Op::IMNMX:
      if (m.sub == kPacked16) return min_max_packed16(x);
      // IMNMX d, a, b, P or VIMNMX3 d, a, b, c, P: the minimum (P) or maximum of the sources.
      return x.each([&](unsigned lane) {
        const std::size_t predicate = x.count() - 1;
        const bool min = x.pred(x.op(predicate), lane);
        std::uint32_t best = x.u32(x.op(1), lane);
        for (std::size_t i = 2; i < predicate; ++i) {
          const std::uint32_t v = x.u32(x.op(i), lane);
          const bool v_less = m.is_unsigned
                                  ? v < best
                                  : static_cast<std::int32_t>(v) < static_cast<std::int32_t>(best);
          if (v_less == min && v != best) best = v;
        }
        x.set(x.op(0), lane, best);
      });
    case Op::IADDMNMX:
      // min or max (Pp: min) of a+b and c.
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane) + x.u32(x.op(2), lane),
                            b = x.u32(x.op(3), lane);
        const bool min = x.pred(x.op(4), lane);
        const bool a_less =
            m.is_unsigned ? a < b : static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
        x.set(x.op(0), lane, (a_less == min) ? a : b);
      });
    case Op::IABS:
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane);
        x.set(x.op(0), lane, (a & 0x80000000u) ? ~a + 1u : a);
      });
    case Op::VABSDIFF:
      // The difference is taken exactly (|a - b| < 2^32 in either signedness), the sum wraps.
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane), b = x.u32(x.op(2), lane);
        const bool a_less =
            m.is_unsigned ? a < b : static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
        x.set(x.op(0), lane, (a_less ? b - a : a - b) + x.u32(x.op(3), lane));
      });
    case Op::VABSDIFF4:
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane), b = x.u32(x.op(2), lane);
        std::uint32_t packed = 0, sum = 0;
        for (unsigned i = 0; i < 4; ++i) {
          const auto byte = [&](std::uint32_t w) {
            const std::uint32_t u = (w >> (8 * i)) & 0xffu;
            return m.type == DataType::S8 ? static_cast<std::int32_t>(static_cast<std::int8_t>(u))
                                          : static_cast<std::int32_t>(u);
          };
          const auto d = static_cast<std::uint32_t>(std::abs(byte(a) - byte(b)));
          packed |= (d & 0xffu) << (8 * i);
          sum += d;
        }
        x.set(x.op(0), lane, (m.sub == kAccumulate ? sum : packed) + x.u32(x.op(3), lane));
      });
    case Op::POPC:
      return x.each([&](unsigned lane) {
        x.set(x.op(0), lane, static_cast<std::uint32_t>(std::popcount(x.u32(x.op(1), lane))));
      });
    case Op::FLO:
      return x.each([&](unsigned lane) {
        std::uint32_t a = x.u32(x.op(1), lane);
        if (m.type == DataType::S32 && (a & 0x80000000u)) a = ~a;
        const std::uint32_t position =
            a == 0 ? 0xffffffffu : 31u - static_cast<std::uint32_t>(std::countl_zero(a));
        x.set(x.op(0), lane, a == 0 ? 0xffffffffu : (m.high ? 31u - position : position));
      });
    case Op::IDP:
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane), b = x.u32(x.op(2), lane);
        auto part = [](std::uint32_t v, unsigned bits, unsigned index, DataType t) {
          const std::uint32_t raw = (v >> (bits * index)) & ((1u << bits) - 1);
          const bool is_signed = t == DataType::S8 || t == DataType::S16;
          const std::uint32_t sign = 1u << (bits - 1);
          return is_signed && (raw & sign) ? std::int64_t{raw} - (std::int64_t{1} << bits)
                                           : std::int64_t{raw};
        };
        std::int64_t sum = static_cast<std::int32_t>(x.u32(x.op(3), lane));
        if (m.sub == 4) {
          for (unsigned i = 0; i < 4; ++i) sum += part(a, 8, i, m.type) * part(b, 8, i, m.dest);
        } else {
          const unsigned first = m.high ? 2 : 0;
          for (unsigned i = 0; i < 2; ++i)
            sum += part(a, 16, i, m.type) * part(b, 8, first + i, m.dest);
        }
        x.set(x.op(0), lane, static_cast<std::uint32_t>(sum));
      });
    case Op::BMSK:
      // PTX bmsk: .clamp (the default) limits start and width to 32, .wrap takes them modulo 32.
      return x.each([&](unsigned lane) {
        std::uint32_t start = x.u32(x.op(1), lane), width = x.u32(x.op(2), lane);
        if (m.wrap) {
          start &= 31u;
          width &= 31u;
        }
        const std::uint64_t ones = width >= 32 ? 0xffffffffull : (std::uint64_t{1} << width) - 1;
        x.set(x.op(0), lane, start >= 32 ? 0u : static_cast<std::uint32_t>(ones << start));
      });
    case Op::SGXT:
      return x.each([&](unsigned lane) {
        const std::uint32_t a = x.u32(x.op(1), lane), asked = x.u32(x.op(2), lane);
        const std::uint32_t width = m.wrap ? asked & 31u : std::min(asked, 32u);
        if (width == 0) return x.set(x.op(0), lane, 0u);
        const unsigned unused = 32 - width;
        const std::uint32_t kept = (a << unused) >> unused;
        const bool negative = !m.is_unsigned && ((kept >> (width - 1)) & 1u) != 0;
        x.set(x.op(0), lane, negative ? kept | ~(0xffffffffu >> unused) : kept);
      });
    case Op::BREV:
      return x.each([&](unsigned lane) {
        std::uint32_t a = x.u32(x.op(1), lane), r = 0;
        for (unsigned i = 0; i < 32; ++i, a >>= 1) r = (r << 1) | (a & 1u);
        x.set(x.op(0), lane, r);
      });
    case Op::PRMT:
      return x.each([&](unsigned lane) {
        x.set(x.op(0), lane,
              permute(x.u32(x.op(1), lane), x.u32(x.op(2), lane), x.u32(x.op(3), lane)));
      });
    case Op::SEL:
      return select(x);
    case Op::MOV:
      return copy(x, true);
    case Op::LEPC:  // the byte address, as CALL.REL's return address register holds one
      return x.each([&](unsigned lane) {
        x.set64(x.op(0), lane, std::uint64_t{x.inst.target} * kInstructionBytes);
      });
    case Op::S2R:
    case Op::S2UR:
    case Op::R2UR:
      return copy(x, false);
    case Op::LDC:
      if (x.access != nullptr && !m.uniform) {
        // The constant cache serves each lane's offset in the module's constants (the timing
        // model's constant path). Bank 0 (parameters, launch constants) counts as fetched with
        // the launch, whose measured overhead includes it: no lane of it is a cache access.
        x.access->kind = exec::ArrayKind::Const;
        x.access->mask = x.op(1).bank == 0 ? 0u : x.mask;
        if (is_fixed_constant(x.op(1))) {  // one offset for every lane
          std::fill(std::begin(x.access->addresses), std::end(x.access->addresses),
                    static_cast<std::uint32_t>(x.op(1).value));
        } else {
          x.each(
              [&](unsigned lane) { x.access->addresses[lane] = x.constant_offset(x.op(1), lane); });
        }
      }
      if (data_bytes(m.type) == 8) {
        LaneWords64 v;
        read_raw64(x, x.op(1), v);
        return write_words64(x, x.op(0), v);
      }
      if (data_bytes(m.type) == 4) {  // nothing to extend: the whole warp's words at once
        LaneWords v;
        read_raw(x, x.op(1), v);
        return write_words(x, x.op(0), v);
      }
      return x.each([&](unsigned lane) { x.set(x.op(0), lane, special_or_const(x, lane)); });
    case Op::CS2R: {
      // CS2R R, SR_CLOCKLO (or SR_GLOBALTIMERLO) without .32 reads the whole 64-bit counter.
      const Operand& from = x.op(1);
      const bool counter64 = m.sub != 32 && from.kind == OperandKind::Special &&
                             (from.index == static_cast<std::uint8_t>(Special::ClockLo) ||
                              from.index == static_cast<std::uint8_t>(Special::GlobalTimerLo));
      const bool is_clock = from.index == static_cast<std::uint8_t>(Special::ClockLo);
      return x.each([&](unsigned lane) {
        const std::uint32_t v = x.raw(from, lane);
        if (m.sub == 32) {
          x.set(x.op(0), lane, v);
        } else {
          x.set64(x.op(0), lane, !counter64 ? v : is_clock ? x.clock() : x.w.executed);
        }
      });
    }
    default:
      return x.fault(0, "not an integer instruction");
  }
}

}  // namespace warpsim::sass

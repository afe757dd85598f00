// The warp-wide matrix products of PTX's mma.sync (what wmma::mma_sync and CUTLASS compile to
// on sm_80 and later): D = A B + C, each lane holding pieces of the matrices in the fragment
// layout the PTX ISA gives for the shape (lane l: group g = l / 4, t = l % 4):
//   HMMA.16816 (f16, bf16)  A 16x16: 4 registers of two halves, (g + 8 (r & 1), 2t + h + 8 (r >>
//   1))
//                           B 16x8:  2 registers, (2t + h + 8r, g)
//   HMMA.1688 (f16)         A 16x8:  2 registers, (g + 8r, 2t + h);  B 8x8: 1 register, (2t + h, g)
//   HMMA.1684 (tf32)        A 16x4:  2 registers, (g + 8r, t);       B 4x8: 1 register, (t, g)
//   HMMA.1688 (tf32)        A 16x8:  4 registers, (g + 8 (r & 1), t + 4 (r >> 1)); B 2, (t + 4r, g)
//   IMMA.16816 (s8, u8)     A 16x16: 2 registers of 4 bytes, (g + 8r, 4t + e); B 1, (4t + e, g)
//   IMMA.16832 (s8, u8)     A 16x32: 4 registers, (g + 8 (r & 1), 4t + e + 16 (r >> 1));
//                           B 2 registers, (4t + e + 16r, g)
//   IMMA.8816 (s8, u8)      A 8x16: 1 register, (g, 4t + e); B 1 register, (4t + e, g)
//   DMMA.8x8x4 (f64)        A 8x4: one double, (g, t); B 4x8: one double, (t, g)
// C and D of the 16-row shapes: f32 or s32 in 4 registers, (g + 8 (r >> 1), 2t + (r & 1)), or f16
// in 2 registers of two halves, (g + 8r, 2t + h); of the 8-row ones, 2 elements, (g, 2t + j).
// Floating-point elements are summed as the H100's tensor core sums them (tensor_core_sum.hpp,
// measured on HMMA.16816; the other shapes and tf32 assumed to sum alike); integer ones exactly,
// wrapping to 32 bits (.SAT: clamped); doubles with one IEEE fused multiply-add per k in order.
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "sim/core/exec/half_float.hpp"
#include "sim/sass/sass_lanes.hpp"
#include "sim/sass/tensor_core_sum.hpp"

namespace warpsim::sass {
namespace {

constexpr unsigned kMaxRows = 16, kMaxK = 32, kMaxColumns = 8;

enum class Element : std::uint8_t { Half, BHalf, Tf32, Byte, Double };

struct Shape {
  unsigned m, k;
  Element input;
};

std::uint32_t word(const Lanes& x, const Operand& base, unsigned r, unsigned lane) {
  if (base.index == kZeroReg) return 0;
  return x.w.r[(std::size_t{base.index} + r) * kWarpSize + lane];
}

double element_of(std::uint32_t w, unsigned e, Element kind, bool is_signed) {
  switch (kind) {
    case Element::Half:
    case Element::BHalf:
      return exec::decode_half(static_cast<std::uint16_t>(w >> (16 * e)),
                               kind == Element::BHalf ? ir::HalfFormat::BF16 : ir::HalfFormat::F16);
    case Element::Tf32:  // an f32 whose 13 low mantissa bits the tensor core does not read
      return std::bit_cast<float>(w & 0xffffe000u);
    case Element::Byte: {
      const auto byte = static_cast<std::uint8_t>(w >> (8 * e));
      return is_signed ? static_cast<std::int8_t>(byte) : byte;
    }
    case Element::Double:
      break;
  }
  return 0.0;
}

Shape shape_of(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const auto shape = static_cast<MmaShape>(m.sub);
  if (x.inst.op == Op::DMMA) return {8, 4, Element::Double};
  if (x.inst.op == Op::IMMA) {
    const unsigned k = shape == MmaShape::M16N8K32 ? 32 : 16;
    return {shape == MmaShape::M8N8K16 ? 8u : 16u, k, Element::Byte};
  }
  const Element input = m.type == DataType::BF16  ? Element::BHalf
                        : m.type == DataType::F32 ? Element::Tf32
                                                  : Element::Half;
  if (shape == MmaShape::M16N8K16 && input != Element::Tf32) return {16, 16, input};
  if (shape == MmaShape::M16N8K8 && input != Element::BHalf) return {16, 8, input};
  if (shape == MmaShape::M16N8K4 && input == Element::Tf32) return {16, 4, input};
  x.fault(0, "this HMMA shape and input type together are not modelled");
}

// Where element e of register r of `lane` lies in A (row, column) or in B (row = k, column).
struct Place {
  unsigned row, column;
};

Place a_place(const Shape& s, unsigned lane, unsigned r, unsigned e) {
  const unsigned g = lane / 4, t = lane % 4;
  const unsigned row = s.m == 8 ? g : g + 8 * (r & 1);
  switch (s.input) {
    case Element::Half:
    case Element::BHalf:
      return {s.k == 16 ? row : g + 8 * r, 2 * t + e + 8 * (r >> 1)};
    case Element::Tf32:
      return {s.k == 4 ? g + 8 * r : row, t + 4 * (r >> 1)};
    case Element::Byte:
      if (s.k == 32) return {row, 4 * t + e + 16 * (r >> 1)};
      return {s.m == 8 ? g : g + 8 * r, 4 * t + e};
    case Element::Double:
      break;
  }
  return {g, t};
}

Place b_place(const Shape& s, unsigned lane, unsigned r, unsigned e) {
  const unsigned g = lane / 4, t = lane % 4;
  switch (s.input) {
    case Element::Half:
    case Element::BHalf:
      return {2 * t + e + 8 * r, g};
    case Element::Tf32:
      return {t + 4 * r, g};
    case Element::Byte:
      return {4 * t + e + 16 * r, g};
    case Element::Double:
      break;
  }
  return {t, g};
}

unsigned per_register(Element kind) {
  return kind == Element::Byte ? 4 : kind == Element::Tf32 ? 1 : 2;
}

// C's or D's element `j` (0..3 for 16 rows, 0..1 for 8) of `lane`.
Place c_place(const Shape& s, unsigned lane, unsigned j) {
  const unsigned g = lane / 4, t = lane % 4;
  if (s.m == 8) return {g, 2 * t + j};
  return {g + 8 * (j >> 1), 2 * t + (j & 1)};
}

std::uint32_t integer_sum(const double* a, const double* b, unsigned k, double c, bool saturate) {
  auto total = static_cast<std::int64_t>(c);
  for (unsigned i = 0; i < k; ++i)
    total += static_cast<std::int64_t>(a[i]) * static_cast<std::int64_t>(b[i]);
  if (saturate) {
    total = std::clamp<std::int64_t>(total, std::numeric_limits<std::int32_t>::min(),
                                     std::numeric_limits<std::int32_t>::max());
  }
  return static_cast<std::uint32_t>(total);
}

}  // namespace

void matrix_multiply_accumulate(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  if (x.mask != kFullWarpMask) {
    x.fault(static_cast<unsigned>(std::countr_zero(x.mask | 1u)),
            std::string(x.inst.op == Op::DMMA   ? "DMMA"
                        : x.inst.op == Op::IMMA ? "IMMA"
                                                : "HMMA") +
                " on a warp whose 32 lanes do not all execute it (mma.sync needs the whole warp)");
  }
  const Shape s = shape_of(x);
  const bool f16_accumulator =
      s.input != Element::Byte && s.input != Element::Double && m.dest == DataType::F16;
  const Operand &d = x.op(0), &a = x.op(1), &b = x.op(2), &c = x.op(3);
  double A[kMaxRows][kMaxK]{}, B[kMaxK][kMaxColumns]{}, C[kMaxRows][kMaxColumns]{};
  const unsigned a_registers =
      s.input == Element::Double ? 1 : s.m * s.k / kWarpSize / per_register(s.input);
  const unsigned b_registers =
      s.input == Element::Double ? 1 : s.k * 8 / kWarpSize / per_register(s.input);
  const unsigned c_elements = s.m * 8 / kWarpSize;
  // IMMA's types: A's, then B's (S8 or U8).
  const bool a_signed = m.type == DataType::S8, b_signed = m.dest == DataType::S8;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (s.input == Element::Double) {
      auto dbl = [&](const Operand& o, unsigned r) {
        return std::bit_cast<double>(std::uint64_t{word(x, o, r + 1, lane)} << 32 |
                                     word(x, o, r, lane));
      };
      const Place pa = a_place(s, lane, 0, 0), pb = b_place(s, lane, 0, 0);
      A[pa.row][pa.column] = dbl(a, 0);
      B[pb.row][pb.column] = dbl(b, 0);
      for (unsigned j = 0; j < c_elements; ++j) {
        const Place pc = c_place(s, lane, j);
        C[pc.row][pc.column] = dbl(c, 2 * j);
      }
      continue;
    }
    const unsigned per = per_register(s.input);
    for (unsigned r = 0; r < a_registers; ++r) {
      for (unsigned e = 0; e < per; ++e) {
        const Place p = a_place(s, lane, r, e);
        A[p.row][p.column] = element_of(word(x, a, r, lane), e, s.input, a_signed);
      }
    }
    for (unsigned r = 0; r < b_registers; ++r) {
      for (unsigned e = 0; e < per; ++e) {
        const Place p = b_place(s, lane, r, e);
        B[p.row][p.column] = element_of(word(x, b, r, lane), e, s.input, b_signed);
      }
    }
    for (unsigned j = 0; j < c_elements; ++j) {
      const Place p = c_place(s, lane, j);
      const std::uint32_t bits =
          f16_accumulator ? word(x, c, j / 2, lane) >> (16 * (j & 1)) : word(x, c, j, lane);
      C[p.row][p.column] = s.input == Element::Byte ? static_cast<std::int32_t>(bits)
                           : f16_accumulator ? exec::decode_half(static_cast<std::uint16_t>(bits),
                                                                 ir::HalfFormat::F16)
                                             : std::bit_cast<float>(bits);
    }
  }
  std::uint64_t D[kMaxRows][kMaxColumns]{};
  for (unsigned i = 0; i < s.m; ++i) {
    for (unsigned j = 0; j < 8; ++j) {
      double row[kMaxK]{}, column[kMaxK]{};
      for (unsigned k = 0; k < s.k; ++k) {
        row[k] = A[i][k];
        column[k] = B[k][j];
      }
      if (s.input == Element::Byte) {
        D[i][j] = integer_sum(row, column, s.k, C[i][j], m.saturate);
      } else if (s.input == Element::Double) {
        double sum = C[i][j];
        for (unsigned k = 0; k < s.k; ++k) sum = std::fma(row[k], column[k], sum);
        D[i][j] = std::bit_cast<std::uint64_t>(sum);
      } else {
        std::array<double, 16> r16{}, c16{};
        std::copy_n(row, s.k, r16.begin());
        std::copy_n(column, s.k, c16.begin());
        D[i][j] = tensor_core_sum(r16, c16, C[i][j], f16_accumulator);
      }
    }
  }
  // Written after every lane's sources were read: D may be A, B or C's registers.
  if (d.index == kZeroReg) return;
  Operand out = d;
  auto put = [&](unsigned r, unsigned lane, std::uint32_t v) {
    out.index = static_cast<std::uint8_t>(d.index + r);
    x.set(out, lane, v);
  };
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned j = 0; j < c_elements; ++j) {
      const Place p = c_place(s, lane, j);
      const std::uint64_t v = D[p.row][p.column];
      if (s.input == Element::Double) {
        put(2 * j, lane, static_cast<std::uint32_t>(v));
        put(2 * j + 1, lane, static_cast<std::uint32_t>(v >> 32));
      } else if (!f16_accumulator) {
        put(j, lane, static_cast<std::uint32_t>(v));
      } else if ((j & 1) == 1) {
        const Place low = c_place(s, lane, j - 1);
        put(j / 2, lane, static_cast<std::uint32_t>(D[low.row][low.column] | v << 16));
      }
    }
  }
}

}  // namespace warpsim::sass

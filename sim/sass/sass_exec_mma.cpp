// HMMA.16816: the warp-wide 16x8x16 matrix product D = A B + C of PTX's mma.sync.m16n8k16
// (what wmma::mma_sync and CUTLASS's f16 and bf16 kernels compile to on sm_80 and later). Each
// lane holds pieces of the matrices, in the fragment layout the PTX ISA gives for m16n8k16
// (lane l: group g = l / 4, t = l % 4):
//   A (16x16, 4 registers of two halves): {A[g][2t..], A[g+8][2t..], A[g][2t+8..], A[g+8][2t+8..]}
//   B (16x8, 2 registers): {B[2t..][g], B[2t+8..][g]} (two consecutive k in each register)
//   C and D (16x8): f32: 4 registers {C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]};
//                   f16: 2 registers of two halves {C[g][2t..], C[g+8][2t..]}.
// Each element summed as the H100's tensor core sums it (tensor_core_sum.hpp).
#include <array>
#include <bit>

#include "sim/core/exec/half_float.hpp"
#include "sim/sass/sass_lanes.hpp"
#include "sim/sass/tensor_core_sum.hpp"

namespace warpsim::sass {
namespace {

constexpr unsigned kM = 16, kN = 8, kK = 16;

std::uint32_t word(const Lanes& x, const Operand& base, unsigned k, unsigned lane) {
  if (base.index == kZeroReg) return 0;
  return x.w.r[(std::size_t{base.index} + k) * kWarpSize + lane];
}

double half_of(std::uint32_t w, unsigned half, ir::HalfFormat format) {
  return exec::decode_half(static_cast<std::uint16_t>(w >> (16 * half)), format);
}

}  // namespace

void matrix_multiply_accumulate(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  if (x.mask != kFullWarpMask) {
    x.fault(static_cast<unsigned>(std::countr_zero(x.mask | 1u)),
            "HMMA on a warp whose 32 lanes do not all execute it (mma.sync needs the whole warp)");
  }
  const ir::HalfFormat input =
      m.type == DataType::BF16 ? ir::HalfFormat::BF16 : ir::HalfFormat::F16;
  const bool f32_accumulator = m.dest == DataType::F32;
  const Operand &d = x.op(0), &a = x.op(1), &b = x.op(2), &c = x.op(3);
  double A[kM][kK], B[kK][kN], C[kM][kN];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const std::size_t g = lane / 4, t = lane % 4;
    for (unsigned h = 0; h < 2; ++h) {
      A[g][2 * t + h] = half_of(word(x, a, 0, lane), h, input);
      A[g + 8][2 * t + h] = half_of(word(x, a, 1, lane), h, input);
      A[g][2 * t + 8 + h] = half_of(word(x, a, 2, lane), h, input);
      A[g + 8][2 * t + 8 + h] = half_of(word(x, a, 3, lane), h, input);
      B[2 * t + h][g] = half_of(word(x, b, 0, lane), h, input);
      B[2 * t + 8 + h][g] = half_of(word(x, b, 1, lane), h, input);
      if (f32_accumulator) {
        C[g][2 * t + h] = std::bit_cast<float>(word(x, c, h, lane));
        C[g + 8][2 * t + h] = std::bit_cast<float>(word(x, c, 2 + h, lane));
      } else {
        C[g][2 * t + h] = half_of(word(x, c, 0, lane), h, ir::HalfFormat::F16);
        C[g + 8][2 * t + h] = half_of(word(x, c, 1, lane), h, ir::HalfFormat::F16);
      }
    }
  }
  std::uint32_t D[kM][kN];
  for (unsigned i = 0; i < kM; ++i) {
    for (unsigned j = 0; j < kN; ++j) {
      std::array<double, kK> row{}, column{};
      for (unsigned k = 0; k < kK; ++k) {
        row[k] = A[i][k];
        column[k] = B[k][j];
      }
      D[i][j] = tensor_core_sum(row, column, C[i][j], !f32_accumulator);
    }
  }
  // Written after every lane's sources were read: D may be A, B or C's registers.
  if (d.index == kZeroReg) return;
  Operand out = d;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const std::size_t g = lane / 4, t = lane % 4;
    if (f32_accumulator) {
      const std::uint32_t values[4] = {D[g][2 * t], D[g][2 * t + 1], D[g + 8][2 * t],
                                       D[g + 8][2 * t + 1]};
      for (unsigned k = 0; k < 4; ++k) {
        out.index = static_cast<std::uint8_t>(d.index + k);
        x.set(out, lane, values[k]);
      }
    } else {
      for (std::size_t k = 0; k < 2; ++k) {
        out.index = static_cast<std::uint8_t>(d.index + k);
        x.set(out, lane, D[g + 8 * k][2 * t] | D[g + 8 * k][2 * t + 1] << 16);
      }
    }
  }
}

}  // namespace warpsim::sass

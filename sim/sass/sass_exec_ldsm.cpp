// LDSM.16.M88.N (PTX ldmatrix.sync.aligned.m8n8.xN.shared.b16), how wmma and CUTLASS load a
// tensor-core fragment from shared memory: N 8x8 matrices of 16-bit elements, row r of matrix i
// at the address lane 8i + r gives (16 bytes a row). Lane l receives, in register Rd + i, the
// two elements 2(l % 4) and 2(l % 4) + 1 of row l / 4 of matrix i (.MT88, transposed: element
// l / 4 of rows 2(l % 4) and 2(l % 4) + 1), the first in the low half. Its wavefronts are
// counted as a shared load's of 16 bytes from each addressing lane (the H100's count).
#include <cstring>

#include "sim/sass/sass_memory_access.hpp"

namespace warpsim::sass {

void load_matrices(const Lanes& x) {
  const unsigned matrices = x.inst.mods.sub & 7u;
  const bool transposed = (x.inst.mods.sub & kLdsmTransposed) != 0;
  if (x.mask != 0 && x.mask != kFullWarpMask) {
    x.fault(static_cast<unsigned>(std::countr_zero(x.mask)),
            "LDSM on a warp whose 32 lanes do not all execute it (ldmatrix needs the whole warp)");
  }
  const std::uint32_t addressing =
      matrices == 4 ? kFullWarpMask : (std::uint32_t{1} << (8 * matrices)) - 1u;
  const Lanes rows(x.launch, x.stats, x.block, x.w, x.inst, x.mask & addressing, x.access);
  Access acc;
  acc.space = Space::Shared;
  acc.bytes = 16;
  locate(rows, x.op(1), acc);
  if (x.mask != 0) {
    auto element = [&](unsigned row, unsigned column) {
      std::uint16_t e = 0;
      std::memcpy(&e, acc.data[row] + std::size_t{2} * column, 2);
      return std::uint32_t{e};
    };
    Operand d = x.op(0);
    const std::uint8_t first = d.index;
    for (unsigned i = 0; i < matrices; ++i) {
      LaneWords v{};
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const unsigned quad = lane % 4, group = lane / 4;
        v[lane] =
            transposed
                ? element(8 * i + 2 * quad, group) | element(8 * i + 2 * quad + 1, group) << 16
                : element(8 * i + group, 2 * quad) | element(8 * i + group, 2 * quad + 1) << 16;
      }
      if (first != kZeroReg) d.index = static_cast<std::uint8_t>(first + i);
      write_words(x, d, v);
    }
  }
  count(rows, acc, exec::GlobalOp::Load, exec::SharedOp::Load);
  // Its wavefronts are shared loads', but the GPU counts the instruction apart (op_ldsm), not in
  // smsp__sass_inst_executed_op_shared_ld (wmma_tiles.cu on an H100: 8 there, 12 with LDSM).
  if (rows.mask != 0)
    --x.stats.memory.shared[static_cast<std::size_t>(exec::SharedOp::Load)].instructions;
}

}  // namespace warpsim::sass

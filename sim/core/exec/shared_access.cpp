#include "sim/core/exec/shared_access.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {
namespace {

bool adds_constant_one(const DecodedInst& d) {
  if (d.source == nullptr || d.source->operands.size() < 2) return false;
  const auto* v = std::get_if<ir::ValueOperand>(&d.source->operands[1].kind);
  const auto* i = v == nullptr ? nullptr : std::get_if<ir::IntLiteral>(&v->value);
  return i != nullptr && !i->negative && i->magnitude == 1;
}

}  // namespace

memory::SharedAccess shared_access(const DecodedInst& d) {
  if (d.opcode == ir::Opcode::Ld) return memory::SharedAccess::Load;
  if (d.opcode == ir::Opcode::St) return memory::SharedAccess::Store;
  if (d.mem.has_rank) return memory::SharedAccess::Store;
  if (d.atomic_op == ir::AtomicOp::Cas) return memory::SharedAccess::CompareSwap;
  const bool integer32 = d.type == ir::ScalarType::S32 || d.type == ir::ScalarType::U32;
  if (d.ndst == 0 && d.atomic_op == ir::AtomicOp::Add && integer32 && adds_constant_one(d)) {
    return memory::SharedAccess::CountingIncrement;
  }
  return memory::SharedAccess::Atomic;
}

void count_own_block_atomics(ExecContext& ctx, const DecodedInst& d, const std::uint64_t* addresses,
                             std::uint32_t mask, unsigned bytes) {
  const auto access = d.atomic_op == ir::AtomicOp::Cas ? memory::SharedAccess::CompareSwap
                                                       : memory::SharedAccess::Atomic;
  count_own_block_atomics(ctx.stats, addresses, mask, ctx.block->cluster_rank, bytes, access);
}

void count_own_block_atomics(LaunchStats& stats, const std::uint64_t* addresses, std::uint32_t mask,
                             std::uint64_t own, unsigned bytes, memory::SharedAccess access) {
  std::uint32_t own_lanes = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if ((addresses[lane] >> 40) == own) own_lanes |= 1u << lane;
  }
  if (own_lanes == 0) return;
  const memory::SharedRequest r = memory::shared_wavefronts(addresses, own_lanes, bytes, access);
  SharedOpStats& sh = stats.memory.shared[static_cast<std::size_t>(SharedOp::Atomic)];
  sh.wavefronts += r.wavefronts;
  sh.ideal_wavefronts += r.ideal;
}

unsigned remote_segments(const std::uint64_t* addresses, std::uint32_t mask, std::uint64_t own) {
  std::uint64_t seen[kWarpSize];
  unsigned n = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t a = addresses[std::countr_zero(m)];
    if ((a >> 40) == own) continue;
    const std::uint64_t segment = a / kLineBytes;
    if (std::find(seen, seen + n, segment) == seen + n) seen[n++] = segment;
  }
  return n;
}

}  // namespace warpsim::exec

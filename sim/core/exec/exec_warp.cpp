// Warp-wide instructions: shuffles and votes over the active lanes, or over a member mask.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {
namespace {

// shfl.sync and vote.sync: each executing lane names itself and only active lanes as members.
void check_members(const ExecContext& ctx, const WarpState& w, const DecodedInst& d,
                   std::uint32_t active, const std::uint64_t* members) {
  for_lanes(active, [&](unsigned l) {
    const auto m = static_cast<std::uint32_t>(members[l]);
    if (((m >> l) & 1u) == 0) {
      fault(ctx, w, d, l, fmt::format("lane {} is not in its own member mask {:#010x}", l, m));
    }
    if ((m & ~active) != 0) {
      if (ctx.check != nullptr && ctx.check->partial_members(ctx, w, d, l, m, active)) return;
      fault(ctx, w, d, l,
            fmt::format("member mask {:#010x} names lanes not active here ({:#010x}: exited, or "
                        "on another path of the divergent warp, which warpsim cannot wait for)",
                        m, m & ~active));
    }
  });
}

void exec_shuffle(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = w.read(d.src[1]);
  std::uint64_t values[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) values[l] = a[l];  // read all before writing any
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    const auto n = static_cast<std::uint32_t>(b[l]);
    std::int64_t src = 0;
    switch (d.shuffle_mode) {
      case ir::ShuffleMode::Idx:
        src = n % kWarpSize;
        break;
      case ir::ShuffleMode::Up:
        src = static_cast<std::int64_t>(l) - n;
        break;
      case ir::ShuffleMode::Down:
        src = static_cast<std::int64_t>(l) + n;
        break;
      case ir::ShuffleMode::Xor:
        src = l ^ (n % kWarpSize);
        break;
    }
    const bool readable =
        src >= 0 && src < static_cast<int>(kWarpSize) && ((mask >> src) & 1u) != 0;
    out[l] = readable ? values[src] : values[l];
  });
}

void exec_vote(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* p = w.read(d.src[0]);
  std::uint32_t ballot = 0;
  for_lanes(mask, [&](unsigned l) { ballot |= (p[l] != 0 ? 1u : 0u) << l; });
  std::uint64_t result = 0;
  switch (d.vote_mode) {
    case ir::VoteMode::Ballot:
      result = ballot;
      break;
    case ir::VoteMode::Any:
      result = ballot != 0;
      break;
    case ir::VoteMode::All:
      result = ballot == mask;
      break;
    case ir::VoteMode::Popc:  // bar.red's mode only (the parser gives no vote.popc); a count
      result = static_cast<unsigned>(std::popcount(ballot));
      break;
  }
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = result; });
}

// Members all active (checked), so the shuffle among the active lanes is the members'; a
// source outside the members reads what PTX leaves undefined: here the active source's value.
void exec_shuffle_sync(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  check_members(ctx, w, d, mask, w.read(d.src[2]));
  exec_shuffle(ctx, w, d, mask);
}

// The vote over each lane's members (all active, checked).
void exec_vote_sync(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* members = w.read(d.src[1]);
  check_members(ctx, w, d, mask, members);
  const std::uint64_t* p = w.read(d.src[0]);
  std::uint32_t ballot = 0;
  for_lanes(mask, [&](unsigned l) { ballot |= (p[l] != 0 ? 1u : 0u) << l; });
  std::uint64_t results[kWarpSize];
  for_lanes(mask, [&](unsigned l) {
    const auto m = static_cast<std::uint32_t>(members[l]);
    switch (d.vote_mode) {
      case ir::VoteMode::Ballot:
        results[l] = ballot & m;
        break;
      case ir::VoteMode::Any:
        results[l] = (ballot & m) != 0;
        break;
      case ir::VoteMode::All:
        results[l] = (ballot & m) == m;
        break;
      case ir::VoteMode::Popc:  // bar.red's mode only, as above
        results[l] = static_cast<unsigned>(std::popcount(ballot & m));
        break;
    }
  });
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = results[l]; });
}

// __syncwarp(members): the members are checked as for a vote; the lanes run together already, so
// what remains is the ordering it gives their memory accesses (the warp's sync epoch).
void exec_warp_sync(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  check_members(ctx, w, d, mask, w.read(d.src[0]));
  ++w.sync_epoch;
}

// Every lane's members' values reduced (members all active, checked): __reduce_*_sync.
void exec_redux_sync(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* members = w.read(d.src[1]);
  check_members(ctx, w, d, mask, members);
  const std::uint64_t* a = w.read(d.src[0]);
  const bool is_signed = d.type == ir::ScalarType::S32;
  std::uint64_t results[kWarpSize];
  for_lanes(mask, [&](unsigned l) {
    const auto m = static_cast<std::uint32_t>(members[l]);
    std::uint32_t acc = static_cast<std::uint32_t>(a[std::countr_zero(m)]);
    for_lanes(m & (m - 1), [&](unsigned j) {
      const auto v = static_cast<std::uint32_t>(a[j]);
      switch (d.atomic_op) {
        case ir::AtomicOp::Add:
          acc += v;
          break;
        case ir::AtomicOp::Min:
          acc = is_signed
                    ? (static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) ? v : acc)
                    : std::min(acc, v);
          break;
        case ir::AtomicOp::Max:
          acc = is_signed
                    ? (static_cast<std::int32_t>(v) > static_cast<std::int32_t>(acc) ? v : acc)
                    : std::max(acc, v);
          break;
        case ir::AtomicOp::And:
          acc &= v;
          break;
        case ir::AtomicOp::Or:
          acc |= v;
          break;
        default:  // Xor (the verifier admits no other)
          acc ^= v;
          break;
      }
    });
    results[l] = acc;  // a 32-bit value's bits, as to_bits keeps them
  });
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = results[l]; });
}

// Each lane's mask of the members holding its value (members all active, checked).
void exec_match_any(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* members = w.read(d.src[1]);
  check_members(ctx, w, d, mask, members);
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t width = ir::size_bytes(d.type) == 8 ? ~std::uint64_t{0} : 0xffffffffull;
  std::uint64_t results[kWarpSize];
  for_lanes(mask, [&](unsigned l) {
    std::uint32_t same = 0;
    for_lanes(static_cast<std::uint32_t>(members[l]), [&](unsigned j) {
      if (((a[j] ^ a[l]) & width) == 0) same |= 1u << j;
    });
    results[l] = same;
  });
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = results[l]; });
}

}  // namespace

ExecFn select_warp_wide(const DecodedInst& inst) {
  if (inst.opcode == ir::Opcode::Shfl) return &exec_shuffle;
  if (inst.opcode == ir::Opcode::Vote) return &exec_vote;
  if (inst.opcode == ir::Opcode::ShflSync) return &exec_shuffle_sync;
  if (inst.opcode == ir::Opcode::VoteSync) return &exec_vote_sync;
  if (inst.opcode == ir::Opcode::WarpSync) return &exec_warp_sync;
  if (inst.opcode == ir::Opcode::MatchAny) return &exec_match_any;
  if (inst.opcode == ir::Opcode::ReduxSync) return &exec_redux_sync;
  return nullptr;
}

}  // namespace warpsim::exec

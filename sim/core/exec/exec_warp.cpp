// Warp-wide instructions: shuffles and votes over the active lanes.
#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {
namespace {

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
  }
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = result; });
}

}  // namespace

ExecFn select_warp_wide(const DecodedInst& inst) {
  if (inst.opcode == ir::Opcode::Shfl) return &exec_shuffle;
  if (inst.opcode == ir::Opcode::Vote) return &exec_vote;
  return nullptr;
}

}  // namespace warpsim::exec

// What the hazard checks (sim/check/) are told as the functional model executes a launch: every
// memory instruction's located lanes, every barrier arrival, partial member masks of warp-wide
// instructions and each block's start. Contract: a hook never changes what is simulated, except
// that a shfl.sync or vote.sync naming inactive lanes goes on (PTX leaves its result undefined;
// the active lanes' values are used) instead of faulting, when the hook records it as a hazard.
#pragma once

#include <cstdint>

namespace warpsim::exec {

struct ExecContext;
struct WarpState;
struct BlockState;
struct DecodedInst;

class CheckHook {
 public:
  virtual ~CheckHook() = default;
  // A block (of the running cluster) starts: its shared and local memory hold nothing yet.
  virtual void block_started(const ExecContext& ctx, const BlockState& block) = 0;
  // A memory instruction's active lanes, all located and in bounds. `addresses`: per lane, a
  // global address; a shared offset (dsmem: the block's cluster rank above bit 40); a local
  // offset in the lane's own memory; a constant-bank offset. `bytes`: per lane.
  virtual void access(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst,
                      const std::uint64_t* addresses, std::uint32_t mask, unsigned bytes) = 0;
  // bar.sync or cluster.sync, reached by the lanes `mask` of `warp`.
  virtual void barrier(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst,
                       std::uint32_t mask) = 0;
  // Lane `lane` of a shfl.sync/vote.sync names `members`, some of them not in `active`.
  // Returns true to go on (recorded as a hazard), false to fault as without checks.
  virtual bool partial_members(const ExecContext& ctx, const WarpState& warp,
                               const DecodedInst& inst, unsigned lane, std::uint32_t members,
                               std::uint32_t active) = 0;
};

}  // namespace warpsim::exec

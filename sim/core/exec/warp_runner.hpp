// Runs one warp until it waits at a barrier or finishes, following its SIMT stack.
//
// The stack: the top entry's lanes run from its pc. A divergent `br` turns the top entry into
// the join entry at the branch's reconvergence point r (or, when the top entry already joins at
// r, drops it, since the entry below already waits at r) and pushes one entry per side, the
// taken side on top, so it runs first. A side that starts at r pushes nothing: its lanes wait in
// the join entry. When the top entry's pc reaches its reconvergence point it is popped. A branch
// with no post-dominator short of the exit joins at the enclosing entry's point instead. `ret`
// retires the top entry's lanes from every entry.
#pragma once

#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/state.hpp"

namespace warpsim::exec {

class WarpRunner {
 public:
  WarpRunner(ExecContext& ctx, const ExecOptions& options)
      : ctx_(ctx), options_(options), checkpoint_(next_checkpoint()) {}

  // Runs until the warp waits at a barrier or finishes, or has executed `quantum` instructions
  // in this call (true: it was cut short, and is still ready).
  bool run(WarpState& warp, std::uint64_t quantum);
  // Executes the warp's next instruction (the warp must be Ready); the timing model's issue.
  void step(WarpState& warp);

 private:
  void branch(WarpState& w, const DecodedInst& d);
  // bar.sync and bar.red: the lanes in `mask` wait; bar.red also adds their predicates.
  void arrive_at_barrier(WarpState& w, const DecodedInst& d, std::uint32_t mask);
  // At a bar.sync reached by part of the warp while its other lanes have still to run there (the
  // other side of a divergent branch): parks the arrived lanes and runs the others. False where
  // the whole warp has arrived, or the others cannot run apart from the arrived lanes.
  bool park_at_barrier(WarpState& w);
  // After the stack changed with lanes parked: where no lanes are left to run apart from them,
  // the warp waits at the barrier (rejoin_parked).
  void settle_parked(WarpState& w);
  static void rejoin_parked(WarpState& w);
  // The lanes of stack entry `entry` other than `waiting`, if it waits at a join that returns
  // and holds some of `waiting` too, exit there rather than wait for them (the GPU's code exits
  // them where they are).
  void exit_at_returning_join(WarpState& w, std::size_t entry, std::uint32_t waiting);
  // Lanes `leaving` have exited: out of every entry (those left empty go).
  void remove_exited(WarpState& w, std::uint32_t leaving);
  void arrive_at_named_barrier(WarpState& w, const DecodedInst& d, std::uint32_t mask);
  static void jump(WarpState& w, std::uint32_t target);
  void retire(WarpState& w);
  [[noreturn]] void over_budget(const WarpState& w, const DecodedInst& d);
  void checkpoint(const WarpState& w, const DecodedInst& d);
  std::uint64_t next_checkpoint() const;

  ExecContext& ctx_;
  const ExecOptions& options_;
  // The warp-instruction count past which step() leaves its hot path: the budget, or sooner
  // the next progress report, so neither costs a test of its own per instruction.
  std::uint64_t checkpoint_;
};

}  // namespace warpsim::exec

// The hazard checks as a hook of the functional model (exec::CheckHook): shared and global
// races (two threads touch the same bytes, one writing, not both atomically, with no barrier
// between them: the same barrier epoch of one block, the same cluster epoch of one cluster, or
// different clusters), barrier arrivals in divergent code, partial member masks, and reads of
// shared, local or uninitialised global memory that nothing in the launch wrote before.
//
// Words are tracked 4 bytes at a time (ShadowWord); a read is checked against the last write
// and a write against it and the reader kept since. Accesses of one instruction
// are checked against what came before it, then recorded, so its own lanes meet only in the
// within-an-instruction check (two lanes writing the same bytes).
#pragma once

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "sim/check/hazard.hpp"
#include "sim/check/shadow.hpp"
#include "sim/core/exec/check_hook.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/core/exec/program.hpp"

namespace warpsim::check {

class HazardChecker final : public exec::CheckHook {
 public:
  HazardChecker(const exec::LaunchSpec& launch, CheckSet checks);

  void block_started(const exec::ExecContext& ctx, const exec::BlockState& block) override;
  void access(const exec::ExecContext& ctx, const exec::WarpState& warp,
              const exec::DecodedInst& inst, const std::uint64_t* addresses, std::uint32_t mask,
              unsigned bytes) override;
  void barrier(const exec::ExecContext& ctx, const exec::WarpState& warp,
               const exec::DecodedInst& inst, std::uint32_t mask) override;
  bool partial_members(const exec::ExecContext& ctx, const exec::WarpState& warp,
                       const exec::DecodedInst& inst, unsigned lane, std::uint32_t members,
                       std::uint32_t active) override;

  const HazardReport& report() const { return report_; }

 private:
  struct Touch {  // one lane's access to one word
    ShadowWord* word;
    std::uint8_t start_unwritten;  // the word's memory started uninitialised (0xF) or not (0)
    Stamp stamp;
    std::uint64_t address;  // of the lane's access
    unsigned lane;
  };
  void memory_access(const exec::ExecContext& ctx, const exec::WarpState& warp,
                     const exec::DecodedInst& inst, const std::uint64_t* addresses,
                     std::uint32_t mask, unsigned bytes, Space space);
  void local_access(const exec::ExecContext& ctx, const exec::WarpState& warp,
                    const exec::DecodedInst& inst, const std::uint64_t* addresses,
                    std::uint32_t mask, unsigned bytes);
  // The word holding `address`, and its memory's ShadowRegion::start_unwritten.
  std::pair<ShadowWord*, std::uint8_t> shadow_word(const exec::ExecContext& ctx, Space space,
                                                   std::uint64_t address);
  // Whether an access stamped `earlier` happens before `later` (program order or a barrier).
  bool ordered(const Stamp& earlier, const Stamp& later) const;
  void check_touch(const exec::ExecContext& ctx, const Touch& t, bool write, Space space);
  void within_instruction(const exec::ExecContext& ctx, std::vector<Touch>& writes, Space space);
  void race(const exec::ExecContext& ctx, const Stamp& earlier, bool earlier_write, const Touch& t,
            bool write, Space space);
  void add(const exec::ExecContext& ctx, Hazard h);
  std::string element(const exec::ExecContext& ctx, Space space, std::uint64_t address,
                      unsigned bytes) const;

  const exec::LaunchSpec& launch_;
  CheckSet checks_;
  std::vector<std::unique_ptr<ShadowRegion>> global_;     // per buffer, made at first use
  std::vector<std::uint8_t> buffer_uninitialised_;        // per buffer: `uninit` in the launch
  std::vector<std::unique_ptr<ShadowRegion>> shared_;     // per cluster rank
  std::vector<std::uint32_t> generation_;                 // per cluster rank: block instances
  std::vector<std::vector<std::uint8_t>> local_written_;  // per rank: thread * bytes + offset
  std::vector<Touch> touches_;
  std::vector<std::pair<const ShadowWord*, std::size_t>> written_words_;
  std::size_t last_buffer_ = 0;  // the buffer the last global access was in
  std::map<std::tuple<Category, std::string, std::string, std::uint32_t, std::uint32_t>,
           std::size_t>
      seen_;
  HazardReport report_;
};

}  // namespace warpsim::check

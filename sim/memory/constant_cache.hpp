// One SM's constant cache, as the timing model sees it: a line the SM has not read in the
// launch comes from memory first (the SM's first such miss costs more: the constant bank's
// translation is set up), and lanes of a warp reading different addresses are served one
// address after another.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::memory {

struct ConstantTiming {
  std::uint64_t miss_latency = 0;        // a line the SM has not read this launch
  std::uint64_t first_miss_latency = 0;  // instead, for the SM's first such line
  std::uint64_t serial_cycles = 0;       // each further distinct address of one warp's read
  // From a flushed L2 the line also comes from DRAM:
  std::uint64_t cold_first_cycles = 0, cold_cycles = 0;
};

class ConstantCache {
 public:
  static constexpr std::uint64_t kLineBytes = 64;
  // The bank's size: the verifier keeps constants within it.
  static constexpr std::uint64_t kBankBytes = std::uint64_t{64} * 1024;

  ConstantCache(const ConstantTiming& timing, bool l2_flushed);

  // The cycles a warp's read of the bank offsets `offsets[lane]` (for the lanes in `mask`)
  // takes beyond the pipe's latency; the lines become cached.
  std::uint64_t read(std::uint32_t mask, const std::uint64_t* offsets);

 private:
  ConstantTiming timing_;
  bool l2_flushed_;
  std::vector<std::uint64_t> seen_;  // a bit per line of the bank: read in this launch
  bool missed_ = false;              // the SM has missed a line in the launch
};

}  // namespace warpsim::memory

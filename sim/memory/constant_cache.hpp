// One SM's constant cache, as the timing model sees it: a line the SM has not read in the
// launch comes from memory first (the SM's first such miss costs more: the constant bank's
// translation is set up), a read of a line already on its way waits for it (warps that start
// together all wait for the parameters' line, not only the first to ask), and lanes of a warp
// reading different addresses are served one address after another.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/memory/fetch_table.hpp"

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

  // The cycles a warp's read at cycle `now` of the bank offsets `offsets[lane]` (for the lanes
  // in `mask`) takes beyond the pipe's latency; the lines become cached. Reads come in
  // non-decreasing `now`.
  std::uint64_t read(std::uint32_t mask, const std::uint64_t* offsets, std::uint64_t now);

 private:
  ConstantTiming timing_;
  bool l2_flushed_;
  // Per line of the bank: the cycle its data is there (kNotRead before the launch reads it).
  static constexpr std::uint64_t kNotRead = UINT64_MAX;
  std::vector<std::uint64_t> arrives_;
  bool missed_ = false;  // the SM has missed a line in the launch
};

// One SM's immediate-constant cache: the lines of the constant banks that instructions read as
// operands (c[0x0][0x210] in an IMAD, a ULDC), 64 of them. A line the SM has not read comes from
// the L2 in miss_latency cycles, and every warp that needs it meanwhile waits for it (the GPU's
// imc_miss state: warps starting together wait on their first operands).
class ImmediateConstants {
 public:
  explicit ImmediateConstants(std::uint64_t miss_latency) : lines_(miss_latency) {}
  // The line's key: the bank and the offset's 64-byte line.
  static std::uint32_t key(std::uint32_t bank, std::uint64_t offset) {
    return bank << 10 | static_cast<std::uint32_t>((offset / 64) & 0x3ff);
  }
  // When line `key` is there for a warp asking at `now` (`now` itself if it is).
  std::uint64_t ready(std::uint32_t key, std::uint64_t now) { return lines_.ready(key, now); }

 private:
  FetchTable<64> lines_;
};

}  // namespace warpsim::memory

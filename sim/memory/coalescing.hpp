// Global memory coalescing: one warp memory instruction is one request; the request needs one
// 32-byte sector for every distinct 32-byte segment its active lanes touch, and touches one
// 128-byte line for every distinct 128-byte segment. Accesses are naturally aligned and at most
// 16 bytes, so a lane's access never spans two sectors.
// Contract: `addresses[l]` is read only for lanes set in `mask`.
#pragma once

#include <bit>
#include <cstdint>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::memory {

using warpsim::kLineBytes;
using warpsim::kSectorBytes;
using warpsim::kSectorsPerLine;

struct GlobalRequest {
  unsigned sectors = 0;
  unsigned lines = 0;
};

GlobalRequest coalesce(const std::uint64_t* addresses, std::uint32_t mask);

// The 128-byte lines a warp's access touches, in the order its lanes first touch them, each
// with the 32-byte sectors it needs (bit s: sector s of the line).
struct LinesTouched {
  unsigned count = 0;
  std::uint64_t line[kWarpSize];
  std::uint8_t sectors[kWarpSize];
};

// Inline: the timing model's L1 groups every global access of a warp. `each_lane(lane, k,
// sector)` is told every active lane's line position and sector as it is grouped.
template <typename EachLane>
inline void group_by_line(const std::uint64_t* addresses, std::uint32_t mask, LinesTouched& out,
                          EachLane&& each_lane) {
  out.count = 0;
  std::uint64_t last_line = 0;
  unsigned last = 0;  // the line of the lane before: neighbouring lanes mostly share one
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t line = addresses[lane] / kLineBytes;
    const auto sector = static_cast<unsigned>((addresses[lane] / kSectorBytes) % kSectorsPerLine);
    unsigned k = last;
    if (out.count == 0 || line != last_line) {
      k = 0;
      while (k < out.count && out.line[k] != line) ++k;
      if (k == out.count) {
        out.line[out.count] = line;
        out.sectors[out.count++] = 0;
      }
      last = k;
      last_line = line;
    }
    out.sectors[k] = static_cast<std::uint8_t>(out.sectors[k] | (1u << sector));
    each_lane(lane, k, sector);
  }
}
inline void group_by_line(const std::uint64_t* addresses, std::uint32_t mask, LinesTouched& out) {
  group_by_line(addresses, mask, out, [](unsigned, unsigned, unsigned) {});
}

// The sectors an atomic or reduction request counts on the H200: every sector once per lane that
// its most contended word serves, since lanes on one address are applied one after another
// (kernels_ir/calibration/memory_rules.kir; docs/memory.md). Equal to coalesce()'s sectors when
// no two lanes share an address.
unsigned atomic_sectors(const std::uint64_t* addresses, std::uint32_t mask);

// The fewest sectors the request could need: the bytes its active lanes ask for, in 32-byte
// sectors (the "ideal" of Nsight Compute's source view).
unsigned ideal_sectors(std::uint32_t mask, unsigned bytes_per_lane);

}  // namespace warpsim::memory

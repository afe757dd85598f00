// Global memory coalescing: one warp memory instruction is one request; the request needs one
// 32-byte sector for every distinct 32-byte segment its active lanes touch, and touches one
// 128-byte line for every distinct 128-byte segment. Accesses are naturally aligned and at most
// 16 bytes, so a lane's access never spans two sectors.
// Contract: `addresses[l]` is read only for lanes set in `mask`.
#pragma once

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
  std::uint8_t line_of_lane[kWarpSize];  // for lanes in the mask: their line's position above
};
void group_by_line(const std::uint64_t* addresses, std::uint32_t mask, LinesTouched& out);

// The sectors an atomic or reduction request counts on the H200: every sector once per lane that
// its most contended word serves, since lanes on one address are applied one after another
// (kernels_ir/calibration/memory_rules.kir; docs/memory.md). Equal to coalesce()'s sectors when
// no two lanes share an address.
unsigned atomic_sectors(const std::uint64_t* addresses, std::uint32_t mask);

// The fewest sectors the request could need: the bytes its active lanes ask for, in 32-byte
// sectors (the "ideal" of Nsight Compute's source view).
unsigned ideal_sectors(std::uint32_t mask, unsigned bytes_per_lane);

}  // namespace warpsim::memory

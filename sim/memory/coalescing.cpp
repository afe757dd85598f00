#include "sim/memory/coalescing.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::memory {
GlobalRequest coalesce(const std::uint64_t* addresses, std::uint32_t mask) {
  if (mask == kFullWarpMask) {
    // Full warp in address order (the common case): count boundaries, a loop that vectorises.
    bool ascending = true;
    unsigned sector_changes = 0, line_changes = 0;
    for (unsigned l = 1; l < kWarpSize; ++l) {
      const std::uint64_t s0 = addresses[l - 1] / kSectorBytes, s1 = addresses[l] / kSectorBytes;
      ascending = ascending && s1 >= s0;
      sector_changes += s1 != s0;
      line_changes += addresses[l] / kLineBytes != addresses[l - 1] / kLineBytes;
    }
    if (ascending) return {1 + sector_changes, 1 + line_changes};
  }
  std::uint64_t previous_sector = 0, previous_line = 0;
  unsigned n = 0;
  bool ascending = true;  // the common case: lanes in address order, counted without grouping
  unsigned sector_changes = 0, line_changes = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1, ++n) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t sector = addresses[lane] / kSectorBytes;
    const std::uint64_t line = addresses[lane] / kLineBytes;
    if (n != 0) {
      ascending = ascending && sector >= previous_sector;
      sector_changes += sector != previous_sector;
      line_changes += line != previous_line;
    }
    previous_sector = sector;
    previous_line = line;
  }
  if (n == 0) return {};
  if (ascending) return {1 + sector_changes, 1 + line_changes};
  LinesTouched touched;
  group_by_line(addresses, mask, touched);
  unsigned sectors = 0;
  for (unsigned k = 0; k < touched.count; ++k)
    sectors += static_cast<unsigned>(std::popcount(unsigned{touched.sectors[k]}));
  return {sectors, touched.count};
}

unsigned ideal_sectors(std::uint32_t mask, unsigned bytes_per_lane) {
  const unsigned bytes = static_cast<unsigned>(std::popcount(mask)) * bytes_per_lane;
  return (bytes + kSectorBytes - 1) / kSectorBytes;
}

unsigned atomic_sectors(const std::uint64_t* addresses, std::uint32_t mask) {
  // At most 32 lanes: sort their addresses, then walk sector by sector, word by word.
  std::uint64_t sorted[kWarpSize];
  unsigned n = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) sorted[n++] = addresses[std::countr_zero(m)];
  std::sort(sorted, sorted + n);
  unsigned sectors = 0;
  for (unsigned i = 0; i < n;) {
    const std::uint64_t sector = sorted[i] / kSectorBytes;
    unsigned most = 0;
    while (i < n && sorted[i] / kSectorBytes == sector) {
      unsigned same = 0;
      const std::uint64_t address = sorted[i];
      while (i < n && sorted[i] == address) {
        ++same;
        ++i;
      }
      most = std::max(most, same);
    }
    sectors += most;
  }
  return sectors;
}

}  // namespace warpsim::memory

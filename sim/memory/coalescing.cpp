#include "sim/memory/coalescing.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::memory {
namespace {

// Distinct values among the first n of `v` (n <= 32), which it sorts.
unsigned count_distinct(std::uint64_t* v, unsigned n) {
  std::sort(v, v + n);
  return static_cast<unsigned>(std::unique(v, v + n) - v);
}

}  // namespace

GlobalRequest coalesce(const std::uint64_t* addresses, std::uint32_t mask) {
  if (mask == 0xffffffffu) {
    // Full warp in address order (the common case): count boundaries, a loop that vectorises.
    bool ascending = true;
    unsigned sector_changes = 0, line_changes = 0;
    for (unsigned l = 1; l < 32; ++l) {
      const std::uint64_t s0 = addresses[l - 1] / kSectorBytes, s1 = addresses[l] / kSectorBytes;
      ascending = ascending && s1 >= s0;
      sector_changes += s1 != s0;
      line_changes += addresses[l] / kLineBytes != addresses[l - 1] / kLineBytes;
    }
    if (ascending) return {1 + sector_changes, 1 + line_changes};
  }
  std::uint64_t sectors[32], lines[32];
  unsigned n = 0;
  bool ascending = true;  // the common case: lanes in address order, counted without sorting
  unsigned sector_changes = 0, line_changes = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    sectors[n] = addresses[lane] / kSectorBytes;
    lines[n] = addresses[lane] / kLineBytes;
    if (n != 0) {
      ascending = ascending && sectors[n] >= sectors[n - 1];
      sector_changes += sectors[n] != sectors[n - 1];
      line_changes += lines[n] != lines[n - 1];
    }
    ++n;
  }
  if (n == 0) return {};
  if (ascending) return {1 + sector_changes, 1 + line_changes};
  return {count_distinct(sectors, n), count_distinct(lines, n)};
}

unsigned ideal_sectors(std::uint32_t mask, unsigned bytes_per_lane) {
  const unsigned bytes = static_cast<unsigned>(std::popcount(mask)) * bytes_per_lane;
  return (bytes + kSectorBytes - 1) / kSectorBytes;
}

unsigned atomic_sectors(const std::uint64_t* addresses, std::uint32_t mask) {
  // At most 32 lanes: sort their addresses, then walk sector by sector, word by word.
  std::uint64_t sorted[32];
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

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
  std::uint64_t sectors[32], lines[32];
  unsigned n = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    sectors[n] = addresses[lane] / kSectorBytes;
    lines[n] = addresses[lane] / kLineBytes;
    ++n;
  }
  return {count_distinct(sectors, n), count_distinct(lines, n)};
}

unsigned ideal_sectors(std::uint32_t mask, unsigned bytes_per_lane) {
  const unsigned bytes = static_cast<unsigned>(std::popcount(mask)) * bytes_per_lane;
  return (bytes + kSectorBytes - 1) / kSectorBytes;
}

}  // namespace warpsim::memory

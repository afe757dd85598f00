// How caches, L2 slices and DRAM channels pick a unit for an address, the way hardware hashes
// do: every bit of the address counts (an XOR of all its bit groups as wide as the unit index,
// then the remainder by the unit count). Any power-of-two stride between lines, as a column
// walk of a matrix makes, then still visits every unit, where plain modulo indexing would put
// all of them in one.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace warpsim::memory {

// Requires units >= 1; the result is below `units`.
inline std::uint64_t fold_hash(std::uint64_t address, std::uint64_t units) {
  const auto width = static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(units, 2) - 1));
  const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
  std::uint64_t folded = 0;
  for (; address != 0; address >>= width) folded ^= address & mask;
  return folded % units;
}

}  // namespace warpsim::memory

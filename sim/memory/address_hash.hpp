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
  // folded < 2^width <= 2 (units - 1): one subtraction is the remainder, without a division.
  return folded >= units ? folded - units : folded;
}

// x % d for x and d below 2^32, by multiplications (Lemire, Kaser and Kurz, "Faster remainder
// by direct computation", 2019): `magic` is remainder_magic(d). Equal to x % d for every such
// x and d; used where a remainder by a divisor fixed at construction is on the hot path.
inline std::uint64_t remainder_magic(std::uint64_t d) {
  return UINT64_MAX / d + 1;
}
inline std::uint64_t fast_remainder(std::uint64_t x, std::uint64_t d, std::uint64_t magic) {
  __extension__ using Wide = unsigned __int128;
  const std::uint64_t fraction = magic * x;
  return static_cast<std::uint64_t>((static_cast<Wide>(fraction) * d) >> 64);
}

}  // namespace warpsim::memory

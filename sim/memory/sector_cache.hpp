// A sectored, set-associative cache with LRU replacement: 128-byte lines of four 32-byte
// sectors; a line is allocated whole, its sectors filled one by one. Used for the L1 of each SM
// and the slices of the L2. Only tags and per-sector state are kept, never data.
// Contract: set count is a power of two or not, any (indexing is modulo); capacity 0 means
// nothing is ever cached (every lookup misses, nothing is allocated).
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::memory {

inline constexpr std::uint64_t kNever = UINT64_MAX;

// Whether sector s (0-3) is set in a mask of a line's sectors.
inline bool has_sector(unsigned mask, unsigned s) {
  return ((mask >> s) & 1u) != 0;
}

// One host cache line each, so that allocating a line over a victim writes one host line and
// reads none (the tag, the LRU stamp and the dirty sectors live in the cache's own arrays).
struct alignas(64) CacheLine {
  std::uint64_t fill_cycle[4] = {0, 0, 0, 0};  // when each present sector's data arrives
  std::int32_t pending[4] = {-1, -1, -1, -1};  // fill not yet known: the request's index
  std::uint8_t valid = 0;                      // sectors present (bit per sector)
};

struct Eviction {
  std::uint64_t line = kNever;  // the evicted line's address, kNever when none
  std::uint8_t dirty = 0;       // its dirty sectors
};

// How a line picks its set. Folded: an XOR of all the address's bit groups, so power-of-two
// strides use every set (an SM's L1 sees the whole address space). Mixed: a multiplicative
// hash, independent of the folded one, for caches that only see the lines a folded hash has
// already sent them (an L2 slice): folding again would put those lines in few sets.
enum class SetIndex : std::uint8_t { Folded, Mixed };

class SectorCache {
 public:
  SectorCache() = default;
  SectorCache(std::uint64_t bytes, std::uint64_t ways, SetIndex index = SetIndex::Folded);

  bool enabled() const { return sets_ != 0; }
  // The line if present (no LRU update), else nullptr.
  CacheLine* find(std::uint64_t line);
  // The line, allocated (evicting the least recently used) when absent; LRU updated.
  CacheLine* touch(std::uint64_t line, Eviction& evicted);
  // Sectors of `l` (a line this cache returned) written and not yet written back; written to
  // DRAM (reported in the Eviction) when the line is evicted. A line not of this cache (an
  // uncached stand-in) is ignored.
  void mark_dirty(const CacheLine& l, std::uint8_t sectors);
  // Starts reading the tags and LRU stamps of the set `line` maps to, for a touch soon after
  // (the caches are far larger than the host's: an L2 slice's set is a host cache miss).
  void prefetch(std::uint64_t line) const;

 private:
  std::uint64_t set_of(std::uint64_t line) const;

  std::uint64_t sets_ = 0, ways_ = 0, stamp_ = 0;
  SetIndex index_ = SetIndex::Folded;
  std::uint64_t set_magic_ = 0;  // remainder_magic(sets_): the Mixed index's remainder
  // Set-major. Tags apart from the rest, so a lookup reads one or two host cache lines.
  std::vector<std::uint64_t> tags_;    // line address (byte address / 128), kNever when empty
  std::vector<std::uint64_t> stamps_;  // LRU: when each way was last used
  std::vector<std::uint8_t> dirty_;    // sectors written and not yet written back
  std::vector<CacheLine> lines_;
};

}  // namespace warpsim::memory

#include "sim/memory/sector_cache.hpp"

#include <algorithm>
#include <functional>

#include "sim/core/gpu_constants.hpp"
#include "sim/memory/address_hash.hpp"

namespace warpsim::memory {
SectorCache::SectorCache(std::uint64_t bytes, std::uint64_t ways, SetIndex index)
    : sets_(ways == 0 ? 0 : bytes / kLineBytes / ways),
      ways_(ways),
      index_(index),
      set_magic_(sets_ == 0 ? 0 : remainder_magic(sets_)),
      tags_(sets_ * ways_, kNever),
      stamps_(sets_ * ways_, 0),
      dirty_(sets_ * ways_, 0),
      lines_(sets_ * ways_) {}

std::uint64_t SectorCache::set_of(std::uint64_t line) const {
  return index_ == SetIndex::Folded
             ? fold_hash(line, sets_)
             : fast_remainder((line * 0x9E3779B97F4A7C15ull) >> 32, sets_, set_magic_);
}

CacheLine* SectorCache::find(std::uint64_t line) {
  if (sets_ == 0) return nullptr;
  const std::uint64_t base = set_of(line) * ways_;
  for (std::uint64_t w = 0; w < ways_; ++w) {
    if (tags_[base + w] == line) return &lines_[base + w];
  }
  return nullptr;
}

CacheLine* SectorCache::touch(std::uint64_t line, Eviction& evicted) {
  evicted = {};
  if (sets_ == 0) return nullptr;
  const std::uint64_t base = set_of(line) * ways_;
  const std::uint64_t* tags = tags_.data() + base;
  for (std::uint64_t w = 0; w < ways_; ++w) {
    if (tags[w] == line) {
      stamps_[base + w] = ++stamp_;
      return &lines_[base + w];
    }
  }
  // An empty way, else the least recently used.
  std::uint64_t victim = 0;
  for (std::uint64_t w = 0; w < ways_; ++w) {
    if (tags[w] == kNever) {
      victim = w;
      break;
    }
    if (stamps_[base + w] < stamps_[base + victim]) victim = w;
  }
  CacheLine& v = lines_[base + victim];
  if (tags[victim] != kNever) evicted = {tags[victim], dirty_[base + victim]};
  dirty_[base + victim] = 0;
  v = CacheLine{};
  tags_[base + victim] = line;
  stamps_[base + victim] = ++stamp_;
  return &v;
}

void SectorCache::mark_dirty(const CacheLine& l, std::uint8_t sectors) {
  const CacheLine* first = lines_.data();
  if (std::less<const CacheLine*>{}(&l, first) ||
      !std::less<const CacheLine*>{}(&l, first + lines_.size()))
    return;
  dirty_[static_cast<std::size_t>(&l - first)] |= sectors;
}

void SectorCache::prefetch(std::uint64_t line) const {
  if (sets_ == 0) return;
  const std::uint64_t base = set_of(line) * ways_;
  // Every host cache line of the set's tags and stamps (8 words to a 64-byte line).
  for (std::uint64_t w = 0; w < ways_; w += 8) {
    __builtin_prefetch(tags_.data() + base + w);
    __builtin_prefetch(stamps_.data() + base + w);
  }
  __builtin_prefetch(tags_.data() + base + ways_ - 1);
  __builtin_prefetch(stamps_.data() + base + ways_ - 1);
  __builtin_prefetch(dirty_.data() + base);
}

}  // namespace warpsim::memory

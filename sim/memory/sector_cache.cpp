#include "sim/memory/sector_cache.hpp"

namespace warpsim::memory {
namespace {

// Lines map to sets through a multiplicative hash, so power-of-two strides spread over all sets
// (as the hashed indexing of real caches does).
std::uint64_t set_of(std::uint64_t line, std::uint64_t sets) {
  return ((line * 0x9E3779B97F4A7C15ull) >> 32) % sets;
}

}  // namespace

SectorCache::SectorCache(std::uint64_t bytes, std::uint64_t ways)
    : sets_(ways == 0 ? 0 : bytes / 128 / ways), ways_(ways), lines_(sets_ * ways_) {}

CacheLine* SectorCache::find(std::uint64_t line) {
  if (sets_ == 0) return nullptr;
  CacheLine* set = lines_.data() + set_of(line, sets_) * ways_;
  for (std::uint64_t w = 0; w < ways_; ++w) {
    if (set[w].tag == line) return &set[w];
  }
  return nullptr;
}

CacheLine* SectorCache::touch(std::uint64_t line, Eviction& evicted) {
  evicted = {};
  if (sets_ == 0) return nullptr;
  CacheLine* set = lines_.data() + set_of(line, sets_) * ways_;
  CacheLine* victim = set;
  for (std::uint64_t w = 0; w < ways_; ++w) {
    if (set[w].tag == line) {
      set[w].last_use = ++stamp_;
      return &set[w];
    }
    if (set[w].tag == kNever) {
      if (victim->tag != kNever) victim = &set[w];
    } else if (victim->tag != kNever && set[w].last_use < victim->last_use) {
      victim = &set[w];
    }
  }
  if (victim->tag != kNever) evicted = {victim->tag, victim->dirty};
  *victim = CacheLine{};
  victim->tag = line;
  victim->last_use = ++stamp_;
  return victim;
}

void SectorCache::clear() {
  for (CacheLine& l : lines_) l = CacheLine{};
  stamp_ = 0;
}

}  // namespace warpsim::memory

// The checks' record of memory: per 4-byte word, the last write and a read since (the first of
// those not ordered before a later one), each stamped with its thread, instruction and the
// barrier epochs its block had reached; and which of the word's bytes were written since (for
// initcheck). 40 bytes a word: a checked launch holds ten times its buffers' size.
#pragma once

#include <cstdint>

namespace warpsim::check {

struct Stamp {
  std::uint32_t block = 0;  // linear block + 1; 0: none
  std::uint16_t thread = 0;
  std::uint8_t atomic = 0;
  std::uint8_t bytes = 0;  // which of the word's bytes
  std::uint32_t inst = 0;
  // The block's barrier epoch (low 16 bits), the warp's __syncwarp epoch (next 8) and the
  // cluster barrier epoch (high 8). Accesses are compared by equality only, so the truncation
  // matters only for two accesses exactly 2^16 barriers (2^8 warp or cluster syncs) apart with
  // no access to the word in between.
  std::uint32_t epochs = 0;
  bool none() const { return block == 0; }
  std::uint32_t epoch() const { return epochs & 0xffffu; }
  std::uint32_t warp_epoch() const { return (epochs >> 16) & 0xffu; }
  std::uint32_t cluster_epoch() const { return epochs >> 24; }
  bool same_thread(const Stamp& o) const { return block == o.block && thread == o.thread; }
};

struct ShadowWord {
  Stamp writer, reader;
  std::uint32_t generation = 0;  // shared memory: the block instance the stamps belong to
  std::uint8_t written = 0;      // bytes written since the memory started (initcheck)
};

// A buffer's (or a block's shared memory's) words in one anonymous mapping: the kernel hands
// out zeroed pages where first touched, so memory follows what the launch touches, in huge
// pages where it can (fewer faults). A zeroed word is a valid empty one.
class ShadowRegion {
 public:
  // `start_unwritten`: 0xF for memory that starts uninitialised, 0 for initialised memory.
  ShadowRegion(std::uint64_t bytes, std::uint8_t start_unwritten);
  ~ShadowRegion();
  ShadowRegion(const ShadowRegion&) = delete;
  ShadowRegion& operator=(const ShadowRegion&) = delete;
  ShadowWord& word(std::uint64_t index) { return words_[index]; }
  std::uint8_t start_unwritten() const { return start_unwritten_; }

 private:
  ShadowWord* words_ = nullptr;
  std::size_t length_ = 0;  // bytes mapped
  std::uint8_t start_unwritten_;
};

}  // namespace warpsim::check

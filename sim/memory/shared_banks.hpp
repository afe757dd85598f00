// Shared-memory banks: 32 banks of 4-byte words; word w lives in bank w % 32.
//
// A warp's access is processed in phases: the whole warp for 32-bit accesses, half-warps for
// 64-bit, quarter-warps for 128-bit. In a phase, each bank delivers one distinct word per
// wavefront, so the phase takes as many wavefronts as the largest number of distinct words any
// one bank must deliver. Lanes that touch the same word share it (a broadcast for loads; for
// stores one lane's value lands). What the H200 adds to that (kernels_ir/calibration/
// memory_rules.kir, validation/h200/memory_rules/, docs/memory.md):
//   - loads: the two phases of a pair (the halves of a 64-bit access; quarters 0 and 1, and 2
//     and 3, of a 128-bit one) share one wavefront when each alone takes one, together they
//     ask no bank for two words, and at most two addresses are asked for by both;
//   - atomics serve every lane apart, lanes on one word included: a phase takes as many
//     wavefronts as the most lanes any bank serves; compare-and-swap twice that; but a
//     reduction that adds the constant 1 (ATOMS.POPC.INC) counts lanes on one word once.
// The ideal is one wavefront per pass (a phase, or a pair that merged) with an active lane;
// bank conflicts are the wavefronts beyond it.
// Contract: offsets are byte offsets in the block's shared memory, aligned to access_bytes
// (4, 8 or 16); offsets[l] is read only for lanes in `mask`.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::memory {

inline constexpr unsigned kBanks = 32;
inline constexpr unsigned kBankWordBytes = 4;

// What the request does, which decides how lanes on one word are served.
enum class SharedAccess : std::uint8_t {
  Load,
  Store,
  Atomic,             // ATOMS.ADD, MIN, MAX, EXCH; reductions of a value in a register
  CompareSwap,        // ATOMS.CAS: each lane read and written apart
  CountingIncrement,  // a reduction adding the constant 1: ATOMS.POPC.INC
  // ATOMS.CAST, the 64-bit compare-and-swap of the loop ptxas makes of a 64-bit shared atomic:
  // `mask` is the lanes the pass serves (one word per bank); lanes on one word share it, and the
  // read and the write take a wavefront each (the H200's counts: 4 for a pass whose lanes lie in
  // both half-warps, 2 for one half; memory_rules.kir's shared u64 launches).
  SpinCompareSwap,
};

struct SharedRequest {
  unsigned wavefronts = 0;
  unsigned ideal = 0;
  unsigned conflicts() const { return wavefronts - ideal; }
};

SharedRequest shared_wavefronts(const std::uint64_t* offsets, std::uint32_t mask,
                                unsigned access_bytes, SharedAccess access = SharedAccess::Load);

// The same computation, kept in full for pictures: which word each bank serves in which
// wavefront, and which lanes read or write it.
struct BankSlot {
  unsigned bank = 0;
  std::uint64_t word = 0;   // offset / 4
  std::uint32_t lanes = 0;  // lanes that touch this word in this phase (atomics: one lane)
  unsigned phase = 0;
  unsigned wavefront = 0;  // 0-based, counted across phases
};

struct BankMap {
  unsigned phases = 0;  // phases with an active lane
  unsigned passes = 0;  // phases after merging pairs: the ideal wavefronts
  unsigned wavefronts = 0;
  unsigned max_words_per_bank = 0;  // the conflict degree: 1 means none
  std::vector<BankSlot> slots;
};

BankMap bank_map(const std::uint64_t* offsets, std::uint32_t mask, unsigned access_bytes,
                 SharedAccess access = SharedAccess::Load);

}  // namespace warpsim::memory

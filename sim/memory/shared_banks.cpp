#include "sim/memory/shared_banks.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::memory {
namespace {

unsigned lanes_per_phase(unsigned access_bytes) {
  return kWarpSize / std::max(1u, access_bytes / 4);
}

std::uint32_t phase_mask(unsigned phase, unsigned lanes) {
  const std::uint32_t all = lanes == 32 ? kFullWarpMask : (1u << lanes) - 1;
  return all << (phase * lanes);
}

bool serves_lanes_apart(SharedAccess a) {
  return a == SharedAccess::Atomic || a == SharedAccess::CompareSwap;
}

// One phase's slots: its distinct words with the lanes on each (atomics: one slot per lane and
// word), and the wavefronts it takes on its own, each slot numbered within its bank.
struct Phase {
  std::vector<BankSlot> slots;
  unsigned depth = 0;  // wavefronts of the phase alone
};

Phase gather(const std::uint64_t* offsets, std::uint32_t active, unsigned access_bytes,
             unsigned phase, SharedAccess access) {
  Phase p;
  const unsigned words_per_lane = std::max(1u, access_bytes / kBankWordBytes);
  for (std::uint32_t m = active; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    for (unsigned k = 0; k < words_per_lane; ++k) {
      const std::uint64_t word = offsets[lane] / kBankWordBytes + k;
      auto it = std::find_if(p.slots.begin(), p.slots.end(),
                             [word](const BankSlot& s) { return s.word == word; });
      if (it == p.slots.end() || serves_lanes_apart(access)) {
        p.slots.push_back(
            BankSlot{static_cast<unsigned>(word % kBanks), word, 1u << lane, phase, 0});
      } else {
        it->lanes |= 1u << lane;
      }
    }
  }
  unsigned per_bank[kBanks] = {};
  for (BankSlot& s : p.slots) {
    s.wavefront = per_bank[s.bank]++;
    p.depth = std::max(p.depth, per_bank[s.bank]);
  }
  if (access == SharedAccess::CompareSwap || access == SharedAccess::SpinCompareSwap) p.depth *= 2;
  return p;
}

// Whether a pair of load phases shares one wavefront (the H200's rule, in the header).
bool merges(const Phase& a, const Phase& b, unsigned access_bytes) {
  if (a.depth != 1 || b.depth != 1) return false;
  std::uint64_t bank_word[kBanks];
  std::uint32_t used = 0;
  for (const BankSlot& s : a.slots) {
    used |= 1u << s.bank;
    bank_word[s.bank] = s.word;
  }
  std::uint64_t shared_addresses[3];
  unsigned shared = 0;
  const std::uint64_t words_per_access = std::max(1u, access_bytes / kBankWordBytes);
  for (const BankSlot& s : b.slots) {
    if ((used >> s.bank & 1u) == 0) continue;
    if (bank_word[s.bank] != s.word) return false;  // two words from one bank
    const std::uint64_t address = s.word / words_per_access;
    if (std::find(shared_addresses, shared_addresses + shared, address) ==
        shared_addresses + shared) {
      if (shared == 2) return false;
      shared_addresses[shared++] = address;
    }
  }
  return true;
}

}  // namespace

BankMap bank_map(const std::uint64_t* offsets, std::uint32_t mask, unsigned access_bytes,
                 SharedAccess access) {
  BankMap map;
  const unsigned lanes = lanes_per_phase(access_bytes);
  std::vector<Phase> phases;
  for (unsigned phase = 0; phase < kWarpSize / lanes; ++phase) {
    const std::uint32_t active = mask & phase_mask(phase, lanes);
    phases.push_back(active == 0 ? Phase{} : gather(offsets, active, access_bytes, phase, access));
  }
  for (std::size_t i = 0; i < phases.size(); ++i) {
    Phase& p = phases[i];
    if (p.slots.empty()) continue;
    ++map.phases;
    // The second phase of a pair that merged rides on the first's wavefront.
    const bool second_of_pair = i % 2 == 1 && !phases[i - 1].slots.empty();
    if (second_of_pair && access == SharedAccess::Load && merges(phases[i - 1], p, access_bytes)) {
      for (BankSlot& s : p.slots) s.wavefront = map.wavefronts - 1;
    } else {
      for (BankSlot& s : p.slots) s.wavefront += map.wavefronts;
      map.wavefronts += p.depth;
      ++map.passes;
    }
    map.max_words_per_bank = std::max(map.max_words_per_bank, p.depth);
    map.slots.insert(map.slots.end(), p.slots.begin(), p.slots.end());
  }
  return map;
}

SharedRequest shared_wavefronts(const std::uint64_t* offsets, std::uint32_t mask,
                                unsigned access_bytes, SharedAccess access) {
  // Wider accesses and atomics go through the full map; 32-bit loads and stores, most of all
  // requests, take the fast path below (one phase: nothing merges).
  if (access_bytes > kBankWordBytes || serves_lanes_apart(access) ||
      access == SharedAccess::SpinCompareSwap) {
    const BankMap map = bank_map(offsets, mask, access_bytes, access);
    return {map.wavefronts, map.passes};
  }
  SharedRequest r;
  if (mask == 0) return r;
  r.ideal = 1;
  // Fast path: every bank serves at most one distinct word (conflict-free or broadcast).
  std::uint64_t bank_word[kBanks];
  std::uint32_t used = 0;
  bool conflict = false;
  for (std::uint32_t m = mask; m != 0 && !conflict; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t word = offsets[lane] / kBankWordBytes;
    const auto bank = static_cast<unsigned>(word % kBanks);
    if ((used >> bank) & 1u) {
      conflict = bank_word[bank] != word;
    } else {
      used |= 1u << bank;
      bank_word[bank] = word;
    }
  }
  unsigned deepest = 1;
  if (conflict) {
    // At most 32 distinct words: sort, count per bank.
    std::uint64_t words[kWarpSize];
    unsigned n = 0;
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      words[n++] = offsets[std::countr_zero(m)] / kBankWordBytes;
    }
    std::sort(words, words + n);
    n = static_cast<unsigned>(std::unique(words, words + n) - words);
    unsigned per_bank[kBanks] = {};
    for (unsigned i = 0; i < n; ++i) deepest = std::max(deepest, ++per_bank[words[i] % kBanks]);
  }
  r.wavefronts = deepest;
  return r;
}

}  // namespace warpsim::memory

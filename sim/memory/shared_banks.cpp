#include "sim/memory/shared_banks.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::memory {
namespace {

unsigned lanes_per_phase(unsigned access_bytes) {
  return 32 / std::max(1u, access_bytes / 4);
}

std::uint32_t phase_mask(unsigned phase, unsigned lanes) {
  const std::uint32_t all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  return all << (phase * lanes);
}

}  // namespace

BankMap bank_map(const std::uint64_t* offsets, std::uint32_t mask, unsigned access_bytes) {
  BankMap map;
  const unsigned lanes = lanes_per_phase(access_bytes);
  const unsigned words_per_lane = std::max(1u, access_bytes / kBankWordBytes);
  for (unsigned phase = 0; phase < 32 / lanes; ++phase) {
    const std::uint32_t active = mask & phase_mask(phase, lanes);
    if (active == 0) continue;
    ++map.phases;
    // Distinct words of this phase with the lanes touching each, in order of first lane.
    std::vector<BankSlot> words;
    for (std::uint32_t m = active; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      for (unsigned k = 0; k < words_per_lane; ++k) {
        const std::uint64_t word = offsets[lane] / kBankWordBytes + k;
        auto it = std::find_if(words.begin(), words.end(),
                               [word](const BankSlot& s) { return s.word == word; });
        if (it == words.end()) {
          words.push_back(
              BankSlot{static_cast<unsigned>(word % kBanks), word, 1u << lane, phase, 0});
        } else {
          it->lanes |= 1u << lane;
        }
      }
    }
    unsigned per_bank[kBanks] = {};
    unsigned deepest = 0;
    for (BankSlot& s : words) {
      s.wavefront = map.wavefronts + per_bank[s.bank]++;
      deepest = std::max(deepest, per_bank[s.bank]);
    }
    map.wavefronts += deepest;
    map.max_words_per_bank = std::max(map.max_words_per_bank, deepest);
    map.slots.insert(map.slots.end(), words.begin(), words.end());
  }
  return map;
}

SharedRequest shared_wavefronts(const std::uint64_t* offsets, std::uint32_t mask,
                                unsigned access_bytes) {
  const unsigned lanes = lanes_per_phase(access_bytes);
  const unsigned words_per_lane = std::max(1u, access_bytes / kBankWordBytes);
  SharedRequest r;
  for (unsigned phase = 0; phase < 32 / lanes; ++phase) {
    const std::uint32_t active = mask & phase_mask(phase, lanes);
    if (active == 0) continue;
    ++r.ideal;
    // Fast path: every bank serves at most one distinct word (conflict-free or broadcast).
    std::uint64_t bank_word[kBanks];
    std::uint32_t used = 0;
    bool conflict = false;
    for (std::uint32_t m = active; m != 0 && !conflict; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      for (unsigned k = 0; k < words_per_lane; ++k) {
        const std::uint64_t word = offsets[lane] / kBankWordBytes + k;
        const auto bank = static_cast<unsigned>(word % kBanks);
        if ((used >> bank) & 1u) {
          conflict = conflict || bank_word[bank] != word;
        } else {
          used |= 1u << bank;
          bank_word[bank] = word;
        }
      }
    }
    unsigned deepest = 1;
    if (conflict) {
      // At most 32 distinct words per phase (lanes x words per lane): sort, count per bank.
      std::uint64_t words[32];
      unsigned n = 0;
      for (std::uint32_t m = active; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        for (unsigned k = 0; k < words_per_lane; ++k) {
          words[n++] = offsets[lane] / kBankWordBytes + k;
        }
      }
      std::sort(words, words + n);
      n = static_cast<unsigned>(std::unique(words, words + n) - words);
      unsigned per_bank[kBanks] = {};
      for (unsigned i = 0; i < n; ++i) deepest = std::max(deepest, ++per_bank[words[i] % kBanks]);
    }
    r.wavefronts += deepest;
  }
  return r;
}

}  // namespace warpsim::memory

#include "sim/memory/constant_cache.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::memory {

ConstantCache::ConstantCache(const ConstantTiming& timing, bool l2_flushed)
    : timing_(timing), l2_flushed_(l2_flushed), arrives_(kBankBytes / kLineBytes, kNotRead) {}

std::uint64_t ConstantCache::read(std::uint32_t mask, const std::uint64_t* offsets,
                                  std::uint64_t now) {
  bool miss = false;
  for (std::uint32_t m = mask; m != 0; m &= m - 1)
    miss |= arrives_[offsets[std::countr_zero(m)] / kLineBytes] == kNotRead;
  std::uint64_t miss_cost = 0;
  if (miss) {
    const bool first = !missed_;
    miss_cost = first ? timing_.first_miss_latency : timing_.miss_latency;
    if (l2_flushed_) miss_cost += first ? timing_.cold_first_cycles : timing_.cold_cycles;
    missed_ = true;
  }
  std::uint64_t wait = miss_cost;
  std::uint32_t addresses = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    bool repeated = false;
    for (std::uint32_t before = mask & ((1u << lane) - 1); before != 0 && !repeated;
         before &= before - 1)
      repeated = offsets[std::countr_zero(before)] == offsets[lane];
    addresses += repeated ? 0 : 1;
    std::uint64_t& arrives = arrives_[offsets[lane] / kLineBytes];
    if (arrives == kNotRead) arrives = now + miss_cost;
    if (arrives > now) wait = std::max(wait, arrives - now);
  }
  return wait + (std::max(addresses, 1u) - 1) * timing_.serial_cycles;
}

}  // namespace warpsim::memory

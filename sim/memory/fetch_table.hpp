// What an SM has fetched once for the whole launch and every warp then shares: lines of the
// constant banks read as operands, translations of global pages. A small direct-mapped table of
// keys and the cycle each one's fetch completes: a key not held is fetched from the cycle it is
// first asked for (replacing the entry's key), and whoever asks meanwhile waits for that fetch.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace warpsim::memory {

template <std::size_t Entries>
class FetchTable {
 public:
  explicit FetchTable(std::uint64_t miss_latency) : miss_latency_(miss_latency) {}
  // When `key` is there for one asking at `now` (`now` itself if it is).
  std::uint64_t ready(std::uint64_t key, std::uint64_t now) {
    Entry& e = entries_[(key ^ key >> 6 ^ key >> 12) % Entries];
    if (e.key != key) e = {key, now + miss_latency_};
    return std::max(e.arrives, now);
  }

 private:
  struct Entry {
    std::uint64_t key = UINT64_MAX;
    std::uint64_t arrives = 0;
  };
  std::uint64_t miss_latency_;
  std::array<Entry, Entries> entries_{};
};

}  // namespace warpsim::memory

// The clocks of the memory below the SMs. Everything there happens at whole cycles except the
// work of a bandwidth server (an L2 slice, a DRAM channel): a slice moves 32 bytes in a
// fraction of a cycle, so its bookings are kept in fractional cycles and rounded up to a whole
// cycle only where a request's time is handed back. Two types keep the units apart: `Cycle`
// (whole cycles, what requests carry) and `BusyCycles` (a server's fractional work).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace warpsim::memory {

using Cycle = std::uint64_t;

// How long a server is busy with one booking, in cycles (not rounded).
struct BusyCycles {
  double cycles = 0;
};

// A server that does one booking after another, each taking its BusyCycles from the later of
// its start and the end of the booking before it.
class BandwidthServer {
 public:
  // Books `busy` from `from` on; returns the whole cycle by which it ends.
  Cycle book(Cycle from, BusyCycles busy) {
    free_ = std::max(free_, static_cast<double>(from)) + busy.cycles;
    return static_cast<Cycle>(std::ceil(free_));
  }

 private:
  double free_ = 0;  // when the last booking ends (exact: whole cycles are below 2^53)
};

// Requests counted with a weight that decays by exp(-age / window): a rate of requests over
// the last `window` cycles that needs no history. Requests come in nearly, not strictly, in
// time order: one a little earlier than the last counts as of the last.
class DecayingCount {
 public:
  void add(Cycle at, Cycle window) {
    if (at > last_) {
      weight_ *= std::exp(-static_cast<double>(at - last_) / static_cast<double>(window));
      last_ = at;
    }
    weight_ += 1;
  }
  double weight() const { return weight_; }

 private:
  double weight_ = 0;
  Cycle last_ = 0;
};

}  // namespace warpsim::memory

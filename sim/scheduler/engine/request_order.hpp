// Puts an interval's L2 requests in the order the memory system resolves them: (cycle, SM,
// sequence). Requests are gathered SM by SM, each SM's in sequence, so a stable sort on the
// cycle alone gives that order; a counting sort does it in linear time, its buckets kept for
// the next interval.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/memory/memory_system.hpp"

namespace warpsim::scheduler {

class RequestOrder {
 public:
  void by_cycle(std::vector<memory::L2Request*>& requests);

 private:
  std::vector<std::size_t> counts_;
  std::vector<memory::L2Request*> sorted_;
};

}  // namespace warpsim::scheduler

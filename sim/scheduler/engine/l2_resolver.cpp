#include "sim/scheduler/engine/l2_resolver.hpp"

#include <algorithm>
#include <exception>
#include <thread>

namespace warpsim::scheduler {

L2Resolver::L2Resolver(memory::MemorySystem& system, std::vector<std::unique_ptr<SmModel>>& sms,
                       std::uint32_t threads)
    : system_(system),
      sms_(sms),
      threads_(threads),
      side_requests_(system.sides()),
      side_order_(system.sides()) {}

void L2Resolver::preload(const exec::GlobalMemory& memory) {
  if (!parallel_sides()) {
    for (const exec::GlobalBuffer& b : memory.buffers)
      system_.preload(b.base_address, b.bytes.size());
    return;
  }
  // Each side fills its own lines, on a thread of its own.
  const std::uint32_t sides = system_.sides();
  std::vector<std::exception_ptr> errors(sides);
  auto fill = [&](std::uint32_t side) {
    try {
      for (const exec::GlobalBuffer& b : memory.buffers)
        system_.preload(b.base_address, b.bytes.size(), side);
    } catch (...) {
      errors[side] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::uint32_t side = 1; side < sides; ++side) helpers.emplace_back(fill, side);
    fill(0);
  }
  for (std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

bool L2Resolver::in_parallel(std::size_t requests) const {
  if (!parallel_sides() || requests < kParallelResolveRequests) return false;
  return std::all_of(sms_.begin(), sms_.end(),
                     [](const std::unique_ptr<SmModel>& sm) { return sm->atomics().empty(); });
}

void L2Resolver::resolve_all(std::uint64_t boundary) {
  std::vector<memory::L2Request*>& all = side_requests_[0];
  all.clear();
  for (auto& sm : sms_) {
    for (memory::L2Request& r : sm->requests()) all.push_back(&r);
  }
  side_order_[0].by_cycle(all);
  system_.resolve(all, boundary, [&](const memory::L2Request& r) {
    exec::DeferredAtomic& a = sms_[r.sm]->atomics()[static_cast<std::size_t>(r.atomic)];
    a.apply(a);
  });
}

void L2Resolver::resolve_share(std::uint32_t k, std::uint32_t threads, std::uint64_t boundary) {
  const std::uint32_t sides = system_.sides();
  for (std::uint32_t side = k * sides / threads; side < (k + 1) * sides / threads; ++side)
    resolve_side(side, boundary);
}

void L2Resolver::resolve_side(std::uint32_t side, std::uint64_t boundary) {
  std::vector<memory::L2Request*>& mine = side_requests_[side];
  mine.clear();
  for (auto& sm : sms_) {
    for (memory::L2Request& r : sm->requests())
      if (system_.side_of(r.line) == side) mine.push_back(&r);
  }
  side_order_[side].by_cycle(mine);
  system_.resolve_side(mine, boundary);
}

}  // namespace warpsim::scheduler

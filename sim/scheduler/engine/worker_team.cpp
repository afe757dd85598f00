#include "sim/scheduler/engine/worker_team.hpp"

namespace warpsim::scheduler {

WorkerTeam::WorkerTeam(std::uint32_t threads)
    : threads_(threads), sync_(threads), errors_(threads) {
  for (std::uint32_t k = 1; k < threads_; ++k) {
    workers_.emplace_back([this, k] {
      for (;;) {
        sync_.arrive_and_wait();
        if (stop_.load()) return;
        share(k);
        sync_.arrive_and_wait();
      }
    });
  }
}

WorkerTeam::~WorkerTeam() {
  stop_.store(true);
  if (threads_ > 1) sync_.arrive_and_wait();
  workers_.clear();
}

void WorkerTeam::share(std::uint32_t k) {
  try {
    (*work_)(k);
  } catch (...) {
    errors_[k] = std::current_exception();
  }
}

void WorkerTeam::run(const std::function<void(std::uint32_t)>& work) {
  work_ = &work;
  sync_.arrive_and_wait();
  share(0);
  sync_.arrive_and_wait();
  for (std::exception_ptr& e : errors_) {
    if (e) std::rethrow_exception(std::exchange(e, nullptr));
  }
}

}  // namespace warpsim::scheduler

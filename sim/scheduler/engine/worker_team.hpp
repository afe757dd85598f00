// The timing model's threads: a team that runs one piece of work on every thread at once, the
// calling thread taking share 0, and meets at a barrier before and after. The workers live as
// long as the team, so an interval costs two barrier crossings, not thread starts.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "sim/scheduler/engine/spin_barrier.hpp"

namespace warpsim::scheduler {

class WorkerTeam {
 public:
  explicit WorkerTeam(std::uint32_t threads);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  std::uint32_t threads() const { return threads_; }
  // Runs work(k) for every share k at once; rethrows the first share's exception, if any.
  void run(const std::function<void(std::uint32_t)>& work);

 private:
  void share(std::uint32_t k);

  std::uint32_t threads_;
  SpinBarrier sync_;
  std::atomic<bool> stop_{false};
  const std::function<void(std::uint32_t)>* work_ = nullptr;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::jthread> workers_;
};

}  // namespace warpsim::scheduler

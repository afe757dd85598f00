// The barrier the timing model's threads meet at, a few times per simulated interval (every few
// hundred microseconds of host time). A thread that arrives early spins for a while before it
// sleeps: waking a sleeping thread costs tens of microseconds, more on a virtual machine, each
// time. It spins only when every thread has a core of its own; otherwise its spinning would
// keep the threads it waits for from running.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace warpsim::scheduler {

class SpinBarrier {
 public:
  explicit SpinBarrier(std::uint32_t threads)
      : threads_(threads), spin_(threads <= std::max(1u, std::thread::hardware_concurrency())) {}

  void arrive_and_wait() {
    const std::uint32_t phase = phase_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      // The count is reset before the phase moves on, so no thread can arrive at the next
      // meeting before it.
      arrived_.store(0, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      phase_.notify_all();
      return;
    }
    if (spin_) {
      const auto until = std::chrono::steady_clock::now() + kSpinFor;
      for (std::uint32_t i = 1;; ++i) {
        if (phase_.load(std::memory_order_acquire) != phase) return;
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() > until) break;
      }
    }
    while (phase_.load(std::memory_order_acquire) == phase)
      phase_.wait(phase, std::memory_order_acquire);
  }

 private:
  static constexpr std::chrono::microseconds kSpinFor{2000};
  const std::uint32_t threads_;
  const bool spin_;
  std::atomic<std::uint32_t> arrived_{0};
  std::atomic<std::uint32_t> phase_{0};
};

}  // namespace warpsim::scheduler

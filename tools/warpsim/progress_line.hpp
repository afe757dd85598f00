// A progress line for long runs: blocks done of the total, warp instructions and their rate, on
// standard error, rewritten in place. It appears only at a terminal, and only once a run has
// taken longer than kDelay, so short runs and anything piped or captured stay unchanged.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>

#include "sim/core/exec/executor.hpp"

namespace warpsim::cli {

class ProgressLine : public exec::ProgressHook {
 public:
  static constexpr std::chrono::milliseconds kDelay{1500}, kEvery{500};

  // `enabled`: whether to draw at all (standard error is a terminal).
  ProgressLine(std::ostream& err, bool enabled);
  ~ProgressLine() override;  // clears the line it drew
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Standard error is a terminal.
  static bool stderr_is_terminal();

  // Erases the line, if one was drawn (before other output to the terminal).
  void clear();

  void blocks(std::uint64_t done, std::uint64_t total) override;
  void instructions(std::uint64_t executed) override;

 private:
  void maybe_draw();

  std::ostream& err_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
  std::uint64_t done_ = 0, total_ = 0, executed_ = 0;
};

}  // namespace warpsim::cli

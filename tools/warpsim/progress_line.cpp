#include "tools/warpsim/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <ostream>

namespace warpsim::cli {

ProgressLine::ProgressLine(std::ostream& err, bool enabled)
    : err_(err), enabled_(enabled), start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() {
  clear();
}

void ProgressLine::clear() {
  if (drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
  enabled_ = false;
}

bool ProgressLine::stderr_is_terminal() {
  return isatty(STDERR_FILENO) != 0;
}

void ProgressLine::blocks(std::uint64_t done, std::uint64_t total) {
  done_ = done;
  total_ = total;
}

void ProgressLine::instructions(std::uint64_t executed) {
  executed_ = executed;
  maybe_draw();
}

void ProgressLine::maybe_draw() {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < kDelay || (drawn_ && now - last_ < kEvery)) return;
  last_ = now;
  drawn_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  err_ << fmt::format(
              "\r\033[Kwarpsim: {} of {} blocks done, {:.1f} M warp instructions, "
              "{:.2f} M/s, {:.0f} s",
              done_, total_, static_cast<double>(executed_) / 1e6,
              static_cast<double>(executed_) / 1e6 / seconds, seconds)
       << std::flush;
}

}  // namespace warpsim::cli

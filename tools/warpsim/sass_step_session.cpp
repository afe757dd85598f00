#include "tools/warpsim/sass_step_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>

#include "cuda_backend/ptx.hpp"
#include "tools/warpsim/step_session.hpp"

namespace warpsim::cli {
namespace {

constexpr const char* kHelp =
    "commands: s|step, n|next [N], c|continue, until LINE, p|print Rn|Pn, barriers, q|quit\n";

std::optional<std::uint64_t> positive(const std::string& word) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size() || n == 0) {
    return std::nullopt;
  }
  return n;
}

// The IR line ptxas's line information gives the instruction (0 when none).
std::uint32_t ir_line(const sass::Instruction& inst) {
  const sass::SassInstruction* l = inst.listed;
  return l != nullptr && l->source_file == cuda::kIrSourceFile ? l->source_line : 0;
}

// Where it came from: "line 12" (the IR), "hist.cu:40" (an imported kernel's CUDA line), "?".
std::string origin_of(const sass::Instruction& inst) {
  const sass::SassInstruction* l = inst.listed;
  if (l == nullptr || l->source_line == 0) return "?";
  if (l->source_file == cuda::kIrSourceFile) return fmt::format("line {}", l->source_line);
  const std::size_t slash = l->source_file.find_last_of('/');
  return fmt::format("{}:{}",
                     slash == std::string::npos ? l->source_file : l->source_file.substr(slash + 1),
                     l->source_line);
}

std::string text_of(const sass::Instruction& inst) {
  const sass::SassInstruction* l = inst.listed;
  if (l == nullptr) return "?";
  return (l->guard.empty() ? "" : l->guard + " ") + l->opcode +
         (l->operands.empty() ? "" : " " + l->operands);
}

}  // namespace

SassStepSession::SassStepSession(std::istream& in, std::ostream& out, bool prompt, bool ascii)
    : in_(in), out_(out), prompt_(prompt), ascii_(ascii) {}

std::string SassStepSession::legend() const {
  return ascii_ ? "# running, : waiting at a barrier, - on another path, . exited"
                : "\u2588 running, \u2591 waiting at a barrier, \u2592 on another path, "
                  "\u00b7 exited";
}

std::string SassStepSession::lane_bar(std::uint32_t active, const sass::SassWarp& w) const {
  std::string bar;
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t bit = 1u << l;
    if ((w.lanes & bit) == 0) {
      bar += ' ';
    } else if (active & bit) {
      bar += ascii_ ? "#" : "\u2588";
    } else if (w.exited & bit) {
      bar += ascii_ ? "." : "\u00b7";
    } else if ((w.waiting | w.block_waiting) & bit) {
      bar += ascii_ ? ":" : "\u2591";
    } else {
      bar += ascii_ ? "-" : "\u2592";
    }
  }
  return bar;
}

void SassStepSession::print_barriers(const sass::SassWarp& w) {
  std::string line;
  for (std::size_t b = 0; b < w.barrier.size(); ++b) {
    if (w.barrier[b] == 0) continue;
    line += fmt::format("  B{} = {}", b, lane_bar(w.barrier[b], w));
  }
  out_ << "       convergence barriers:" << (line.empty() ? " none" : "") << '\n';
  for (std::size_t b = 0; b < w.barrier.size(); ++b) {
    if (w.barrier[b] == 0) continue;
    out_ << fmt::format("         B{:<2} {}  {:>2} lanes (BSSY made it; BSYNC waits for them)\n", b,
                        lane_bar(w.barrier[b], w), std::popcount(w.barrier[b]));
  }
  if (w.waiting != 0) {
    out_ << fmt::format("         waiting at BSYNC/WARPSYNC: {}  {:>2} lanes\n",
                        lane_bar(w.waiting, w), std::popcount(w.waiting));
  }
  if (w.block_waiting != 0) {
    out_ << fmt::format("         waiting at BAR.SYNC:       {}  {:>2} lanes\n",
                        lane_bar(w.block_waiting, w), std::popcount(w.block_waiting));
  }
}

void SassStepSession::before(const sass::SassProgram& program, const sass::SassWarp& w,
                             std::uint32_t pc, std::uint32_t active) {
  if (steps_ == 0) {
    out_ << fmt::format("{:>5}  {:<6}  {:<9}  {:<32}  {:>5}  {}\n", "#", "addr", "from",
                        "lanes, 0 to 31", "lanes", "the SASS instruction about to run");
  }
  if (w.barrier != last_barriers_ || w.waiting != last_waiting_) {
    print_barriers(w);
    last_barriers_ = w.barrier;
    last_waiting_ = w.waiting;
  }
  const sass::Instruction& inst = program.insts[pc];
  const std::uint32_t line = ir_line(inst);
  ++steps_;
  out_ << fmt::format("{:>5}  {:#06x}  {:<9}  {}  {:>2}/32  {}\n", steps_, inst.address,
                      origin_of(inst), lane_bar(active, w), std::popcount(active), text_of(inst));
  if (run_to_end_) return;
  if (run_remaining_ > 0 && --run_remaining_ > 0) return;
  if (run_until_line_) {
    if (line != *run_until_line_) return;
    run_until_line_.reset();
  }
  command_loop(program, w, line);
}

void SassStepSession::command_loop(const sass::SassProgram& program, const sass::SassWarp& w,
                                   std::uint32_t line) {
  for (;;) {
    if (input_ended_) {
      run_to_end_ = true;
      return;
    }
    if (prompt_) out_ << fmt::format("(step, about to run IR line {}) ", line) << std::flush;
    std::string command;
    if (!std::getline(in_, command)) {
      if (prompt_) {
        out_ << "quit\n";
        throw StepStopped{};
      }
      input_ended_ = true;
      continue;
    }
    if (!prompt_) out_ << "> " << command << '\n';
    if (run_command(command, program, w)) return;
  }
}

bool SassStepSession::run_command(const std::string& command, const sass::SassProgram& program,
                                  const sass::SassWarp& w) {
  std::istringstream words(command);
  std::string verb, arg;
  words >> verb >> arg;
  if (verb.empty() || verb == "s" || verb == "step") {
    run_remaining_ = 1;
    return true;
  }
  if (verb == "n" || verb == "next") {
    const auto n = arg.empty() ? std::optional<std::uint64_t>(1) : positive(arg);
    if (!n) {
      out_ << "next: '" << arg << "' is not a positive count; e.g. next 5\n";
      return false;
    }
    run_remaining_ = *n;
    return true;
  }
  if (verb == "c" || verb == "continue") {
    run_to_end_ = true;
    return true;
  }
  if (verb == "until" || verb == "u") {
    const auto line = positive(arg);
    bool found = false;
    for (const sass::Instruction& i : program.insts) found = found || (line && ir_line(i) == *line);
    if (!found) {
      out_ << "until: no SASS instruction comes from IR line '" << arg << "'\n";
      return false;
    }
    run_until_line_ = static_cast<std::uint32_t>(*line);
    return true;
  }
  if (verb == "p" || verb == "print") {
    print_register(w, arg);
  } else if (verb == "barriers") {
    print_barriers(w);
  } else if (verb == "q" || verb == "quit") {
    throw StepStopped{};
  } else if (verb == "h" || verb == "help") {
    out_ << kHelp;
  } else {
    out_ << "unknown command '" << verb << "'; " << kHelp;
  }
  return false;
}

void SassStepSession::print_register(const sass::SassWarp& w, const std::string& name) {
  const std::size_t regs = w.r.size() / 32;
  unsigned n = 0;
  const char kind = name.empty() ? ' ' : static_cast<char>(std::toupper(name[0]));
  const auto [end, ec] = std::from_chars(name.data() + std::min<std::size_t>(1, name.size()),
                                         name.data() + name.size(), n);
  const bool number = name.size() >= 2 && ec == std::errc() && end == name.data() + name.size();
  if (kind == 'P' && number && n < 7) {
    out_ << fmt::format("P{}: {}  ({} lanes true)\n", n, lane_bar(w.pred[n], w),
                        std::popcount(w.pred[n]));
    return;
  }
  if (kind != 'R' || !number || n >= regs) {
    out_ << fmt::format("print: give R0 to R{} or P0 to P6, e.g. print R2\n", regs - 1);
    return;
  }
  out_ << fmt::format("R{} (32 bits, hex and signed), by lane:\n", n);
  for (unsigned l = 0; l < 32; ++l) {
    if ((w.lanes >> l & 1u) == 0) continue;
    const std::uint32_t v = w.r[std::size_t{n} * 32 + l];
    out_ << fmt::format("  {:>2} {:#010x} {:>11}", l, v, static_cast<std::int32_t>(v));
    if (l % 4 == 3) out_ << '\n';
  }
  out_ << '\n';
}

void SassStepSession::finished(const sass::SassWarp& w) {
  out_ << fmt::format("warp finished after {} SASS instructions; {} threads exited\n", steps_,
                      std::popcount(w.exited));
  throw StepStopped{};
}

}  // namespace warpsim::cli

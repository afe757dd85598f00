#include "tools/warpsim/step_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <istream>
#include <ostream>
#include <sstream>

#include "sim/core/exec/values.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::cli {
namespace {

// One character per lane, lane 0 first: active, waiting on the stack, exited, no thread.
std::string lane_bar(std::uint32_t active, const exec::WarpState& w) {
  std::string bar;
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t bit = 1u << l;
    if ((w.lanes & bit) == 0) {
      bar += ' ';
    } else if (active & bit) {
      bar += "\u2588";
    } else if (w.exited & bit) {
      bar += "\u00b7";
    } else {
      bar += "\u2591";
    }
  }
  return bar;
}

std::string line_of(const exec::ExecContext& ctx, std::uint32_t pc) {
  if (pc == exec::kExitPc) return "exit";
  return fmt::format("line {}", ctx.program.insts[pc].line);
}

std::string format_value(std::uint64_t bits, ir::ScalarType type) {
  return exec::with_type(type, [bits](auto zero) -> std::string {
    using T = decltype(zero);
    return fmt::format("{}", exec::from_bits<T>(bits));
  });
}

constexpr const char* kHelp =
    "commands: s|step, n|next N, c|continue, until LINE, p|print %reg, stack, regs, q|quit\n";

}  // namespace

void StepSession::before(const exec::ExecContext& ctx, const exec::WarpState& w,
                         const exec::DecodedInst& inst) {
  // Show the stack when a branch, join or return changed it (and at the start); the top
  // entry's pc moving through its block is not a change.
  bool stack_changed = w.stack.size() != last_stack_.size();
  for (std::size_t i = 0; !stack_changed && i < w.stack.size(); ++i) {
    const bool is_top = i + 1 == w.stack.size();
    stack_changed = w.stack[i].mask != last_stack_[i].mask ||
                    w.stack[i].reconverge != last_stack_[i].reconverge ||
                    (!is_top && w.stack[i].pc != last_stack_[i].pc);
  }
  if (stack_changed) print_stack(ctx, w);
  last_stack_ = w.stack;
  const std::uint32_t mask = w.stack.back().mask;
  ++steps_;
  out_ << fmt::format("{:>5}  line {:>4}  {}  {:>2}/32  {}\n", steps_, inst.line, lane_bar(mask, w),
                      std::popcount(mask), inst.source ? ir::to_string(*inst.source) : "");
  if (run_to_end_) return;
  if (run_remaining_ > 0 && --run_remaining_ > 0) return;
  if (run_until_line_) {
    if (inst.line != *run_until_line_) return;
    run_until_line_.reset();
  }
  command_loop(ctx, w, inst.line);
}

void StepSession::command_loop(const exec::ExecContext& ctx, const exec::WarpState& w,
                               std::uint32_t line) {
  for (;;) {
    if (input_ended_) {
      run_to_end_ = true;
      return;
    }
    if (prompt_) out_ << fmt::format("(step, line {}) ", line) << std::flush;
    std::string command;
    if (!std::getline(in_, command)) {
      input_ended_ = true;
      if (prompt_) out_ << '\n';
      continue;
    }
    if (!prompt_) out_ << "> " << command << '\n';  // echo scripted commands into the transcript
    if (run_command(command, ctx, w)) return;
  }
}

// Returns true when the command resumes execution.
bool StepSession::run_command(const std::string& command, const exec::ExecContext& ctx,
                              const exec::WarpState& w) {
  std::istringstream words(command);
  std::string verb, arg;
  words >> verb >> arg;
  if (verb.empty() || verb == "s" || verb == "step") {
    run_remaining_ = 1;
    return true;
  }
  if (verb == "n" || verb == "next") {
    std::uint64_t n = 0;
    if (!(std::istringstream(arg) >> n) || n == 0) {
      out_ << "next: give a positive count, e.g. next 5\n";
      return false;
    }
    run_remaining_ = n;
    return true;
  }
  if (verb == "c" || verb == "continue") {
    run_to_end_ = true;
    return true;
  }
  if (verb == "until" || verb == "u") {
    std::uint32_t line = 0;
    if (!(std::istringstream(arg) >> line)) {
      out_ << "until: give an IR line number, e.g. until 24\n";
      return false;
    }
    run_until_line_ = line;
    return true;
  }
  if (verb == "p" || verb == "print") {
    print_register(ctx, w, arg);
  } else if (verb == "stack") {
    print_stack(ctx, w);
  } else if (verb == "regs") {
    for (const std::string& name : ctx.program.register_names) out_ << '%' << name << ' ';
    out_ << '\n';
  } else if (verb == "q" || verb == "quit") {
    throw StepStopped{};
  } else if (verb == "h" || verb == "help") {
    out_ << kHelp;
  } else {
    out_ << "unknown command '" << verb << "'; " << kHelp;
  }
  return false;
}

void StepSession::print_stack(const exec::ExecContext& ctx, const exec::WarpState& w) {
  out_ << "       SIMT stack, top first:\n";
  for (auto it = w.stack.rbegin(); it != w.stack.rend(); ++it) {
    out_ << fmt::format("         at {:<10} reconverge at {:<10} {}  {:>2}/32\n",
                        line_of(ctx, it->pc), line_of(ctx, it->reconverge), lane_bar(it->mask, w),
                        std::popcount(it->mask));
  }
}

void StepSession::print_register(const exec::ExecContext& ctx, const exec::WarpState& w,
                                 const std::string& name) {
  const std::string bare = !name.empty() && name[0] == '%' ? name.substr(1) : name;
  const auto& names = ctx.program.register_names;
  exec::OperandRef reg;
  ir::ScalarType type = ir::ScalarType::U32;
  if (auto special = ir::parse_special_reg(bare)) {
    reg = ctx.program.special_operands[static_cast<std::size_t>(*special)];
  } else if (auto it = std::find(names.begin(), names.end(), bare); it != names.end()) {
    reg.slot = static_cast<std::uint32_t>(it - names.begin());
    type = ctx.program.register_types[reg.slot];
  } else {
    out_ << "no register '" << name << "' (regs lists them)\n";
    return;
  }
  const std::uint32_t active = w.stack.back().mask;
  out_ << '%' << bare << " (" << ir::name(type) << "), * = active lane:\n";
  for (unsigned l = 0; l < 32; ++l) {
    if ((w.lanes >> l & 1u) == 0) continue;
    out_ << fmt::format("  {:>2}{} {:>14}", l, (active >> l & 1u) ? '*' : ' ',
                        format_value(w.read(reg)[l], type));
    if (l % 4 == 3) out_ << '\n';
  }
  out_ << '\n';
}

void StepSession::finished(const exec::ExecContext&, const exec::WarpState& w) {
  out_ << fmt::format("warp finished after {} instructions; {} threads exited\n", steps_,
                      std::popcount(w.exited));
  throw StepStopped{};
}

}  // namespace warpsim::cli

#include "tools/warpsim/step_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <csignal>
#include <istream>
#include <ostream>
#include <sstream>

#include "sim/core/exec/values.hpp"
#include "sim/core/ir/printer.hpp"
#include "tools/warpsim/check_report.hpp"

namespace warpsim::cli {
namespace {

// Set by Ctrl-C while the session runs without stopping; read before each instruction.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) {
  interrupted = 1;
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
    "commands: s|step, n|next [N], c|continue, until LINE, hazard, p|print %reg, stack, regs, "
    "q|quit\n";

// A positive count as the whole word: "5", not "-3", "5x" or "".
std::optional<std::uint64_t> positive_count(const std::string& word) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size() || n == 0) {
    return std::nullopt;
  }
  return n;
}

}  // namespace

StepSession::StepSession(std::istream& in, std::ostream& out, bool prompt, bool ascii)
    : in_(in), out_(out), prompt_(prompt), ascii_(ascii) {
  interrupted = 0;
  if (prompt_) std::signal(SIGINT, on_interrupt);
}

StepSession::~StepSession() {
  if (prompt_) std::signal(SIGINT, SIG_DFL);
}

std::string StepSession::legend() const {
  return ascii_ ? "# active, : waiting, . exited" : "\u2588 active, \u2591 waiting, \u00b7 exited";
}

// One character per lane, lane 0 first: active, waiting on the stack, exited, no thread.
std::string StepSession::lane_bar(std::uint32_t active, const exec::WarpState& w) const {
  std::string bar;
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t bit = 1u << l;
    if ((w.lanes & bit) == 0) {
      bar += ' ';
    } else if (active & bit) {
      bar += ascii_ ? "#" : "\u2588";
    } else if (w.exited & bit) {
      bar += ascii_ ? "." : "\u00b7";
    } else {
      bar += ascii_ ? ":" : "\u2591";
    }
  }
  return bar;
}

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
  if (written_.empty()) {
    written_.assign(ctx.program.register_names.size(), false);
    out_ << fmt::format("{:>5}  {:<9}  {:<32}  {:>5}  {}\n", "#", "IR line", "lanes, 0 to 31",
                        "active", "the instruction about to run");
  }
  if (previous_ != nullptr) {
    for (unsigned d = 0; d < previous_->ndst; ++d) written_[previous_->dst[d]] = true;
  }
  // Hazards the launch ran into since the last instruction of this warp, before its next row.
  const bool hazard = show_new_hazards(ctx);
  previous_ = &inst;
  if (stack_changed) print_stack(ctx, w);
  last_stack_ = w.stack;
  const std::uint32_t mask = w.stack.back().mask;
  ++steps_;
  std::string text = inst.source ? ir::to_string(*inst.source) : "";
  if (module_ != nullptr && inst.source != nullptr && inst.source->origin.known()) {
    const std::string origin = module_->origin_text(inst.source->origin);
    if (text.size() < 40) text.resize(40, ' ');
    text += "  " + origin + " (PTX " + std::to_string(inst.source->origin.ptx_line) + ")";
  }
  out_ << fmt::format("{:>5}  line {:>4}  {}  {:>2}/32  {}\n", steps_, inst.line, lane_bar(mask, w),
                      std::popcount(mask), text);
  if (interrupted != 0) {
    interrupted = 0;
    run_to_end_ = false;
    run_remaining_ = 0;
    run_until_line_.reset();
    out_ << "interrupted\n";
    command_loop(ctx, w, inst.line);
    return;
  }
  if (hazard && run_to_hazard_) {
    run_to_hazard_ = false;
    command_loop(ctx, w, inst.line);
    return;
  }
  if (run_to_end_ || run_to_hazard_) return;
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
    if (prompt_) out_ << fmt::format("(step, about to run line {}) ", line) << std::flush;
    std::string command;
    if (!std::getline(in_, command)) {
      // At a terminal, the end of input (Ctrl-D) quits; a script that ends lets the warp run on.
      if (prompt_) {
        out_ << "quit\n";
        throw StepStopped{};
      }
      input_ended_ = true;
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
  if (resume_command(verb, arg, ctx)) return true;
  if (verb == "p" || verb == "print") {
    print_register(ctx, w, arg);
  } else if (verb == "stack") {
    print_stack(ctx, w);
  } else if (verb == "regs") {
    print_registers(ctx, w);
  } else if (verb == "n" || verb == "next" || verb == "until" || verb == "u") {
    // resume_command refused the argument and said why
  } else if (verb == "q" || verb == "quit") {
    throw StepStopped{};
  } else if (verb == "h" || verb == "help") {
    out_ << kHelp;
  } else {
    out_ << "unknown command '" << verb << "'; " << kHelp;
  }
  return false;
}

// The commands that let the warp run; false (after saying why) when the argument is wrong or
// the verb is not one of them.
bool StepSession::resume_command(const std::string& verb, const std::string& arg,
                                 const exec::ExecContext& ctx) {
  if (verb.empty() || verb == "s" || verb == "step") {
    run_remaining_ = 1;
    return true;
  }
  if (verb == "n" || verb == "next") {
    const auto n = arg.empty() ? std::optional<std::uint64_t>(1) : positive_count(arg);
    if (!n) {
      out_ << "next: '" << arg << "' is not a positive count; e.g. next 5 (next alone: 1)\n";
      return false;
    }
    run_remaining_ = *n;
    return true;
  }
  if (verb == "c" || verb == "continue") {
    run_to_end_ = true;
    return true;
  }
  if (verb == "hazard") {
    if (checker_ == nullptr) {
      out_ << "hazard: no checks are running; start step with --check all (or race, sync, init)\n";
      return false;
    }
    run_to_hazard_ = true;
    return true;
  }
  if (verb == "until" || verb == "u") {
    const auto line = positive_count(arg);
    const auto& insts = ctx.program.insts;
    const bool has_instruction =
        line && std::any_of(insts.begin(), insts.end(),
                            [&](const exec::DecodedInst& i) { return i.line == *line; });
    if (!has_instruction) {
      out_ << "until: "
           << (line ? "line " + arg + " has no instruction" : "'" + arg + "' is not a line number")
           << "; give the IR line of an instruction, e.g. until " << insts.back().line << '\n';
      return false;
    }
    run_until_line_ = static_cast<std::uint32_t>(*line);
    return true;
  }
  return false;
}

bool StepSession::show_new_hazards(const exec::ExecContext& ctx) {
  if (checker_ == nullptr || module_ == nullptr) return false;
  const std::vector<check::Hazard>& hazards = checker_->report().hazards;
  bool any = false;
  for (std::size_t k = 0; k < hazards.size(); ++k) {
    if (k < hazard_counts_.size() && hazard_counts_[k] == hazards[k].count) continue;
    // Repeats are shown only when the session runs to the next hazard: a loop repeating one
    // hazard would otherwise fill the transcript.
    if (k < hazard_counts_.size() && !run_to_hazard_) continue;
    if (k < hazard_counts_.size()) {
      out_ << fmt::format("       hazard found again ({} times so far):\n", hazards[k].count);
    } else {
      out_ << "       hazard found:\n";
    }
    std::ostringstream text;
    write_hazard(text, hazards[k], *module_, ctx.launch);
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) out_ << "       " << line << '\n';
    any = true;
  }
  hazard_counts_.resize(hazards.size());
  for (std::size_t k = 0; k < hazards.size(); ++k) hazard_counts_[k] = hazards[k].count;
  return any;
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
  if (reg.special < 0 && !written_.empty() && !written_[reg.slot]) {
    out_ << '%' << bare << " (" << ir::name(type)
         << ") has not been written yet: no instruction that sets it has run in this warp\n";
    return;
  }
  out_ << '%' << bare << " (" << ir::name(type) << "), * = active lane:\n";
  for (unsigned l = 0; l < 32; ++l) {
    if ((w.lanes >> l & 1u) == 0) continue;
    out_ << fmt::format("  {:>2}{} {:>14}", l, (active >> l & 1u) ? '*' : ' ',
                        format_value(w.read(reg)[l], type));
    if (l % 4 == 3) out_ << '\n';
  }
  out_ << '\n';
}

// One line per register: the value when every active lane holds the same, else the first
// lanes' values; registers not written yet say so.
void StepSession::print_registers(const exec::ExecContext& ctx, const exec::WarpState& w) {
  const std::uint32_t active = w.stack.back().mask;
  const auto& names = ctx.program.register_names;
  for (std::uint32_t slot = 0; slot < names.size(); ++slot) {
    const ir::ScalarType type = ctx.program.register_types[slot];
    out_ << fmt::format("  %{:<14} {:<5} ", names[slot], ir::name(type));
    if (!written_.empty() && !written_[slot]) {
      out_ << "not written yet\n";
      continue;
    }
    exec::OperandRef reg;
    reg.slot = slot;
    const auto values = w.read(reg);
    std::vector<std::string> shown;
    bool uniform = true;
    for (unsigned l = 0; l < 32; ++l) {
      if ((active >> l & 1u) == 0) continue;
      uniform = uniform && (shown.empty() || values[l] == values[std::countr_zero(active)]);
      if (shown.size() < 8) shown.push_back(format_value(values[l], type));
    }
    if (shown.empty()) {
      out_ << "(no active lane)\n";
    } else if (uniform) {
      out_ << shown.front() << " in every active lane\n";
    } else {
      std::string list;
      for (const std::string& v : shown) list += (list.empty() ? "" : " ") + v;
      out_ << "lanes " << list << (std::popcount(active) > 8 ? " ..." : "") << "  (print %"
           << names[slot] << " for all)\n";
    }
  }
}

void StepSession::finished(const exec::ExecContext&, const exec::WarpState& w) {
  out_ << fmt::format("warp finished after {} instructions; {} threads exited\n", steps_,
                      std::popcount(w.exited));
  throw StepStopped{};
}

}  // namespace warpsim::cli

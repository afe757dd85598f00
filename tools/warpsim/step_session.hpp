// `warpsim step`: one warp's execution, instruction by instruction. Each instruction the warp
// issues is printed with its IR line and a 32-lane bar of the active mask; the SIMT stack is
// printed whenever it changes. Between instructions the session reads commands, from a person
// at a terminal or from a script:
//   s | step            run one instruction            n [N] | next [N] run N instructions (1)
//   c | continue        run to the end of the warp     until L          run until IR line L
//   p %reg | print %reg the register in every lane      stack            the SIMT stack
//   regs                every register's values         q | quit         stop (also end of input
//   h | help                                                            at a terminal: Ctrl-D)
//   hazard              with --check: run until the checks find a hazard (anywhere in the
//                       launch), show it, and stop at the warp's next instruction
// With --check, every hazard found is shown as it is found.
// Each printed row is the instruction about to run. At a terminal, Ctrl-C during `continue`,
// `next` or `until` stops at the next instruction of the warp and returns to the prompt.
#pragma once

#include <csignal>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/hazard_checker.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/state.hpp"

namespace warpsim::cli {

// Thrown to stop the simulation once the watched warp is done or the user quits.
struct StepStopped {};

class StepSession : public exec::TraceHook {
 public:
  // Reads commands from `in`; `prompt` says whether to print a prompt (a terminal); `ascii`
  // draws the lane bar with ASCII characters instead of block glyphs.
  StepSession(std::istream& in, std::ostream& out, bool prompt, bool ascii);
  ~StepSession() override;
  StepSession(const StepSession&) = delete;
  StepSession& operator=(const StepSession&) = delete;

  // The legend of the lane bar, for the header line.
  std::string legend() const;
  // An imported kernel's module: each step then names its CUDA line (and PTX line).
  void show_sources(const ir::Module& module) { module_ = &module; }
  // The checks running with the launch: their hazards are shown as they are found.
  void watch_hazards(const check::HazardChecker& checker) { checker_ = &checker; }

  void before(const exec::ExecContext& ctx, const exec::WarpState& warp,
              const exec::DecodedInst& inst) override;
  void finished(const exec::ExecContext& ctx, const exec::WarpState& warp) override;

 private:
  // Reads and runs commands until one resumes execution.
  void command_loop(const exec::ExecContext& ctx, const exec::WarpState& warp, std::uint32_t line);
  bool run_command(const std::string& command, const exec::ExecContext& ctx,
                   const exec::WarpState& warp);
  bool resume_command(const std::string& verb, const std::string& arg,
                      const exec::ExecContext& ctx);
  void print_stack(const exec::ExecContext& ctx, const exec::WarpState& warp);
  void print_register(const exec::ExecContext& ctx, const exec::WarpState& warp,
                      const std::string& name);
  void print_registers(const exec::ExecContext& ctx, const exec::WarpState& warp);
  std::string lane_bar(std::uint32_t active, const exec::WarpState& w) const;
  // Shows the hazards found since the last call (and, running to the next hazard, those found
  // again); true when it showed any.
  bool show_new_hazards(const exec::ExecContext& ctx);

  std::istream& in_;
  std::ostream& out_;
  const ir::Module* module_ = nullptr;
  bool prompt_;
  bool ascii_;
  std::uint64_t steps_ = 0;
  std::uint64_t run_remaining_ = 0;              // next N
  std::optional<std::uint32_t> run_until_line_;  // until L
  bool run_to_end_ = false;                      // continue
  bool run_to_hazard_ = false;                   // hazard
  const check::HazardChecker* checker_ = nullptr;
  std::vector<std::uint64_t> hazard_counts_;  // each hazard's count when last shown
  bool input_ended_ = false;
  std::vector<exec::SimtEntry> last_stack_;
  // Registers the warp has written: the destinations of every instruction it ran so far.
  std::vector<bool> written_;
  const exec::DecodedInst* previous_ = nullptr;
};

}  // namespace warpsim::cli

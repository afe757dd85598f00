// `warpsim step --frontend sass`: one warp as the GPU runs it. Each SASS instruction the warp
// issues is printed with its address, the IR line it came from and a 32-lane bar of the lanes
// that run it; whenever they change, the warp's convergence barriers (BSSY/BSYNC's lane masks)
// and the lanes waiting at one, which is how a Hopper warp splits and joins again. Commands,
// from a person at a terminal or a script:
//   s | step            run one instruction            n [N] | next [N] run N instructions (1)
//   c | continue        run to the end of the warp     until L          run until IR line L
//   p Rn | p Pn         a register or predicate, every lane      barriers   the barriers now
//   q | quit            stop                           h | help
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "sim/sass/sass_trace.hpp"

namespace warpsim::cli {

class SassStepSession : public sass::SassTraceHook {
 public:
  SassStepSession(std::istream& in, std::ostream& out, bool prompt, bool ascii);
  std::string legend() const;
  void before(const sass::SassProgram& program, const sass::SassWarp& warp, std::uint32_t pc,
              std::uint32_t active) override;
  void finished(const sass::SassWarp& warp) override;

 private:
  void command_loop(const sass::SassProgram& program, const sass::SassWarp& warp,
                    std::uint32_t line);
  bool run_command(const std::string& command, const sass::SassProgram& program,
                   const sass::SassWarp& warp);
  void print_barriers(const sass::SassWarp& warp);
  void print_register(const sass::SassWarp& warp, const std::string& name);
  std::string lane_bar(std::uint32_t active, const sass::SassWarp& w) const;

  std::istream& in_;
  std::ostream& out_;
  bool prompt_, ascii_;
  std::uint64_t steps_ = 0, run_remaining_ = 0;
  std::optional<std::uint32_t> run_until_line_;
  bool run_to_end_ = false, input_ended_ = false;
  std::array<std::uint32_t, 16> last_barriers_{};
  std::uint32_t last_waiting_ = 0;
};

}  // namespace warpsim::cli

// Reading a SASS instruction's operands lane by lane: the table of where each operand's words
// are, the constant banks and the special registers (sass_lanes.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim/sass/sass_executor.hpp"
#include "sim/sass/sass_warp_words.hpp"

namespace warpsim::sass {

Lanes::Lanes(const SassLaunch& launch_in, exec::LaunchStats& stats_in, SassBlock& block_in,
             SassWarp& warp, const Instruction& instruction, std::uint32_t lanes_mask,
             exec::AccessRecord* access_in, std::vector<exec::DeferredAtomic>* deferred_in,
             const SmView* sm_in)
    : launch(launch_in),
      stats(stats_in),
      block(block_in),
      w(warp),
      inst(instruction),
      mask(lanes_mask),
      access(access_in),
      deferred(deferred_in),
      sm(sm_in),
      run(instruction.mods.uniform ? lanes_mask & (~lanes_mask + 1u) : lanes_mask),
      tabled_(std::min(instruction.operands.size(), kTabled)) {}

void Lanes::find_sources() const {
  sources_found_ = true;
  static constexpr std::uint32_t kZero = 0;
  for (std::size_t k = 0; k < tabled_; ++k) {
    const Operand& o = inst.operands[k];
    Source& src = sources_[k];
    src = {};
    switch (o.kind) {
      case OperandKind::Reg:
        src = o.index == kZeroReg ? Source{&kZero, 0}
                                  : Source{w.r.data() + std::size_t{o.index} * kWarpSize, 1};
        break;
      case OperandKind::UReg:
        src = o.index == kZeroUReg ? Source{&kZero, 0} : Source{w.ur.data() + o.index, 0};
        break;
      case OperandKind::Imm:
        fixed_[k] = raw_slow(o, 0);
        src = {&fixed_[k], 0};
        break;
      case OperandKind::Const:
        // A fixed offset reads the same word on every lane; read it only when a lane runs, as
        // the lane loop would (an offset outside the bank faults only then).
        if (mask != 0 && is_fixed_constant(o)) {
          fixed_[k] = constant(o, static_cast<std::uint32_t>(o.value), 4);
          src = {&fixed_[k], 0};
        }
        break;
      default:
        break;
    }
  }
}

std::uint32_t Lanes::constant(const Operand& o, std::uint32_t offset, unsigned bytes) const {
  // Bank 0: the launch (sass_machine.hpp); bank 2: the kernel's own constants (ptxas's jump
  // tables); bank 3: the module's constants, as ptxas places them; bank 4: the addresses of the
  // module's global variables.
  const std::vector<std::uint8_t>* bank = o.bank == 0   ? &launch.bank0
                                          : o.bank == 2 ? launch.bank2
                                          : o.bank == 3 ? launch.bank3
                                          : o.bank == 4 ? &launch.bank4
                                                        : nullptr;
  if (bank == nullptr || std::uint64_t{offset} + bytes > bank->size())
    fault(0, fmt::format("constant bank {} offset 0x{:x} is outside what the launch holds", o.bank,
                         offset));
  std::uint32_t v = 0;
  std::memcpy(&v, bank->data() + offset, bytes);
  return v;
}

std::uint32_t Lanes::special(const Operand& o, unsigned lane) const {
  // The thread's index only where asked for: unflattening divides.
  const auto tid = [&] {
    return exec::unflatten(std::uint64_t{w.index} * kWarpSize + lane, launch.spec->block);
  };
  const std::uint32_t below = lane == 0 ? 0u : (kFullWarpMask >> (kWarpSize - lane));
  switch (static_cast<Special>(o.index)) {
    case Special::TidX:
      return static_cast<std::uint32_t>(tid().x);
    case Special::TidY:
      return static_cast<std::uint32_t>(tid().y);
    case Special::TidZ:
      return static_cast<std::uint32_t>(tid().z);
    case Special::CtaidX:
      return static_cast<std::uint32_t>(block.index.x);
    case Special::CtaidY:
      return static_cast<std::uint32_t>(block.index.y);
    case Special::CtaidZ:
      return static_cast<std::uint32_t>(block.index.z);
    case Special::LaneId:
      return lane;
    case Special::CgaCtaId:
      return block.rank;
    // The clock is the SM's cycle in timing mode; otherwise it (and the global timer, always)
    // counts the warp's instructions: deterministic, and increasing as a clock must.
    case Special::ClockLo:
      return static_cast<std::uint32_t>(clock());
    case Special::ClockHi:
      return static_cast<std::uint32_t>(clock() >> 32);
    case Special::GlobalTimerLo:
      return static_cast<std::uint32_t>(w.executed);
    case Special::GlobalTimerHi:
      return static_cast<std::uint32_t>(w.executed >> 32);
    case Special::LtMask:
      return below;
    case Special::LeMask:
      return below | (1u << lane);
    case Special::EqMask:
      return 1u << lane;
    case Special::GeMask:
      return ~below;
    case Special::GtMask:
      return ~below & ~(1u << lane);
    case Special::SharedWindowHigh:
      return kSharedWindowHigh;
    case Special::VirtualSm:  // the timing model's SM; one SM as the functional model sees it
      return sm != nullptr ? sm->index : 0;
    case Special::Zero:
      return 0;
    case Special::WarpId:
      return w.index;
  }
  return 0;
}

void Lanes::fault(unsigned lane, const std::string& what) const {
  SassExecutor(launch, stats).fault(block, w, lane, &inst, what);
}

}  // namespace warpsim::sass

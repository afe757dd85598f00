// One instruction executing on a warp: the lanes it runs on, and reading and writing its
// operands per lane. A uniform instruction (UIADD3, ULDC, S2UR, ...) runs once, on the lowest
// executing lane, and writes uniform registers. Internal to the SASS executor.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <string>

#include "sim/core/exec/state.hpp"
#include "sim/sass/sass_machine.hpp"

namespace warpsim::sass {

struct Lanes {
  Lanes(const SassLaunch& launch_in, exec::LaunchStats& stats_in, SassBlock& block_in,
        SassWarp& warp, const Instruction& instruction, std::uint32_t lanes_mask,
        exec::AccessRecord* access_in, std::vector<exec::DeferredAtomic>* deferred_in = nullptr,
        const SmView* sm_in = nullptr);

  const SassLaunch& launch;
  exec::LaunchStats& stats;
  SassBlock& block;
  SassWarp& w;
  const Instruction& inst;
  std::uint32_t mask = 0;                // lanes that execute it (guard applied)
  exec::AccessRecord* access = nullptr;  // timing mode: what a memory instruction touched
  // Timing mode: global atomics are queued here, applied when the L2 reaches them.
  std::vector<exec::DeferredAtomic>* deferred = nullptr;
  const SmView* sm = nullptr;  // timing mode: the SM and its cycle
  std::uint32_t run = 0;  // the lanes each() runs: mask, or a uniform instruction's lowest lane

  // Calls fn(lane) for each executing lane; a uniform instruction once.
  template <typename Fn>
  void each(Fn&& fn) const {
    if (inst.mods.uniform) {
      if (mask != 0) fn(static_cast<unsigned>(std::countr_zero(mask)));
      return;
    }
    for (std::uint32_t m = mask; m != 0; m &= m - 1) fn(static_cast<unsigned>(std::countr_zero(m)));
  }

  const Operand& op(std::size_t i) const { return inst.operands[i]; }
  std::size_t count() const { return inst.operands.size(); }

  std::uint32_t constant(const Operand& o, std::uint32_t offset, unsigned bytes) const;
  std::uint32_t special(const Operand& o, unsigned lane) const;
  // The 64-bit clock: the SM's cycle in timing mode, else the warp's instructions executed.
  std::uint64_t clock() const {
    return sm != nullptr && sm->cycle != nullptr ? *sm->cycle : w.executed;
  }

  // The operand's 32 bits, no modifier applied.
  std::uint32_t raw(const Operand& o, unsigned lane) const {
    if (const Source* src = source_of(o)) return src->at[std::size_t{lane} * src->step];
    return raw_slow(o, lane);
  }
  std::uint32_t raw_slow(const Operand& o, unsigned lane) const {
    switch (o.kind) {
      case OperandKind::Reg:
        return o.index == kZeroReg ? 0u : w.r[std::size_t{o.index} * kWarpSize + lane];
      case OperandKind::UReg:
        return o.index == kZeroUReg ? 0u : w.ur[o.index];
      case OperandKind::Imm:
        return o.is_real ? std::bit_cast<std::uint32_t>(static_cast<float>(o.real))
                         : static_cast<std::uint32_t>(o.value);
      case OperandKind::Const:
        return constant(o, index_of(o, lane), 4);
      case OperandKind::Special:
        return special(o, lane);
      default:
        return 0;
    }
  }
  // Integer source: ~ and - applied.
  std::uint32_t u32(const Operand& o, unsigned lane) const {
    std::uint32_t v = raw(o, lane);
    if (o.invert) v = ~v;
    if (o.negate) v = ~v + 1u;
    return v;
  }
  // Float source: |x| and - applied to the bits.
  float f32(const Operand& o, unsigned lane) const {
    std::uint32_t v = raw(o, lane);
    if (o.absolute) v &= 0x7fffffffu;
    if (o.negate) v ^= 0x80000000u;
    if (inst.mods.ftz && (v & 0x7f800000u) == 0) v &= 0x80000000u;
    return std::bit_cast<float>(v);
  }
  // A register pair's 64 bits (R, R+1), or a 64-bit constant or immediate.
  std::uint64_t raw64(const Operand& o, unsigned lane) const {
    switch (o.kind) {
      case OperandKind::Reg:
        return o.index == kZeroReg
                   ? 0u
                   : w.r[std::size_t{o.index} * kWarpSize + lane] |
                         std::uint64_t{w.r[std::size_t{o.index + 1u} * kWarpSize + lane]} << 32;
      case OperandKind::UReg:
        return o.index == kZeroUReg ? 0u : w.ur[o.index] | std::uint64_t{w.ur[o.index + 1u]} << 32;
      case OperandKind::Imm:
        return o.is_real ? std::bit_cast<std::uint64_t>(o.real) : o.value;
      case OperandKind::Const: {
        const std::uint32_t at = index_of(o, lane);
        return constant(o, at, 4) | std::uint64_t{constant(o, at + 4, 4)} << 32;
      }
      default:
        return raw(o, lane);
    }
  }
  double f64(const Operand& o, unsigned lane) const {
    std::uint64_t v = raw64(o, lane);
    if (o.absolute) v &= ~(std::uint64_t{1} << 63);
    if (o.negate) v ^= std::uint64_t{1} << 63;
    return std::bit_cast<double>(v);
  }
  bool pred(const Operand& o, unsigned lane) const {
    bool v = true;
    if (o.kind == OperandKind::Pred) {
      v = o.index == kTruePred || ((w.pred[o.index] >> lane) & 1u) != 0;
    } else if (o.kind == OperandKind::UPred) {
      v = o.index == kTruePred || ((w.upred >> o.index) & 1u) != 0;
    }
    return v != o.negate;
  }

  void set(const Operand& d, unsigned lane, std::uint32_t v) const {
    if (d.kind == OperandKind::Reg && d.index != kZeroReg) {
      w.r[std::size_t{d.index} * kWarpSize + lane] = v;
    } else if (d.kind == OperandKind::UReg && d.index != kZeroUReg) {
      w.ur[d.index] = v;
    }
  }
  void set64(const Operand& d, unsigned lane, std::uint64_t v) const {
    if (d.index == kZeroReg || (d.kind == OperandKind::UReg && d.index == kZeroUReg)) return;
    Operand high = d;
    high.index = static_cast<std::uint8_t>(d.index + 1);
    set(d, lane, static_cast<std::uint32_t>(v));
    set(high, lane, static_cast<std::uint32_t>(v >> 32));
  }
  void set_pred(const Operand& d, unsigned lane, bool v) const {
    if (d.index == kTruePred) return;
    if (d.kind == OperandKind::UPred) {
      w.upred = v ? w.upred | (1u << d.index) : w.upred & ~(1u << d.index);
    } else if (d.kind == OperandKind::Pred) {
      const std::uint32_t bit = 1u << lane;
      w.pred[d.index] = v ? w.pred[d.index] | bit : w.pred[d.index] & ~bit;
    }
  }

  [[noreturn]] void fault(unsigned lane, const std::string& what) const;

  std::uint32_t constant_offset(const Operand& o, unsigned lane) const { return index_of(o, lane); }

 private:
  // Where one of the instruction's operands reads its 32 bits: the lane's own word (at[lane],
  // step 1: a register) or one word for every lane (at[0], step 0: RZ, a uniform register, an
  // immediate, a constant at a fixed offset). Found once per instruction, so reading an
  // operand in the lane loop is one load; other operands (specials, indexed constants, those
  // past the table) take raw_slow.
  struct Source {  // no member initialisers: the table below is filled before it is read
    const std::uint32_t* at;
    std::uint32_t step;
  };
  static constexpr std::size_t kTabled = 8;
  const Source* source_of(const Operand& o) const {
    if (!sources_found_) find_sources();
    const Operand* first = inst.operands.data();
    if (std::less<const Operand*>{}(&o, first) || !std::less<const Operand*>{}(&o, first + tabled_))
      return nullptr;
    const Source& src = sources_[static_cast<std::size_t>(&o - first)];
    return src.at != nullptr ? &src : nullptr;
  }
  // Found on the first per-lane read: instructions that read whole warps never need them.
  void find_sources() const;
  // Filled by find_sources (each of the first tabled_ entries) before any is read: not cleared
  // on construction, which every executed instruction pays for.
  mutable std::array<Source, kTabled> sources_;
  mutable std::array<std::uint32_t, kTabled> fixed_;  // step-0 words not held in the state
  std::size_t tabled_ = 0;
  mutable bool sources_found_ = false;

  // c[bank][reg + offset]: the byte offset a lane reads.
  std::uint32_t index_of(const Operand& o, unsigned lane) const {
    std::uint32_t at = static_cast<std::uint32_t>(o.value);
    if (o.reg != kNoReg && o.reg != kZeroReg) at += w.r[std::size_t{o.reg} * kWarpSize + lane];
    if (o.ureg != kNoReg && o.ureg != kZeroUReg) at += w.ur[o.ureg];
    return at;
  }
};

// The families of instructions, each in its own file.
void execute_integer(const Lanes& x);     // sass_exec_integer.cpp
void execute_predicates(const Lanes& x);  // PLOP3, P2R, R2P: sass_exec_predicates.cpp
void execute_float(const Lanes& x);       // sass_exec_float.cpp
// The 16-bit float forms execute_float hands on (sass_exec_half.cpp).
bool is_half(DataType t);           // F16, BF16
void convert_half(const Lanes& x);  // F2F to or from a half
// An integer (as a double: exact below 2^53) rounded once to F16 or BF16 `dest`, in the low half.
std::uint32_t integer_to_half(double value, DataType dest, Rounding r);
void pack_halves(const Lanes& x);             // F2FP.*.PACK_AB
void add_halves_to_single(const Lanes& x);    // HADD2.F32
std::uint32_t half_immediate_bits(double v);  // HFMA2.MMA's immediates
// HADD2, HMUL2, HFMA2 and HMNMX2 on two packed f16 (or .BF16_V2 bfloat16) values.
void packed_half_arithmetic(const Lanes& x);
// HMMA.16816: a warp's 16x8x16 matrix product (sass_exec_mma.cpp).
void matrix_multiply_accumulate(const Lanes& x);
void add_packed16(const Lanes& x);      // VIADD.16x2
void min_max_packed16(const Lanes& x);  // VIMNMX.S16x2, .U16x2
void convert_fp8(const Lanes& x);       // F2FP's E4M3 and E5M2 forms
// HSETP2 and HSET2: each half compared (sass_exec_half.cpp).
void packed_half_compare(const Lanes& x);
// Whether `a` `c` `b` holds, NaNs unordered (the U forms true for them): FSETP's comparison.
bool compare_float(Compare c, double a, double b);
// The two packed halves of `a` and `b` (f16, or bfloat16 where `bf16`) added, each rounded once
// to nearest: an atomic's .F16x2 or .BF16x2 add.
std::uint32_t add_packed_halves(std::uint32_t a, std::uint32_t b, bool bf16);
void execute_memory(const Lanes& x);      // sass_exec_memory.cpp
void execute_warp_level(const Lanes& x);  // sass_exec_warp.cpp
// CALL.ABS: a runtime function, printf's or assert's (sass_runtime_calls.cpp).
void call_runtime(const Lanes& x);

}  // namespace warpsim::sass

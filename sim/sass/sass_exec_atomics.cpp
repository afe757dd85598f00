// Atomic instructions: ATOMG, REDG, ATOMS and generic ATOM, scalar (integers of 32 and 64 bits,
// f32, f64, packed halves; compare-and-swap and the shared spin form) and sm_90's vector float
// adds. Each lane's read-modify-write is done in lane order, which the result of a warp's lanes
// on one word does not depend on except for floating-point adds, whose order the GPU does not
// specify either.
#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

#include "sim/core/exec/float_flush.hpp"
#include "sim/core/exec/shared_access.hpp"
#include "sim/sass/sass_memory_access.hpp"

namespace warpsim::sass {
namespace {

template <typename T>
T combine(AtomOp op, T old, T v) {
  switch (op) {
    case AtomOp::Add:
      return static_cast<T>(old + v);
    case AtomOp::Min:
      return v < old ? v : old;
    case AtomOp::Max:
      return old < v ? v : old;
    case AtomOp::Inc:
      return old >= v ? T{0} : static_cast<T>(old + 1);
    case AtomOp::Dec:
      return (old == 0 || old > v) ? v : static_cast<T>(old - 1);
    case AtomOp::And:
      return old & v;
    case AtomOp::Or:
      return old | v;
    case AtomOp::Xor:
      return old ^ v;
    default:
      return v;  // Exch
  }
}

// One lane's read-modify-write at `p`; returns the old bits.
std::uint64_t update(void* p, AtomOp op, DataType type, std::uint64_t v, std::uint64_t swap) {
  if (data_bytes(type) == 8) {
    std::uint64_t old = 0;
    std::memcpy(&old, p, 8);
    std::uint64_t r = 0;
    if (op == AtomOp::Cas || op == AtomOp::Cast) {
      r = old == v ? swap : old;
    } else if (type == DataType::F64) {
      r = std::bit_cast<std::uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(v));
    } else if (type == DataType::S64) {
      r = static_cast<std::uint64_t>(
          combine<std::int64_t>(op, static_cast<std::int64_t>(old), static_cast<std::int64_t>(v)));
    } else {
      r = combine<std::uint64_t>(op, old, v);
    }
    std::memcpy(p, &r, 8);
    return old;
  }
  std::uint32_t old = 0;
  std::memcpy(&old, p, 4);
  const auto v32 = static_cast<std::uint32_t>(v);
  std::uint32_t r = 0;
  if (op == AtomOp::Cas || op == AtomOp::Cast) {
    r = old == v32 ? static_cast<std::uint32_t>(swap) : old;
  } else if (type == DataType::F16X2 || type == DataType::BF16X2) {
    r = op == AtomOp::Add ? add_packed_halves(old, v32, type == DataType::BF16X2) : v32;
  } else if (type == DataType::F32) {
    r = op == AtomOp::Add ? std::bit_cast<std::uint32_t>(exec::atomic_add_f32(
                                std::bit_cast<float>(old), std::bit_cast<float>(v32)))
                          : v32;
  } else if (type == DataType::S32) {
    r = static_cast<std::uint32_t>(
        combine<std::int32_t>(op, static_cast<std::int32_t>(old), static_cast<std::int32_t>(v32)));
  } else {
    r = combine<std::uint32_t>(op, old, v32);
  }
  std::memcpy(p, &r, 4);
  return old;
}

// The lanes of `mask` an ATOMS.CAST.SPIN pass serves: those in the first wavefront of their
// part of the warp (the whole warp for 32-bit words, each half for 64-bit ones, as for loads):
// taking lanes from the lowest, a lane whose word shares a bank with another word already taken
// waits for a later pass; lanes on a word already taken are served (their compare then fails).
// Read off the H200's counts (memory_rules.kir's shared_atom_add_u64 launches): 32 lanes on 32
// words of one bank take 16 passes, 8 words of one bank with 4 lanes each 16, 16 words in
// distinct banks with 2 lanes each 2, one word 32.
std::uint32_t spin_pass_lanes(const Access& acc, std::uint32_t mask) {
  const bool wide = acc.bytes == 8;
  const std::uint32_t parts = wide ? 2 : 1;
  std::uint32_t served = 0;
  for (std::uint32_t part = 0; part < parts; ++part) {
    const std::uint32_t lanes = wide ? (mask & (0xffffu << (16 * part))) : mask;
    std::uint32_t banks = 0;
    std::uint64_t words[kWarpSize];
    std::size_t taken = 0;
    for (std::uint32_t m = lanes; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      const std::uint64_t word = acc.address[lane] / acc.bytes;
      if (std::find(words, words + taken, word) != words + taken) {
        served |= 1u << lane;
        continue;
      }
      const auto bank = static_cast<std::uint32_t>((acc.address[lane] / 4) % kWarpSize);
      const std::uint32_t need = wide ? 3u << bank : 1u << bank;  // a 64-bit word: two banks
      if ((banks & need) != 0) continue;
      banks |= need;
      words[taken++] = word;
      served |= 1u << lane;
    }
  }
  return served;
}

// A generic atomic that reached global memory counts as ATOMG does: in the LSU pipe, not the
// ADU where its cluster shared-memory form counts, and as a global atomic (the H200's counts on
// kernels_cuda/sass_only/half2_atomics.cu, validation/h200/results/sass_only/).
void count_generic_atomic(const Lanes& x, Space space) {
  if (x.inst.op != Op::ATOM || space != Space::Global || x.mask == 0) return;
  exec::SassClassStats& classes = x.stats.sass;
  --classes.pipes[static_cast<std::size_t>(exec::SassPipe::Adu)];
  ++classes.pipes[static_cast<std::size_t>(exec::SassPipe::Lsu)];
  ++classes.ops[static_cast<std::size_t>(exec::SassOpClass::GlobalAtom)];
}

// The element type of each 32-bit word of a vector atomic's type, or nothing for a scalar one.
std::optional<DataType> vector_word_type(DataType t) {
  switch (t) {
    case DataType::F32X2:
    case DataType::F32X4:
      return DataType::F32;
    case DataType::F16X8:
      return DataType::F16X2;
    case DataType::BF16X4:
      return DataType::BF16X2;
    default:
      return std::nullopt;
  }
}

// A located atomic applied: each lane's update in lane order, the old values then written to
// the registers the instruction named (results: lane l's word w at [w * kWarpSize + l], a
// 64-bit value's high word in the next register). The timing model calls it for a global
// atomic when the L2 reaches it.
void apply_atomic(exec::DeferredAtomic& a) {
  const auto op = static_cast<AtomOp>(a.code_op);
  const auto type = static_cast<DataType>(a.code_type);
  const auto word_type = vector_word_type(type);
  const unsigned bytes = data_bytes(type);
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (word_type) {
      for (unsigned w = 0; w < bytes / 4; ++w) {
        const std::uint64_t held = w < 2 ? a.value[lane] : a.replacement[lane];
        const auto old = static_cast<std::uint32_t>(
            update(a.data[lane] + std::size_t{4} * w, AtomOp::Add, *word_type,
                   static_cast<std::uint32_t>(held >> (32 * (w % 2))), 0));
        if (a.results != nullptr) a.results[std::size_t{w} * kWarpSize + lane] = old;
      }
      continue;
    }
    const std::uint64_t old = update(a.data[lane], op, type, a.value[lane], a.replacement[lane]);
    if (a.results == nullptr) continue;
    a.results[lane] = static_cast<std::uint32_t>(old);
    if (bytes == 8) a.results[kWarpSize + lane] = static_cast<std::uint32_t>(old >> 32);
  }
}

// An atomic's lanes, located, with what each applies read at issue (`values` fills a lane's
// value and a CAS's replacement; a vector atomic's up to four words travel in value, words 0
// and 1, and replacement, 2 and 3): applied now, or for a global atomic where the timing model
// queues them (x.deferred), when the L2 reaches it.
template <typename ReadValues>
void apply_or_queue(const Lanes& x, const Access& acc, AtomOp op, const Operand* dest,
                    ReadValues&& values) {
  exec::DeferredAtomic now{};
  const bool queued = x.deferred != nullptr && acc.space == Space::Global;
  exec::DeferredAtomic& a = queued ? x.deferred->emplace_back() : now;
  a.apply = &apply_atomic;
  a.mask = x.run;
  a.code_op = static_cast<std::uint8_t>(op);
  a.code_type = static_cast<std::uint8_t>(x.inst.mods.type);
  if (dest != nullptr && dest->kind == OperandKind::Reg && dest->index != kZeroReg)
    a.results = x.w.r.data() + std::size_t{dest->index} * kWarpSize;
  x.each([&](unsigned lane) {
    a.data[lane] = acc.data[lane];
    values(lane, a);
  });
  if (!queued) apply_atomic(a);
}

// ATOMG / REDG / ATOM .ADD.F32x2, .F32x4, .F16x8, .BF16x4 (sm_90's vector atomics: CUDA's
// atomicAdd on float2 and float4, PTX's red/atom .v2/.v4/.v8 of f32, f16x2 and bf16x2): each
// 32-bit word of the naturally aligned vector added as its element type, as the PTX ISA defines
// the vector forms (element by element); the values come from consecutive registers from the
// value operand, the old words go to consecutive registers from the destination.
void vector_atomic(const Lanes& x, Space space, std::size_t at, const Operand* dest) {
  if (static_cast<AtomOp>(x.inst.mods.sub) != AtomOp::Add)
    x.fault(0, "a vector atomic other than ADD is not modelled");
  Access acc;
  acc.space = space;
  acc.bytes = data_bytes(x.inst.mods.type);
  locate(x, x.op(at), acc);
  const unsigned words = acc.bytes / 4;
  apply_or_queue(x, acc, AtomOp::Add, dest, [&](unsigned lane, exec::DeferredAtomic& a) {
    a.value[lane] = a.replacement[lane] = 0;
    for (unsigned w = 0; w < words; ++w) {
      Operand value = x.op(at + 1);
      value.index = static_cast<std::uint8_t>(value.index + w);
      std::uint64_t& held = w < 2 ? a.value[lane] : a.replacement[lane];
      held |= std::uint64_t{x.raw(value, lane)} << (32 * (w % 2));
    }
  });
  const bool returns = dest != nullptr;
  count(x, acc, returns ? exec::GlobalOp::Atomic : exec::GlobalOp::Reduction,
        exec::SharedOp::Atomic);
}

}  // namespace

void atomic(const Lanes& x, Space space, bool returns) {
  const Modifiers& m = x.inst.mods;
  // POPC.INC: each lane adds one (the hardware adds the count of lanes on each address).
  const auto op = m.count_lanes ? AtomOp::Add : static_cast<AtomOp>(m.sub);
  const bool wide = data_bytes(m.type) == 8;
  if (m.type == DataType::F32 && op != AtomOp::Add && op != AtomOp::Exch)
    x.fault(0, "a floating-point atomic other than ADD is not modelled");
  if ((m.type == DataType::F16X2 || m.type == DataType::BF16X2) && op != AtomOp::Add)
    x.fault(0, "a packed-half atomic other than ADD is not modelled");
  // ATOMG: [Pd,] Rd, [addr], Rv [, Rswap]; ATOMS: Rd, [addr], Rv [, Rswap]; REDG: [addr], Rv.
  std::size_t at = 0;
  while (x.op(at).kind != OperandKind::Mem) ++at;
  const Operand* dest = returns && at > 0 ? &x.op(at - 1) : nullptr;
  if (vector_word_type(m.type)) {
    vector_atomic(x, space, at, dest);
    count_generic_atomic(x, space);
    return;
  }
  Access acc;
  acc.space = space;
  acc.bytes = wide ? 8 : 4;
  locate(x, x.op(at), acc);
  const Operand& value = m.count_lanes ? x.op(at) : x.op(at + 1);
  const std::uint32_t served =
      op == AtomOp::Cast && space == Space::Shared ? spin_pass_lanes(acc, x.mask) : x.mask;
  if (op != AtomOp::Cast) {
    apply_or_queue(x, acc, op, dest, [&](unsigned lane, exec::DeferredAtomic& a) {
      a.value[lane] = m.count_lanes ? 1u : wide ? x.raw64(value, lane) : x.raw(value, lane);
      a.replacement[lane] = op != AtomOp::Cas ? 0u
                            : wide            ? x.raw64(x.op(at + 2), lane)
                                              : x.raw(x.op(at + 2), lane);
    });
  } else {
    // A spin's compare-and-store (ATOMS.CAST.SPIN, or a global ATOM.CAST, applied at issue)
    // returns whether it stored: 1 or 0, in a register pair for .64.
    x.each([&](unsigned lane) {
      std::uint64_t stored = 0;  // a lane not served this pass stores nothing
      if ((served >> lane & 1u) != 0) {
        const std::uint64_t v = wide ? x.raw64(value, lane) : x.raw(value, lane);
        const std::uint64_t swap = wide ? x.raw64(x.op(at + 2), lane) : x.raw(x.op(at + 2), lane);
        stored = update(acc.data[lane], op, m.type, v, swap) == v ? 1u : 0u;
      }
      if (dest == nullptr || dest->kind != OperandKind::Reg) return;
      if (wide) {
        x.set64(*dest, lane, stored);
      } else {
        x.set(*dest, lane, static_cast<std::uint32_t>(stored));
      }
    });
  }
  // As the IR executor counts them (exec::shared_access): a compare-and-swap reads and writes
  // each lane apart; POPC.INC (a reduction adding 1) counts lanes on one word once.
  const memory::SharedAccess access = op == AtomOp::Cas    ? memory::SharedAccess::CompareSwap
                                      : op == AtomOp::Cast ? memory::SharedAccess::SpinCompareSwap
                                      : m.count_lanes      ? memory::SharedAccess::CountingIncrement
                                                           : memory::SharedAccess::Atomic;
  // ATOM's leading predicate says the atomic happened (where it did not, in local memory,
  // ptxas's code runs a fallback): here it happened, in global or shared memory.
  if (x.inst.op == Op::ATOM && x.op(0).kind == OperandKind::Pred && x.op(0).index != kTruePred)
    x.each([&](unsigned lane) { x.set_pred(x.op(0), lane, true); });
  count_generic_atomic(x, acc.space);
  count(x, acc, returns ? exec::GlobalOp::Atomic : exec::GlobalOp::Reduction,
        exec::SharedOp::Atomic, access, served);
}

}  // namespace warpsim::sass

// Memory instructions: global (LDG, STG, ATOMG, REDG) by 64-bit virtual address into the
// launch's buffers, shared (LDS, STS, ATOMS) by the sm_90 shared window, local (LDL, STL) by
// the thread's stack frame. Every lane is located and checked (inside a buffer, naturally
// aligned) before memory is touched; a bad lane is a fault naming the address. Requests,
// sectors and wavefronts are counted as the IR executor counts them (sim/memory/).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/core/exec/shared_access.hpp"
#include "sim/memory/coalescing.hpp"
#include "sim/memory/shared_banks.hpp"
#include "sim/sass/sass_memory_access.hpp"
#include "sim/sass/sass_warp_words.hpp"

namespace warpsim::sass {
namespace {

// Every lane's address: desc[...][reg(.64) * scale + ureg + offset].
void addresses_of(const Lanes& x, const Operand& m, LaneWords64& a) {
  a.fill(m.value);
  if (m.reg != kNoReg && m.reg != kZeroReg) {
    Operand r;
    r.kind = OperandKind::Reg;
    r.index = m.reg;
    if (m.wide) {
      LaneWords64 v;
      read_raw64(x, r, v);
      for (unsigned l = 0; l < kWarpSize; ++l) a[l] += v[l] * m.scale;
    } else {
      LaneWords v;
      read_raw(x, r, v);
      for (unsigned l = 0; l < kWarpSize; ++l) a[l] += std::uint64_t{v[l]} * m.scale;
    }
  }
  if (m.ureg != kNoReg && m.ureg != kZeroUReg) {
    Operand u;
    u.kind = OperandKind::UReg;
    u.index = m.ureg;
    const std::uint64_t add = m.wide ? x.raw64(u, 0) : std::uint64_t{x.raw(u, 0)};
    for (unsigned l = 0; l < kWarpSize; ++l) a[l] += add;
  }
}

// The buffer holding [a, a + bytes), or nullptr; `last` (the previous lane's) is tried first.
exec::GlobalBuffer* buffer_of(const Lanes& x, std::uint64_t a, unsigned bytes,
                              exec::GlobalBuffer* last) {
  auto holds = [&](const exec::GlobalBuffer& b) {
    return a >= b.base_address && a + bytes <= b.base_address + b.bytes.size();
  };
  if (last != nullptr && holds(*last)) return last;
  for (exec::GlobalBuffer& b : x.launch.global->buffers) {
    if (holds(b)) return &b;
  }
  return nullptr;
}

Space window_of(std::uint64_t address) {
  const auto high = static_cast<std::uint32_t>(address >> 32);
  return high == kSharedWindowHigh  ? Space::Shared
         : high == kLocalWindowHigh ? Space::Local
                                    : Space::Global;
}

// A generic access's space: the first lane's window; every lane must agree (one instruction
// reaching two spaces is not modelled).
Space generic_space(const Lanes& x, const LaneWords64& addresses) {
  const Space space = window_of(addresses[static_cast<unsigned>(std::countr_zero(x.mask))]);
  x.each([&](unsigned lane) {
    if (window_of(addresses[lane]) != space)
      x.fault(lane,
              "a generic access reaching two of global, shared and local memory is not "
              "modelled");
  });
  return space;
}

}  // namespace

// Each executing lane's address and host pointer; a fault for the first bad lane.
void locate(const Lanes& x, const Operand& m, Access& acc) {
  LaneWords64 addresses;
  addresses_of(x, m, addresses);
  if (acc.space == Space::Generic) {
    if (x.mask == 0) return;
    acc.space = generic_space(x, addresses);
    acc.cluster = acc.space == Space::Shared && x.block.peers.size() > 1;
  }
  exec::GlobalBuffer* last = nullptr;
  x.each([&](unsigned lane) {
    std::uint64_t a = addresses[lane];
    if (acc.space != Space::Global) a &= 0xffffffffu;
    acc.address[lane] = a;
    if (a % acc.bytes != 0)
      x.fault(lane, fmt::format("misaligned {}-byte access at 0x{:x}", acc.bytes, a));
    if (acc.space == Space::Global) {
      last = buffer_of(x, a, acc.bytes, last);
      if (last == nullptr)
        x.fault(lane, fmt::format("global address 0x{:x} is outside every buffer", a));
      acc.data[lane] = last->bytes.data() + (a - last->base_address);
      return;
    }
    if (acc.space == Space::Shared) {
      // The window's low 24 bits address a block's memory, the cluster rank above them; an
      // access other than by cluster address reaches the block's own.
      const std::uint64_t window = a & ((std::uint64_t{1} << kSharedRankShift) - 1);
      const std::uint64_t rank = acc.cluster ? a >> kSharedRankShift : x.block.rank;
      if (acc.cluster && rank >= x.block.peers.size())
        x.fault(lane, fmt::format("shared address 0x{:x} names block rank {}, outside the "
                                  "cluster of {} blocks",
                                  a, rank, x.block.peers.size()));
      std::vector<std::uint8_t>& memory =
          acc.cluster ? *x.block.peers[static_cast<std::size_t>(rank)] : x.block.memory();
      if (window < kSharedWindowBase || window - kSharedWindowBase + acc.bytes > memory.size())
        x.fault(lane, fmt::format("shared address 0x{:x} is outside block {}'s {} bytes", a, rank,
                                  memory.size()));
      acc.address[lane] = window - kSharedWindowBase;
      acc.data[lane] = memory.data() + acc.address[lane];
      if (acc.cluster) acc.address[lane] += rank << 40;
      return;
    }
    if (a + acc.bytes > x.launch.local_bytes)
      x.fault(lane, fmt::format("local address 0x{:x} is outside the thread's {}-byte frame", a,
                                x.launch.local_bytes));
    acc.data[lane] = x.w.local.data() + std::size_t{lane} * x.launch.local_bytes + a;
  });
}

namespace {

// For the timing model: the request as its memory side serves it.
void record(const Lanes& x, const Access& acc, unsigned sectors, unsigned lines,
            unsigned wavefronts) {
  exec::AccessRecord* a = x.access;
  if (a == nullptr) return;
  a->kind = acc.space == Space::Global || acc.space == Space::Generic ? exec::ArrayKind::Global
            : acc.space == Space::Shared                              ? exec::ArrayKind::Shared
                                                                      : exec::ArrayKind::Local;
  a->remote = acc.cluster;
  a->mask = x.mask;
  a->sectors = sectors;
  a->lines = lines;
  a->wavefronts = wavefronts;
  std::memcpy(a->addresses, acc.address, sizeof acc.address);
}

// The instruction's own line of the per-instruction table (SASS instructions), when sized.
exec::MemoryLineStats* line_of(const Lanes& x) {
  const std::size_t pc = x.inst.address / 16;
  return pc < x.stats.per_memory.size() ? &x.stats.per_memory[pc] : nullptr;
}

}  // namespace

// `atomic_access`: how a shared atomic serves lanes on one word (memory::SharedAccess), and
// `banked` the lanes whose words the banks serve (a spin pass's served lanes).
void count(const Lanes& x, const Access& acc, exec::GlobalOp global_op, exec::SharedOp shared_op,
           memory::SharedAccess atomic_access, std::uint32_t banked) {
  if (x.mask == 0) return record(x, acc, 0, 0, 0);
  exec::MemoryLineStats* line = line_of(x);
  if (line != nullptr) ++line->executions;
  if (acc.space == Space::Global) {
    const memory::GlobalRequest r = memory::coalesce(acc.address, x.mask);
    const bool atomic =
        global_op == exec::GlobalOp::Atomic || global_op == exec::GlobalOp::Reduction;
    const unsigned counted = atomic ? memory::atomic_sectors(acc.address, x.mask) : r.sectors;
    const unsigned ideal = memory::ideal_sectors(x.mask, acc.bytes);
    exec::GlobalOpStats& g = x.stats.memory.global[static_cast<std::size_t>(global_op)];
    ++g.requests;
    g.sectors += counted;
    g.ideal_sectors += ideal;
    g.lines += r.lines;
    if (line != nullptr) {
      ++line->requests;
      line->sectors += counted;
      line->ideal_sectors += ideal;
    }
    record(x, acc, r.sectors, r.lines, 0);
  } else if (acc.space == Space::Shared) {
    // An atomic by cluster address counts as a store does, as the IR executor counts dsmem
    // (exec::shared_access).
    const auto access =
        shared_op == exec::SharedOp::Load ? memory::SharedAccess::Load
        : shared_op == exec::SharedOp::Store || shared_op == exec::SharedOp::CopyIn || acc.cluster
            ? memory::SharedAccess::Store
            : atomic_access;
    const memory::SharedRequest r =
        memory::shared_wavefronts(acc.address, x.mask & banked, acc.bytes, access);
    auto& group = acc.cluster ? x.stats.memory.dsmem : x.stats.memory.shared;
    exec::SharedOpStats& s = group[static_cast<std::size_t>(shared_op)];
    ++s.instructions;
    s.wavefronts += r.wavefronts;
    s.ideal_wavefronts += r.ideal;
    if (line != nullptr) {
      line->wavefronts += r.wavefronts;
      line->ideal_wavefronts += r.ideal;
    }
    // By cluster address, as the IR executor counts dsmem: the own block's atomic lanes also as
    // shared atomics, the other blocks' segments crossing the cluster's network.
    if (acc.cluster && shared_op == exec::SharedOp::Atomic) {
      const auto own_access = static_cast<AtomOp>(x.inst.mods.sub) == AtomOp::Cas
                                  ? memory::SharedAccess::CompareSwap
                                  : memory::SharedAccess::Atomic;
      exec::count_own_block_atomics(x.stats, acc.address, x.mask, x.block.rank, acc.bytes,
                                    own_access);
    }
    record(x, acc, 0, acc.cluster ? exec::remote_segments(acc.address, x.mask, x.block.rank) : 0,
           r.wavefronts);
  } else {
    record(x, acc, 0, 0, 0);
  }
}

namespace {

std::uint32_t extend(std::uint32_t v, DataType t) {
  switch (t) {
    case DataType::U8:
      return v & 0xffu;
    case DataType::S8:
      return static_cast<std::uint32_t>(static_cast<std::int8_t>(v));
    case DataType::U16:
      return v & 0xffffu;
    case DataType::S16:
      return static_cast<std::uint32_t>(static_cast<std::int16_t>(v));
    default:
      return v;
  }
}

// A generic LD or ST counts in the class of the memory its addresses reached: one to global
// memory as LDG or STG (the H100's counts on kernels_cuda/coverage/mma_variants.cu, whose wmma
// loads and stores are generic, validation/h200/results/h100_2026_12_06b/), one to local
// memory as LDL or STL (assumed alike).
void count_generic_class(const Lanes& x, const Access& acc, bool is_load) {
  if (x.mask == 0 || (x.inst.op != Op::LD && x.inst.op != Op::ST)) return;
  using C = exec::SassOpClass;
  C c = C::Count;
  if (acc.space == Space::Global) c = is_load ? C::GlobalLd : C::GlobalSt;
  if (acc.space == Space::Local) c = is_load ? C::LocalLd : C::LocalSt;
  if (c != C::Count) ++x.stats.sass.ops[static_cast<std::size_t>(c)];
}

void load(const Lanes& x, Space space) {
  Access acc;
  acc.space = space;
  acc.bytes = data_bytes(x.inst.mods.type);
  locate(x, x.op(1), acc);
  const unsigned words = acc.bytes <= 4 ? 1 : acc.bytes / 4;
  for (unsigned k = 0; k < words; ++k) {
    LaneWords v{};
    for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      std::memcpy(&v[lane], acc.data[lane] + std::size_t{4} * k, std::min(acc.bytes, 4u));
      v[lane] = extend(v[lane], x.inst.mods.type);
    }
    Operand d = x.op(0);
    if (d.index != kZeroReg) d.index = static_cast<std::uint8_t>(d.index + k);
    write_words(x, d, v);
  }
  count(x, acc, exec::GlobalOp::Load, exec::SharedOp::Load);
  count_generic_class(x, acc, true);
}

// QSPC.E.S P, RZ, [addr] (and .G): P says whether the lane's generic address is shared (or
// global) memory; local memory is neither.
void query_space(const Lanes& x) {
  const bool shared = x.inst.mods.sub == 1;
  std::size_t at = 0;
  while (x.op(at).kind != OperandKind::Mem) ++at;
  LaneWords64 addresses;
  addresses_of(x, x.op(at), addresses);
  x.each([&](unsigned lane) {
    const Space space = window_of(addresses[lane]);
    x.set_pred(x.op(0), lane, space == (shared ? Space::Shared : Space::Global));
  });
}

void store(const Lanes& x, Space space) {
  Access acc;
  acc.space = space;
  acc.bytes = data_bytes(x.inst.mods.type);
  locate(x, x.op(0), acc);
  const unsigned words = acc.bytes <= 4 ? 1 : acc.bytes / 4;
  for (unsigned k = 0; k < words; ++k) {
    Operand source = x.op(1);
    if (source.index != kZeroReg) source.index = static_cast<std::uint8_t>(source.index + k);
    LaneWords v;
    read_raw(x, source, v);
    for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      std::memcpy(acc.data[lane] + std::size_t{4} * k, &v[lane], std::min(acc.bytes, 4u));
    }
  }
  count(x, acc, exec::GlobalOp::Store, exec::SharedOp::Store);
  count_generic_class(x, acc, false);
}

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
    r = op == AtomOp::Add
            ? std::bit_cast<std::uint32_t>(std::bit_cast<float>(old) + std::bit_cast<float>(v32))
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
  Access acc;
  acc.space = space;
  acc.bytes = wide ? 8 : 4;
  locate(x, x.op(at), acc);
  const Operand& value = m.count_lanes ? x.op(at) : x.op(at + 1);
  const std::uint32_t served =
      op == AtomOp::Cast && space == Space::Shared ? spin_pass_lanes(acc, x.mask) : x.mask;
  x.each([&](unsigned lane) {
    // ATOMS.CAST.SPIN.64's result is 64 bits wide too: 1 (stored) or 0, in the register pair.
    auto set_result = [&](std::uint64_t v) {
      if (dest == nullptr || dest->kind != OperandKind::Reg) return;
      if (wide) {
        x.set64(*dest, lane, v);
      } else {
        x.set(*dest, lane, static_cast<std::uint32_t>(v));
      }
    };
    if ((served >> lane & 1u) == 0) {  // not served this pass: it stored nothing
      set_result(0);
      return;
    }
    const std::uint64_t v = m.count_lanes ? 1u : wide ? x.raw64(value, lane) : x.raw(value, lane);
    std::uint64_t swap = 0;
    if (op == AtomOp::Cas || op == AtomOp::Cast)
      swap = wide ? x.raw64(x.op(at + 2), lane) : x.raw(x.op(at + 2), lane);
    const std::uint64_t old = update(acc.data[lane], op, m.type, v, swap);
    set_result(op == AtomOp::Cast ? std::uint64_t{old == v} : old);
  });
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
  // A generic atomic that reached global memory counts as ATOMG does: in the LSU pipe, not the
  // ADU where its cluster shared-memory form counts, and as a global atomic (the H200's counts
  // on kernels_cuda/sass_only/half2_atomics.cu, validation/h200/results/sass_only/).
  if (x.inst.op == Op::ATOM && acc.space == Space::Global && x.mask != 0) {
    exec::SassClassStats& classes = x.stats.sass;
    --classes.pipes[static_cast<std::size_t>(exec::SassPipe::Adu)];
    ++classes.pipes[static_cast<std::size_t>(exec::SassPipe::Lsu)];
    ++classes.ops[static_cast<std::size_t>(exec::SassOpClass::GlobalAtom)];
  }
  count(x, acc, returns ? exec::GlobalOp::Atomic : exec::GlobalOp::Reduction,
        exec::SharedOp::Atomic, access, served);
}

// LDGSTS [shared], [global]: cp.async's copy, done at once (the PTX ISA lets it complete any
// time before the wait that lets the thread read it; docs/import.md). Counted as the IR's
// import of it counts (a global load and a shared store), except that the GPU counts the store
// as no op_shared_st instruction (exec::SharedOp::CopyIn); the timing model times the load
// (SassFrontend: DEPBAR waits for it).
void async_copy(const Lanes& x) {
  Access from, to;
  from.bytes = to.bytes = data_bytes(x.inst.mods.type);
  to.space = Space::Shared;
  locate(x, x.op(0), to);
  locate(x, x.op(1), from);
  x.each([&](unsigned lane) { std::memcpy(to.data[lane], from.data[lane], from.bytes); });
  count(x, to, exec::GlobalOp::Store, exec::SharedOp::CopyIn);
  count(x, from, exec::GlobalOp::Load, exec::SharedOp::Load);
}

}  // namespace

void execute_memory(const Lanes& x) {
  switch (x.inst.op) {
    case Op::LDG:
      return load(x, Space::Global);
    case Op::LDSM:
      return load_matrices(x);
    case Op::LDS:
      return load(x, Space::Shared);
    case Op::LDL:
      return load(x, Space::Local);
    case Op::STG:
      return store(x, Space::Global);
    case Op::LD:
      return load(x, Space::Generic);
    case Op::ST:
      return store(x, Space::Generic);
    case Op::QSPC:
      return query_space(x);
    case Op::STS:
      return store(x, Space::Shared);
    case Op::STL:
      return store(x, Space::Local);
    case Op::ATOMG:
      return atomic(x, Space::Global, true);
    case Op::REDG:
      return atomic(x, Space::Global, false);
    case Op::ATOMS:
      return atomic(x, Space::Shared, true);
    case Op::ATOM:
      return atomic(x, Space::Generic, true);
    case Op::LDGSTS:
      return async_copy(x);
    default:
      return x.fault(0, "not a memory instruction");
  }
}

}  // namespace warpsim::sass

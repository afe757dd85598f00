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

// Why [a, a + bytes) is no buffer's. An access that starts in a buffer and runs past its end
// within the 32-bit word holding its last bytes is ptxas's own: its code for an 8- or 16-bit
// atomic reads and swaps the whole word (the GPU's allocations are larger than asked), so the
// error says how to give the buffer that word.
std::string outside_every_buffer(const Lanes& x, std::uint64_t a, unsigned bytes) {
  for (const exec::GlobalBuffer& b : x.launch.global->buffers) {
    const std::uint64_t end = b.base_address + b.bytes.size();
    if (a >= b.base_address && a < end && a + bytes <= (end + 3) / 4 * 4) {
      return fmt::format(
          "global address 0x{:x} reads {} bytes, {} past the end of buffer '{}' ({} bytes): "
          "ptxas's code reads the 32-bit word holding an 8- or 16-bit element (as its atomics "
          "on them do), which a GPU's allocation holds; give the buffer a size that is a "
          "multiple of 4 bytes",
          a, bytes, a + bytes - end, b.name, b.bytes.size());
    }
  }
  return fmt::format("global address 0x{:x} is outside every buffer", a);
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

// A whole warp's access located at once where every lane runs and lands in one buffer (or in
// the block's own shared memory), naturally aligned: the common case, checked with one pass for
// the lowest and highest address. False where any lane needs the lane-by-lane path (which
// faults at the first bad lane).
bool locate_whole_warp(const Lanes& x, const LaneWords64& addresses, Access& acc) {
  if (x.mask != kFullWarpMask || x.inst.mods.uniform ||
      (acc.space != Space::Global && (acc.space != Space::Shared || acc.cluster)))
    return false;
  const std::uint64_t kept = acc.space == Space::Global
                                 ? ~std::uint64_t{0}
                                 : (std::uint64_t{1} << kSharedRankShift) - 1;  // the window
  std::uint64_t low = ~std::uint64_t{0}, high = 0, bits = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t a = addresses[l] & kept;
    low = std::min(low, a);
    high = std::max(high, a);
    bits |= a;
  }
  if ((bits & (acc.bytes - 1)) != 0) return false;
  std::uint64_t base = 0;
  std::uint8_t* data = nullptr;
  if (acc.space == Space::Global) {
    exec::GlobalBuffer* b = buffer_of(x, low, acc.bytes, nullptr);
    if (b == nullptr || high + acc.bytes > b->base_address + b->bytes.size()) return false;
    base = b->base_address;
    data = b->bytes.data();
  } else {
    std::vector<std::uint8_t>& memory = x.block.memory();
    if (low < kSharedWindowBase || high - kSharedWindowBase + acc.bytes > memory.size())
      return false;
    base = kSharedWindowBase;
    data = memory.data();
  }
  // The accounting address: global memory's virtual one, shared memory's offset in the block's.
  const bool global = acc.space == Space::Global;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t offset = (addresses[l] & kept) - base;
    acc.data[l] = data + offset;
    acc.address[l] = global ? addresses[l] : offset;
  }
  return true;
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
  if (locate_whole_warp(x, addresses, acc)) return;
  exec::GlobalBuffer* last = nullptr;
  x.each([&](unsigned lane) {
    std::uint64_t a = addresses[lane];
    if (acc.space != Space::Global) a &= 0xffffffffu;
    acc.address[lane] = a;
    if ((a & (acc.bytes - 1)) != 0)
      x.fault(lane, fmt::format("misaligned {}-byte access at 0x{:x}", acc.bytes, a));
    if (acc.space == Space::Global) {
      last = buffer_of(x, a, acc.bytes, last);
      if (last == nullptr) x.fault(lane, outside_every_buffer(x, a, acc.bytes));
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
    if (x.run == kFullWarpMask && acc.bytes >= 4) {  // whole words, nothing to extend
      for (unsigned l = 0; l < kWarpSize; ++l)
        std::memcpy(&v[l], acc.data[l] + std::size_t{4} * k, 4);
    } else {
      for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        std::memcpy(&v[lane], acc.data[lane] + std::size_t{4} * k, std::min(acc.bytes, 4u));
        v[lane] = extend(v[lane], x.inst.mods.type);
      }
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
    if (x.run == kFullWarpMask && acc.bytes >= 4) {
      for (unsigned l = 0; l < kWarpSize; ++l)
        std::memcpy(acc.data[l] + std::size_t{4} * k, &v[l], 4);
    } else {
      for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        std::memcpy(acc.data[lane] + std::size_t{4} * k, &v[lane], std::min(acc.bytes, 4u));
      }
    }
  }
  count(x, acc, exec::GlobalOp::Store, exec::SharedOp::Store);
  count_generic_class(x, acc, false);
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

// Where a memory instruction's lanes land: each lane's element index checked against the
// array's shape (per dimension) and alignment before memory is touched (a bad one is a fault
// naming the array, the index and the address), and the access accounted for the memory
// counters. Internal to the executor's memory instructions (exec_memory.cpp, exec_atomic.cpp);
// inline, as it is on the simulator's hot path.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/shared_access.hpp"
#include "sim/core/exec/values.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/memory/coalescing.hpp"
#include "sim/memory/shared_banks.hpp"

namespace warpsim::exec {

inline std::int64_t read_index(const std::uint64_t bits, ir::ScalarType type) {
  switch (type) {
    case ir::ScalarType::S32:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    case ir::ScalarType::U32:
      return static_cast<std::uint32_t>(bits);
    default:
      // S64 and U64: a U64 beyond 2^63 is out of any array; it stays negative so the bounds
      // check catches it.
      return static_cast<std::int64_t>(bits);
  }
}

// Where one lane's access lands.
struct Location {
  std::uint8_t* data = nullptr;  // first byte accessed
  std::uint64_t address = 0;     // as reported: a global virtual address or a byte offset
};

class Addressing {
 public:
  // Everything that is the same for all lanes is resolved here, once per instruction.
  Addressing(ExecContext& ctx, WarpState& w, const DecodedInst& d)
      : ctx_(ctx), w_(w), d_(d), size_(d.element_bytes()) {
    const MemoryRef& m = d.mem;
    if (m.by_address) {
      address_ = w.read(m.index[0]);
      address_bits_ = ir::size_bytes(m.index_type[0]) == 4 ? 0xffffffffu : ~std::uint64_t{0};
      return;  // base_ stays null: the per-lane path finds each lane's memory
    }
    dims_ = m.dims.size();
    for (std::size_t k = 0; k < dims_; ++k) index_[k] = w.read(m.index[k]);
    for (std::uint64_t dim : m.dims) total_ *= dim;
    switch (m.kind) {
      case ArrayKind::Global: {
        GlobalBuffer& b = ctx.global.buffers[m.array];
        base_ = b.bytes.data();
        base_address_ = b.base_address;
        break;
      }
      case ArrayKind::Const:
        // Loads only (the verifier rejects stores), so writing through this is never done.
        base_ = const_cast<std::uint8_t*>(ctx.program.constants.data()) + m.byte_offset;
        base_address_ = m.byte_offset;
        break;
      case ArrayKind::Local:
        base_ = w.local.data() + m.byte_offset;
        lane_stride_ = ctx.program.local_bytes;
        base_address_ = m.byte_offset;
        break;
      case ArrayKind::Shared:
        base_ = m.has_rank ? nullptr : ctx.block->shared.data() + m.byte_offset;
        base_address_ = m.byte_offset;
        break;
    }
  }

  [[gnu::always_inline]] Location locate(unsigned lane) {
    const MemoryRef& m = d_.mem;
    if (m.by_address) return locate_address(lane);
    std::uint64_t linear = 0;
    for (std::size_t k = 0; k < dims_; ++k) {
      const std::int64_t i = read_index(index_[k][lane], m.index_type[k]);
      if (i < 0 || static_cast<std::uint64_t>(i) >= m.dims[k]) out_of_bounds(lane, k, linear, i);
      linear = linear * m.dims[k] + static_cast<std::uint64_t>(i);
    }
    if (d_.vector_width > 1) check_vector(lane, linear);
    const std::uint64_t offset = linear * size_;
    std::uint8_t* base = base_;
    addresses_[lane] = base_address_ + offset;
    if (base == nullptr) {
      // dsmem: words of different blocks are different words (in the same bank), so the
      // accounting address carries the rank above any shared-memory offset.
      std::uint64_t rank = 0;
      base = remote_shared(lane, rank);
      addresses_[lane] += rank << 40;
    }
    return {base + lane * lane_stride_ + offset, base_address_ + offset};
  }

  // The whole warp at once, for the common case: all 32 lanes, no vector, memory of this block
  // or thread. Fills each lane's data pointer, or returns false (having done nothing) when the
  // case does not apply or some lane is out of bounds (the per-lane path then reports it).
  bool locate_warp(std::uint32_t mask, std::uint8_t** data) {
    if (mask != kFullWarpMask || d_.vector_width != 1 || base_ == nullptr || d_.mem.by_address)
      return false;
    std::uint64_t linear[kWarpSize];
    bool in_bounds = true;
    for (std::size_t k = 0; k < dims_; ++k) {
      const std::uint64_t* idx = index_[k];
      const std::uint64_t dim = d_.mem.dims[k];
      std::uint64_t element[kWarpSize];
      switch (d_.mem.index_type[k]) {
        case ir::ScalarType::S32:
          for (unsigned l = 0; l < kWarpSize; ++l) {
            element[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(
                static_cast<std::int32_t>(static_cast<std::uint32_t>(idx[l]))));
          }
          break;
        case ir::ScalarType::U32:
          for (unsigned l = 0; l < kWarpSize; ++l) element[l] = static_cast<std::uint32_t>(idx[l]);
          break;
        default:
          for (unsigned l = 0; l < kWarpSize; ++l) element[l] = idx[l];
          break;
      }
      // A negative index is a huge unsigned one, so one comparison checks both ends.
      for (unsigned l = 0; l < kWarpSize; ++l) {
        in_bounds &= element[l] < dim;
        linear[l] = k == 0 ? element[l] : linear[l] * dim + element[l];
      }
    }
    if (!in_bounds) return false;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const std::uint64_t offset = linear[l] * size_;
      addresses_[l] = base_address_ + offset;
      data[l] = base_ + l * lane_stride_ + offset;
    }
    return true;
  }

  // Counts the request once every lane is located: sectors for global memory, wavefronts for
  // shared memory (by the address each lane computed).
  void account(std::uint32_t mask) {
    const MemoryRef& m = d_.mem;
    if (ctx_.check != nullptr)
      ctx_.check->access(ctx_, w_, d_, addresses_, mask, size_ * d_.vector_width);
    LaunchStats& stats = ctx_.stats;
    MemoryLineStats& line =
        stats.per_memory[static_cast<std::size_t>(&d_ - ctx_.program.insts.data())];
    ++line.executions;
    const unsigned bytes = size_ * d_.vector_width;
    if (m.kind == ArrayKind::Global) {
      const memory::GlobalRequest r = memory::coalesce(addresses_, mask);
      const unsigned ideal = memory::ideal_sectors(mask, bytes);
      const GlobalOp op = global_op();
      // The counters' sectors; the memory side still moves each distinct sector once.
      const unsigned counted = op == GlobalOp::Atomic || op == GlobalOp::Reduction
                                   ? memory::atomic_sectors(addresses_, mask)
                                   : r.sectors;
      GlobalOpStats& g = stats.memory.global[static_cast<std::size_t>(op)];
      ++g.requests;
      g.sectors += counted;
      g.ideal_sectors += ideal;
      g.lines += r.lines;
      ++line.requests;
      line.sectors += counted;
      line.ideal_sectors += ideal;
      if (AccessRecord* a = ctx_.access) {
        a->kind = m.kind;
        a->mask = mask;
        a->sectors = r.sectors;
        a->lines = r.lines;
        std::memcpy(a->addresses, addresses_, sizeof addresses_);
      }
    } else if (m.kind == ArrayKind::Shared) {
      const memory::SharedRequest r =
          memory::shared_wavefronts(addresses_, mask, bytes, shared_access(d_));
      if (AccessRecord* a = ctx_.access) {
        a->kind = m.kind;
        a->remote = m.has_rank;
        a->mask = mask;
        a->wavefronts = r.wavefronts;
        // dsmem: the 128-byte segments of other blocks' memory cross the cluster's network
        // (lanes addressing their own block's memory stay in the SM).
        a->lines =
            m.has_rank ? exec::remote_segments(addresses_, mask, ctx_.block->cluster_rank) : 0;
      }
      if (m.has_rank && shared_op() == SharedOp::Atomic) {
        count_own_block_atomics(ctx_, d_, addresses_, mask, bytes);
      }
      auto& group = m.has_rank ? stats.memory.dsmem : stats.memory.shared;
      SharedOpStats& sh = group[static_cast<std::size_t>(shared_op())];
      ++sh.instructions;
      sh.wavefronts += r.wavefronts;
      sh.ideal_wavefronts += r.ideal;
      line.wavefronts += r.wavefronts;
      line.ideal_wavefronts += r.ideal;
    } else if (AccessRecord* a = ctx_.access) {
      a->kind = m.kind;
      a->mask = mask;
      // Constant loads: their offsets in the constant bank (the SM's constant cache starts
      // empty at every launch); local accesses: their offsets in the thread's frame.
      if (m.kind == ArrayKind::Const || m.kind == ArrayKind::Local)
        std::memcpy(a->addresses, addresses_, sizeof addresses_);
    }
  }

 private:
  // A byte address (PTX's [base+N]): the whole access must be naturally aligned and lie inside
  // one buffer (global), the block's shared memory, the thread's local memory or the constant
  // bank.
  [[gnu::noinline]] Location locate_address(unsigned lane) {
    const MemoryRef& m = d_.mem;
    const std::uint64_t a =
        (address_[lane] & address_bits_) + static_cast<std::uint64_t>(m.displacement);
    const std::uint64_t bytes = std::uint64_t{size_} * d_.vector_width;
    if (a % bytes != 0) {
      fault(ctx_, w_, d_, lane,
            fmt::format("misaligned {}-byte access at {} {:#x} (must be a multiple of {})", bytes,
                        space_name(), a, bytes));
    }
    addresses_[lane] = a;
    std::uint8_t* data = nullptr;
    std::uint64_t limit = 0;
    switch (m.kind) {
      case ArrayKind::Global:
        return {global_address(lane, a, bytes), a};
      case ArrayKind::Shared:
        if (m.has_rank) return cluster_address(lane, a, bytes);
        data = ctx_.block->shared.data();
        limit = ctx_.block->shared.size();
        break;
      case ArrayKind::Local:
        data = w_.local.data() + lane * ctx_.program.local_bytes;
        limit = ctx_.program.local_bytes;
        break;
      case ArrayKind::Const:
        data = const_cast<std::uint8_t*>(ctx_.program.constants.data());
        limit = ctx_.program.constants.size();
        break;
    }
    if (a > limit || limit - a < bytes) {
      fault(ctx_, w_, d_, lane,
            fmt::format("{} {:#x} ({}) is outside the {} bytes there are", space_name(), a,
                        address_text(lane), limit));
    }
    return {data + a, a};
  }

  // A cluster address (dsmem by address): the low 32 bits an offset in a block's shared memory,
  // the high ones 0 for this block's own or rank + 1 for another's. The accounting address
  // carries the rank above bit 40, as for dsmem by array.
  Location cluster_address(unsigned lane, std::uint64_t a, std::uint64_t bytes) {
    const std::uint64_t high = a >> 32, offset = a & 0xffffffffu;
    const std::uint64_t rank = high == 0 ? ctx_.block->cluster_rank : high - 1;
    if (rank >= ctx_.cluster->size()) {
      fault(ctx_, w_, d_, lane,
            fmt::format("cluster address {:#x} names block rank {}, outside the cluster of {} "
                        "blocks",
                        a, rank, ctx_.cluster->size()));
    }
    std::vector<std::uint8_t>& shared = (*ctx_.cluster)[static_cast<std::size_t>(rank)].shared;
    if (offset > shared.size() || shared.size() - offset < bytes) {
      fault(ctx_, w_, d_, lane,
            fmt::format("cluster address {:#x} ({}) is outside block {}'s {} bytes of shared "
                        "memory",
                        a, address_text(lane), rank, shared.size()));
    }
    addresses_[lane] = offset + (rank << 40);
    return {shared.data() + offset, offset};
  }

  // The buffer holding [a, a + bytes), found from the one the last lane used.
  std::uint8_t* global_address(unsigned lane, std::uint64_t a, std::uint64_t bytes) {
    std::vector<GlobalBuffer>& buffers = ctx_.global.buffers;
    auto holds = [&](const GlobalBuffer& b) {
      return a >= b.base_address && a - b.base_address <= b.bytes.size() &&
             b.bytes.size() - (a - b.base_address) >= bytes;
    };
    if (last_buffer_ < buffers.size() && holds(buffers[last_buffer_])) {
      return buffers[last_buffer_].bytes.data() + (a - buffers[last_buffer_].base_address);
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      if (!holds(buffers[i])) continue;
      last_buffer_ = i;
      return buffers[i].bytes.data() + (a - buffers[i].base_address);
    }
    std::string nearest;
    for (const GlobalBuffer& b : buffers) {
      if (b.base_address > a) break;
      nearest = fmt::format("; buffer '{}' is {:#x} to {:#x}", b.name, b.base_address,
                            b.base_address + b.bytes.size());
    }
    fault(ctx_, w_, d_, lane,
          fmt::format("{}-byte access at global address {:#x} ({}) is in no buffer{}", bytes, a,
                      address_text(lane), nearest));
  }

  std::string address_text(unsigned lane) const {
    const MemoryRef& m = d_.mem;
    std::string s = fmt::format("{} = {:#x}", m.name, address_[lane] & address_bits_);
    if (m.displacement != 0) s += fmt::format(", {:+d}", m.displacement);
    return s;
  }

  [[noreturn, gnu::cold, gnu::noinline]] void out_of_bounds(unsigned lane, std::size_t k,
                                                            std::uint64_t linear, std::int64_t i) {
    const MemoryRef& m = d_.mem;
    // Where the access would have gone, had nothing checked it.
    std::uint64_t stride = size_;
    for (std::size_t j = k + 1; j < dims_; ++j) stride *= m.dims[j];
    const std::uint64_t address =
        base_address_ + (linear * m.dims[k]) * stride + static_cast<std::uint64_t>(i) * stride;
    fault(ctx_, w_, d_, lane,
          fmt::format("index {} is outside {} of '{}' (size {}); {} {:#x}", i,
                      dims_ == 1 ? std::string("the bounds") : fmt::format("dimension {}", k),
                      m.name, m.dims[k], space_name(), address));
  }

  [[gnu::noinline]] void check_vector(unsigned lane, std::uint64_t linear) {
    const MemoryRef& m = d_.mem;
    if (linear % d_.vector_width != 0) {
      fault(ctx_, w_, d_, lane,
            fmt::format("misaligned {}-byte access to '{}' at element {} (must be a multiple "
                        "of {})",
                        size_ * d_.vector_width, m.name, linear, unsigned{d_.vector_width}));
    }
    if (linear + d_.vector_width > total_) {
      fault(ctx_, w_, d_, lane,
            fmt::format("vector access to '{}' at element {} runs past its end ({} elements)",
                        m.name, linear, total_));
    }
  }

  std::string space_name() const {
    switch (d_.mem.kind) {
      case ArrayKind::Global:
        return "global address";
      case ArrayKind::Shared:
        return "shared-memory offset";
      case ArrayKind::Const:
        return "constant-bank offset";
      case ArrayKind::Local:
        return "local-memory offset";
    }
    return "address";
  }

  // dsmem: the shared memory of the block of the lane's rank in the cluster.
  [[gnu::noinline]] std::uint8_t* remote_shared(unsigned lane, std::uint64_t& rank_out) {
    const std::int64_t rank = read_index(w_.read(d_.mem.rank)[lane], d_.mem.rank_type);
    if (rank < 0 || static_cast<std::uint64_t>(rank) >= ctx_.cluster->size()) {
      fault(ctx_, w_, d_, lane,
            fmt::format("block rank {} is outside the cluster of {} blocks", rank,
                        ctx_.cluster->size()));
    }
    rank_out = static_cast<std::uint64_t>(rank);
    return (*ctx_.cluster)[static_cast<std::size_t>(rank)].shared.data() + d_.mem.byte_offset;
  }

  GlobalOp global_op() const {
    if (d_.opcode == ir::Opcode::Ld) return GlobalOp::Load;
    if (d_.opcode == ir::Opcode::St) return GlobalOp::Store;
    return d_.ndst != 0 ? GlobalOp::Atomic : GlobalOp::Reduction;
  }
  SharedOp shared_op() const {
    if (d_.opcode == ir::Opcode::Ld) return SharedOp::Load;
    return d_.opcode == ir::Opcode::St ? SharedOp::Store : SharedOp::Atomic;
  }

  static constexpr std::size_t kMaxDims = 8;
  std::uint64_t addresses_[kWarpSize];  // written by locate() for each active lane before use
  ExecContext& ctx_;
  WarpState& w_;
  const DecodedInst& d_;
  const unsigned size_;
  std::size_t dims_ = 0;
  const std::uint64_t* index_[kMaxDims];  // the first dims_ are set
  std::uint64_t total_ = 1;
  std::uint8_t* base_ = nullptr;
  std::uint64_t lane_stride_ = 0;
  std::uint64_t base_address_ = 0;
  const std::uint64_t* address_ = nullptr;  // by address: each lane's base
  std::uint64_t address_bits_ = 0;
  std::size_t last_buffer_ = 0;
};

}  // namespace warpsim::exec

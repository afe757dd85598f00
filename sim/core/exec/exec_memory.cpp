// Loads, stores and atomics in every space. Each lane's element index is checked against the
// array's shape (per dimension) and alignment before memory is touched; a bad one is a fault
// naming the array, the index and the address.
#include <cstring>
#include <fmt/format.h>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/values.hpp"

namespace warpsim::exec {
namespace {

std::int64_t read_index(const std::uint64_t bits, ir::ScalarType type) {
  switch (type) {
    case ir::ScalarType::S32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    case ir::ScalarType::U32: return static_cast<std::uint32_t>(bits);
    case ir::ScalarType::U64:
      // Beyond 2^63 is out of any array; keep it negative so the bounds check catches it.
      return static_cast<std::int64_t>(bits);
    default: return static_cast<std::int64_t>(bits);
  }
}

// Where one lane's access lands.
struct Location {
  std::uint8_t* data = nullptr;  // first byte accessed
  std::uint64_t address = 0;     // as reported: a global virtual address or a byte offset
};

class Addressing {
 public:
  Addressing(ExecContext& ctx, WarpState& w, const DecodedInst& d) : ctx_(ctx), w_(w), d_(d) {}

  Location locate(unsigned lane) {
    const MemoryRef& m = d_.mem;
    const unsigned size = ir::size_bytes(d_.type);
    std::uint64_t linear = 0;
    for (std::size_t k = 0; k < m.dims.size(); ++k) {
      const std::int64_t i = read_index(w_.read(m.index[k], ctx_.program.pool)[lane],
                                        m.index_type[k]);
      if (i < 0 || static_cast<std::uint64_t>(i) >= m.dims[k]) {
        // Where the access would have gone, had nothing checked it.
        std::uint64_t stride = size;
        for (std::size_t j = k + 1; j < m.dims.size(); ++j) stride *= m.dims[j];
        const std::uint64_t address = base_address() + (linear * m.dims[k]) * stride +
                                      static_cast<std::uint64_t>(i) * stride;
        fault(ctx_, w_, d_, lane,
              fmt::format("index {} is outside {} of '{}' (size {}); {} {:#x}", i,
                          m.dims.size() == 1 ? std::string("the bounds")
                                             : fmt::format("dimension {}", k),
                          m.name, m.dims[k], space_name(), address));
      }
      linear = linear * m.dims[k] + static_cast<std::uint64_t>(i);
    }
    std::uint64_t total = 1;
    for (std::uint64_t dim : m.dims) total *= dim;
    if (d_.vector_width > 1) {
      if (linear % d_.vector_width != 0) {
        fault(ctx_, w_, d_, lane,
              fmt::format("misaligned {}-byte access to '{}' at element {} (must be a multiple "
                          "of {})",
                          size * d_.vector_width, m.name, linear, unsigned{d_.vector_width}));
      }
      if (linear + d_.vector_width > total) {
        fault(ctx_, w_, d_, lane,
              fmt::format("vector access to '{}' at element {} runs past its end ({} elements)",
                          m.name, linear, total));
      }
    }
    const std::uint64_t offset = linear * size;
    switch (m.kind) {
      case ArrayKind::Global: {
        GlobalBuffer& b = ctx_.global.buffers[m.array];
        return {b.bytes.data() + offset, b.base_address + offset};
      }
      case ArrayKind::Const:
        // Loads only (the verifier rejects stores); the bank is read through this pointer.
        return {const_cast<std::uint8_t*>(ctx_.program.constants.data()) + m.byte_offset + offset,
                m.byte_offset + offset};
      case ArrayKind::Local:
        return {w_.local.data() + lane * ctx_.program.local_bytes + m.byte_offset + offset,
                m.byte_offset + offset};
      case ArrayKind::Shared: return {shared_memory(lane) + m.byte_offset + offset,
                                      m.byte_offset + offset};
    }
    return {};
  }

 private:
  // The reported address of element 0 of the array: a global virtual address, or the offset in
  // the block's shared memory, the constant bank or the thread's local memory.
  std::uint64_t base_address() const {
    const MemoryRef& m = d_.mem;
    return m.kind == ArrayKind::Global ? ctx_.global.buffers[m.array].base_address : m.byte_offset;
  }
  std::string space_name() const {
    switch (d_.mem.kind) {
      case ArrayKind::Global: return "global address";
      case ArrayKind::Shared: return "shared-memory offset";
      case ArrayKind::Const: return "constant-bank offset";
      case ArrayKind::Local: return "local-memory offset";
    }
    return "address";
  }

  std::uint8_t* shared_memory(unsigned lane) {
    if (!d_.mem.has_rank) return ctx_.block->shared.data();
    const std::int64_t rank =
        read_index(w_.read(d_.mem.rank, ctx_.program.pool)[lane], d_.mem.rank_type);
    if (rank < 0 || static_cast<std::uint64_t>(rank) >= ctx_.cluster.size()) {
      fault(ctx_, w_, d_, lane,
            fmt::format("block rank {} is outside the cluster of {} blocks", rank,
                        ctx_.cluster.size()));
    }
    return ctx_.cluster[static_cast<std::size_t>(rank)].shared.data();
  }

  ExecContext& ctx_;
  WarpState& w_;
  const DecodedInst& d_;
};

void exec_load(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  const unsigned size = ir::size_bytes(d.type);
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    for (unsigned e = 0; e < d.vector_width; ++e) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, at.data + e * size, size);
      w.write(d.dst[e])[l] = bits;
    }
  });
}

void exec_store(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  const unsigned size = ir::size_bytes(d.type);
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    for (unsigned e = 0; e < d.vector_width; ++e) {
      const std::uint64_t bits = w.read(d.src[e], ctx.program.pool)[l];
      std::memcpy(at.data + e * size, &bits, size);
    }
  });
}

template <typename T>
T atomic_result(ir::AtomicOp op, T old, T v, T replacement) {
  switch (op) {
    case ir::AtomicOp::Add:
      if constexpr (std::is_floating_point_v<T>) {
        return old + v;
      } else {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(old) + static_cast<U>(v));
      }
    case ir::AtomicOp::Min: return v < old ? v : old;
    case ir::AtomicOp::Max: return old < v ? v : old;
    case ir::AtomicOp::Exch: return v;
    case ir::AtomicOp::Cas: return old == v ? replacement : old;
  }
  return old;
}

// Lanes apply their update one after another in lane order, so results are deterministic.
template <typename T>
void exec_atomic(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  const std::uint64_t* v = w.read(d.src[0], ctx.program.pool);
  const std::uint64_t* r = d.nsrc > 1 ? w.read(d.src[1], ctx.program.pool) : v;
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    T old;
    std::memcpy(&old, at.data, sizeof(T));
    const T updated = atomic_result<T>(d.atomic_op, old, from_bits<T>(v[l]), from_bits<T>(r[l]));
    std::memcpy(at.data, &updated, sizeof(T));
    if (d.ndst != 0) w.write(d.dst[0])[l] = to_bits(old);
  });
}

}  // namespace

ExecFn select_memory(const DecodedInst& inst) {
  switch (inst.opcode) {
    case ir::Opcode::Ld: return &exec_load;
    case ir::Opcode::St: return &exec_store;
    case ir::Opcode::Atom:
      return with_type(inst.type, [](auto zero) -> ExecFn {
        using T = decltype(zero);
        if constexpr (std::is_same_v<T, bool>) {
          return nullptr;
        } else {
          return &exec_atomic<T>;
        }
      });
    default: return nullptr;
  }
}

}  // namespace warpsim::exec

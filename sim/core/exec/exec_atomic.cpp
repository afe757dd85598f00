// Atomics in global, shared and distributed shared memory: each lane's update applied in lane
// order (deterministic), or, for global atomics when the caller collects them (the timing
// model applies them at their L2 slice), deferred.
#include <cstring>

#include "sim/core/exec/addressing.hpp"
#include "sim/core/exec/float_flush.hpp"

namespace warpsim::exec {
namespace {

// The atomics on integers only: and, or, xor, and PTX's atom.inc and atom.dec (u32), which
// wrap at v as atomicInc and atomicDec do.
template <typename T>
T bitwise_or_wrapping_update(ir::AtomicOp op, T old, T v) {
  switch (op) {
    case ir::AtomicOp::And:
      return static_cast<T>(old & v);
    case ir::AtomicOp::Or:
      return static_cast<T>(old | v);
    case ir::AtomicOp::Inc:
      return old >= v ? T{0} : static_cast<T>(old + 1);
    case ir::AtomicOp::Dec:
      return old == T{0} || old > v ? v : static_cast<T>(old - 1);
    case ir::AtomicOp::Xor:
      return static_cast<T>(old ^ v);
    default:
      return old;  // not one of these
  }
}

template <typename T>
T atomic_result(ir::AtomicOp op, T old, T v, T replacement) {
  switch (op) {
    case ir::AtomicOp::Add:
      if constexpr (std::is_same_v<T, float>) {
        return atomic_add_f32(old, v);  // flushed as PTX's atom.add.f32 (f64 is not)
      } else if constexpr (std::is_floating_point_v<T>) {
        return old + v;
      } else {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(old) + static_cast<U>(v));
      }
    case ir::AtomicOp::Min:
      return v < old ? v : old;
    case ir::AtomicOp::Max:
      return old < v ? v : old;
    case ir::AtomicOp::Exch:
      return v;
    case ir::AtomicOp::Cas:
      return old == v ? replacement : old;
    case ir::AtomicOp::And:
    case ir::AtomicOp::Or:
    case ir::AtomicOp::Xor:
    case ir::AtomicOp::Inc:
    case ir::AtomicOp::Dec:
      if constexpr (std::is_integral_v<T>) return bitwise_or_wrapping_update(op, old, v);
      return old;  // the verifier allows integers only
  }
  return old;
}

template <typename T>
void apply_deferred(DeferredAtomic& a) {
  std::uint64_t* out = a.has_dst ? a.warp->write(a.dst) : nullptr;
  for_lanes(a.mask, [&](unsigned l) {
    T old;
    std::memcpy(&old, a.data[l], sizeof(T));
    const T updated =
        atomic_result<T>(a.op, old, from_bits<T>(a.value[l]), from_bits<T>(a.replacement[l]));
    std::memcpy(a.data[l], &updated, sizeof(T));
    if (out != nullptr) out[l] = to_bits(old);
  });
}

// Lanes apply their update one after another in lane order, so results are deterministic.
template <typename T>
void exec_atomic(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  const std::uint64_t* v = w.read(d.src[0]);
  const std::uint64_t* r = d.nsrc > 1 ? w.read(d.src[1]) : v;
  if (ctx.deferred_atomics != nullptr && d.mem.kind == ArrayKind::Global) {
    DeferredAtomic& a = ctx.deferred_atomics->emplace_back();
    a.apply = &apply_deferred<T>;
    a.op = d.atomic_op;
    a.mask = mask;
    a.dst = d.dst[0];
    a.has_dst = d.ndst != 0;
    a.warp = &w;
    for_lanes(mask, [&](unsigned l) {
      a.data[l] = addressing.locate(l).data;
      a.value[l] = v[l];
      a.replacement[l] = r[l];
    });
    addressing.account(mask);
    return;
  }
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    T old;
    std::memcpy(&old, at.data, sizeof(T));
    const T updated = atomic_result<T>(d.atomic_op, old, from_bits<T>(v[l]), from_bits<T>(r[l]));
    std::memcpy(at.data, &updated, sizeof(T));
    if (d.ndst != 0) w.write(d.dst[0])[l] = to_bits(old);
  });
  addressing.account(mask);
}

}  // namespace

ExecFn select_atomic(const DecodedInst& inst) {
  return with_type(inst.type, [](auto zero) -> ExecFn {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      return nullptr;
    } else {
      return &exec_atomic<T>;
    }
  });
}

}  // namespace warpsim::exec

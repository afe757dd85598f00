// Arithmetic, logic, comparisons, select, mov and cvt. Semantics are docs/ir.md's: integers wrap,
// floats are IEEE with round-to-nearest-even, division by zero faults.
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "sim/core/exec/alu_ops.hpp"
#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/half_float.hpp"
#include "sim/core/exec/values.hpp"

namespace warpsim::exec {
namespace {

using namespace alu;  // the operations, by name, in the dispatch below

template <typename T, typename Op>
void exec_unary(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = to_bits(Op::apply(from_bits<T>(a[l]))); });
}

template <typename T, typename Op>
void exec_binary(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = w.read(d.src[1]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    out[l] = to_bits(Op::apply(from_bits<T>(a[l]), from_bits<T>(b[l])));
  });
}

// mad (integers, low half) and fma (floats, one rounding).
template <typename T>
void exec_multiply_add(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d,
                       std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = w.read(d.src[1]);
  const std::uint64_t* c = w.read(d.src[2]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    const T x = from_bits<T>(a[l]), y = from_bits<T>(b[l]), z = from_bits<T>(c[l]);
    if constexpr (std::is_floating_point_v<T>) {
      out[l] = to_bits(gpu_nan(std::fma(x, y, z), x, y, z));
    } else if constexpr (kIsInt<T>) {
      out[l] = to_bits(wrap_add(wrap_mul(x, y), z));
    }
  });
}

template <typename T, bool kRemainder>
void exec_divide(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = w.read(d.src[1]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    const T x = from_bits<T>(a[l]), y = from_bits<T>(b[l]);
    if constexpr (std::is_floating_point_v<T>) {
      out[l] = to_bits(gpu_nan(x / y, x, y));
    } else if constexpr (kIsInt<T>) {
      if (y == T{0}) fault(ctx, w, d, l, kRemainder ? "remainder by zero" : "division by zero");
      // The one overflowing case, min / -1, wraps (C++ would be undefined).
      if (std::is_signed_v<T> && x == std::numeric_limits<T>::min() && y == static_cast<T>(-1)) {
        out[l] = to_bits(kRemainder ? T{0} : x);
      } else {
        out[l] = to_bits(static_cast<T>(kRemainder ? x % y : x / y));
      }
    }
  });
}

template <typename T, bool kLeft>
void exec_shift(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = w.read(d.src[1]);
  std::uint64_t* out = w.write(d.dst[0]);
  constexpr unsigned kBits = sizeof(T) * 8;
  for_lanes(mask, [&](unsigned l) {
    if constexpr (kIsInt<T>) {
      const T x = from_bits<T>(a[l]);
      const auto n = static_cast<std::uint32_t>(b[l]);
      T r;
      if (kLeft) {
        r = n >= kBits ? T{0} : static_cast<T>(static_cast<Unsigned<T>>(x) << n);
      } else if (std::is_signed_v<T>) {
        r = static_cast<T>(x >> (n >= kBits ? kBits - 1 : n));  // arithmetic shift
      } else {
        r = n >= kBits ? T{0} : static_cast<T>(x >> n);
      }
      out[l] = to_bits(r);
    }
  });
}

template <typename T>
void exec_select(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* p = w.read(d.src[0]);
  const std::uint64_t* a = w.read(d.src[1]);
  const std::uint64_t* b = w.read(d.src[2]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = p[l] != 0 ? a[l] : b[l]; });
}

// float -> int: toward zero, saturating (PTX cvt.rzi.sat semantics). A NaN gives 0, and to a
// signed 64-bit integer the most negative one, as the H200 computes them
// (kernels_cuda/textbook/rounding.cu, validated bit for bit).
template <typename D, typename S>
D convert(S v) {
  if constexpr (kIsInt<D> && std::is_floating_point_v<S>) {
    if (std::isnan(v)) {
      return std::is_same_v<D, std::int64_t> ? std::numeric_limits<D>::min() : D{0};
    }
    const S t = std::trunc(v);
    if (t <= static_cast<S>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (t >= static_cast<S>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(t);
  } else {
    return static_cast<D>(v);
  }
}

template <typename D, typename S>
void exec_cvt(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) { out[l] = to_bits(convert<D, S>(from_bits<S>(a[l]))); });
}

template <template <typename> class Make>
ExecFn by_type(ir::ScalarType t) {
  return with_type(t, [](auto zero) -> ExecFn { return Make<decltype(zero)>::fn; });
}

template <typename Op>
struct Binary {
  template <typename T>
  struct Of {
    static constexpr ExecFn fn = &exec_binary<T, Op>;
  };
};
template <typename Op>
struct Unary {
  template <typename T>
  struct Of {
    static constexpr ExecFn fn = &exec_unary<T, Op>;
  };
};
template <typename T>
struct MulAdd {
  static constexpr ExecFn fn = &exec_multiply_add<T>;
};
template <typename T>
struct Divide {
  static constexpr ExecFn fn = &exec_divide<T, false>;
};
template <typename T>
struct Remainder {
  static constexpr ExecFn fn = &exec_divide<T, true>;
};
template <typename T>
struct ShiftLeft {
  static constexpr ExecFn fn = &exec_shift<T, true>;
};
template <typename T>
struct ShiftRight {
  static constexpr ExecFn fn = &exec_shift<T, false>;
};
template <typename T>
struct Select {
  static constexpr ExecFn fn = &exec_select<T>;
};

// cvt to or from a 16-bit float held in a u32 (the format and rounding read from the
// instruction).
template <typename Float>
void exec_cvt_to_half(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d,
                      std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    const auto v = static_cast<double>(from_bits<Float>(a[l]));
    out[l] = std::is_same_v<Float, double> ? encode_half_from_f64(v, d.half, d.rounding)
                                           : encode_half(v, d.half, d.rounding);
  });
}

template <typename Float>
void exec_cvt_from_half(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d,
                        std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  std::uint64_t* out = w.write(d.dst[0]);
  for_lanes(mask, [&](unsigned l) {
    const float wide =
        std::bit_cast<float>(half_to_f32_bits(static_cast<std::uint16_t>(a[l] & 0xffffu), d.half));
    out[l] = to_bits(static_cast<Float>(wide));
  });
}

ExecFn select_cvt(ir::ScalarType dst, ir::ScalarType src, ir::HalfFormat half) {
  if (half != ir::HalfFormat::None) {
    if (ir::is_float(dst)) {
      return dst == ir::ScalarType::F64 ? &exec_cvt_from_half<double> : &exec_cvt_from_half<float>;
    }
    return src == ir::ScalarType::F64 ? &exec_cvt_to_half<double> : &exec_cvt_to_half<float>;
  }
  return with_type(dst, [src](auto d) -> ExecFn {
    return with_type(src, [](auto s) -> ExecFn { return &exec_cvt<decltype(d), decltype(s)>; });
  });
}

}  // namespace

ExecFn select_alu(const DecodedInst& inst) {
  using ir::Opcode;
  switch (inst.opcode) {
    case Opcode::Add:
      return by_type<Binary<Add>::Of>(inst.type);
    case Opcode::Sub:
      return by_type<Binary<Sub>::Of>(inst.type);
    case Opcode::Mul:
      return by_type<Binary<Mul>::Of>(inst.type);
    case Opcode::MulHi:
      return by_type<Binary<MulHigh>::Of>(inst.type);
    case Opcode::Min:
      return by_type<Binary<Min>::Of>(inst.type);
    case Opcode::Max:
      return by_type<Binary<Max>::Of>(inst.type);
    case Opcode::And:
      return by_type<Binary<And>::Of>(inst.type);
    case Opcode::Or:
      return by_type<Binary<Or>::Of>(inst.type);
    case Opcode::Xor:
      return by_type<Binary<Xor>::Of>(inst.type);
    case Opcode::Eq:
      return by_type<Binary<Eq>::Of>(inst.type);
    case Opcode::Ne:
      return by_type<Binary<Ne>::Of>(inst.type);
    case Opcode::Lt:
      return by_type<Binary<Lt>::Of>(inst.type);
    case Opcode::Le:
      return by_type<Binary<Le>::Of>(inst.type);
    case Opcode::Gt:
      return by_type<Binary<Gt>::Of>(inst.type);
    case Opcode::Ge:
      return by_type<Binary<Ge>::Of>(inst.type);
    case Opcode::Neg:
      return by_type<Unary<Neg>::Of>(inst.type);
    case Opcode::Abs:
      return by_type<Unary<Abs>::Of>(inst.type);
    case Opcode::Not:
      return by_type<Unary<Not>::Of>(inst.type);
    case Opcode::Mov:
      return by_type<Unary<Mov>::Of>(inst.type);
    case Opcode::Popc:
      return by_type<Unary<Popc>::Of>(inst.type);
    case Opcode::Clz:
      return by_type<Unary<Clz>::Of>(inst.type);
    case Opcode::Brev:
      return by_type<Unary<Brev>::Of>(inst.type);
    case Opcode::Sqrt:
      return by_type<Unary<Sqrt>::Of>(inst.type);
    case Opcode::Rcp:
      return by_type<Unary<Rcp>::Of>(inst.type);
    case Opcode::RsqrtApprox:
      return by_type<Unary<ReciprocalSqrtApprox>::Of>(inst.type);
    case Opcode::RcpApprox:
      return by_type<Unary<ReciprocalFlushed>::Of>(inst.type);
    case Opcode::Ex2Approx:
      return by_type<Unary<Approx<&exp2_lowered>>::Of>(inst.type);
    case Opcode::Lg2Approx:
      return by_type<Unary<Approx<&log2_lowered>>::Of>(inst.type);
    case Opcode::SqrtApprox:
      return by_type<Unary<Approx<&sqrt_lowered>>::Of>(inst.type);
    case Opcode::SinApprox:
      return by_type<Unary<Approx<&sine_lowered>>::Of>(inst.type);
    case Opcode::CosApprox:
      return by_type<Unary<Approx<&cosine_lowered>>::Of>(inst.type);
    case Opcode::Mad:
    case Opcode::Fma:
      return by_type<MulAdd>(inst.type);
    case Opcode::Div:
      return by_type<Divide>(inst.type);
    case Opcode::DivApprox:
      return by_type<Binary<ApproxDivide<true>>::Of>(inst.type);
    case Opcode::DivFull:
      return by_type<Binary<ApproxDivide<false>>::Of>(inst.type);
    case Opcode::Rem:
      return by_type<Remainder>(inst.type);
    case Opcode::Shl:
      return by_type<ShiftLeft>(inst.type);
    case Opcode::Shr:
      return by_type<ShiftRight>(inst.type);
    case Opcode::Select:
      return by_type<Select>(inst.type);
    case Opcode::Cvt:
      return select_cvt(inst.type, inst.source_type, inst.half);
    case Opcode::Bitcast:
      // Registers hold values' bits zero-extended, and the verifier has checked that both types
      // have one width, so the bits move unchanged.
      return Unary<Mov>::Of<std::uint64_t>::fn;
    case Opcode::Ld:  // not arithmetic (select_exec routes these elsewhere)
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Shfl:
    case Opcode::Vote:
    case Opcode::ShflSync:
    case Opcode::VoteSync:
    case Opcode::MatchAny:
    case Opcode::ReduxSync:
    case Opcode::WarpSync:
    case Opcode::BarSync:
    case Opcode::BarRed:
    case Opcode::BarNamed:
    case Opcode::BarArrive:
    case Opcode::ClusterSync:
    case Opcode::Br:
    case Opcode::Jmp:
    case Opcode::Ret:
      break;
  }
  return nullptr;
}

}  // namespace warpsim::exec

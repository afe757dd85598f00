// Float add, sub, mul, fma, div, sqrt and rcp, and conversions to a float that round (from an
// integer, f64 to f32), with a directed rounding (PTX's .rz, .rm, .rp: nvcc's expf and powf use
// fma.rm; CUDA's __fdiv_rz, __fsqrt_ru, __int2float_rd, __double2float_rz). The host's IEEE
// operations and conversions are correctly rounded in its rounding mode, which is set around
// each warp's operation and restored; this file is compiled with -frounding-math, so no
// operation is folded or moved across it.
#include <cfenv>
#include <cmath>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/gpu_nan.hpp"
#include "sim/core/exec/values.hpp"

namespace warpsim::exec {
namespace {

int host_mode(ir::Rounding r) {
  switch (r) {
    case ir::Rounding::Zero:
      return FE_TOWARDZERO;
    case ir::Rounding::Down:
      return FE_DOWNWARD;
    case ir::Rounding::Up:
      return FE_UPWARD;
    case ir::Rounding::Nearest:
      break;
  }
  return FE_TONEAREST;
}

// Restores the caller's rounding mode however the operation ends.
class RoundingScope {
 public:
  explicit RoundingScope(ir::Rounding r) : saved_(std::fegetround()) {
    std::fesetround(host_mode(r));
  }
  ~RoundingScope() { std::fesetround(saved_); }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int saved_;
};

template <typename T>
T apply(ir::Opcode op, T a, T b, T c) {
  switch (op) {
    case ir::Opcode::Add:
      return gpu_nan(a + b, a, b);
    case ir::Opcode::Sub:
      return gpu_nan(a - b, a, b);
    case ir::Opcode::Mul:
      return gpu_nan(a * b, a, b);
    case ir::Opcode::Div:
      return gpu_nan(a / b, a, b);
    case ir::Opcode::Sqrt:
      return gpu_nan(std::sqrt(a), a);
    case ir::Opcode::Rcp:
      return gpu_nan(T{1} / a, a);
    default:
      return gpu_nan(std::fma(a, b, c), a, b, c);
  }
}

template <typename T>
void exec_rounded(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  const std::uint64_t* b = d.nsrc > 1 ? w.read(d.src[1]) : a;
  const std::uint64_t* c = d.opcode == ir::Opcode::Fma ? w.read(d.src[2]) : a;
  std::uint64_t* out = w.write(d.dst[0]);
  const RoundingScope scope(d.rounding);
  for_lanes(mask, [&](unsigned l) {
    out[l] = to_bits(apply(d.opcode, from_bits<T>(a[l]), from_bits<T>(b[l]), from_bits<T>(c[l])));
  });
}

template <typename To, typename From>
void exec_rounded_cvt(ExecContext& /*ctx*/, WarpState& w, const DecodedInst& d,
                      std::uint32_t mask) {
  const std::uint64_t* a = w.read(d.src[0]);
  std::uint64_t* out = w.write(d.dst[0]);
  const RoundingScope scope(d.rounding);
  for_lanes(mask, [&](unsigned l) { out[l] = to_bits(static_cast<To>(from_bits<From>(a[l]))); });
}

template <typename To>
ExecFn rounded_cvt(ir::ScalarType from) {
  return with_type(from, [](auto s) -> ExecFn { return &exec_rounded_cvt<To, decltype(s)>; });
}

}  // namespace

ExecFn select_rounded(const DecodedInst& inst) {
  if (inst.opcode == ir::Opcode::Cvt) {
    return inst.type == ir::ScalarType::F64 ? rounded_cvt<double>(inst.source_type)
                                            : rounded_cvt<float>(inst.source_type);
  }
  return inst.type == ir::ScalarType::F64 ? &exec_rounded<double> : &exec_rounded<float>;
}

}  // namespace warpsim::exec

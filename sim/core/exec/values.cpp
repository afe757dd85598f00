#include "sim/core/exec/values.hpp"

#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {

std::uint64_t literal_bits(const ir::Literal& literal, ir::ScalarType type) {
  if (const auto* f = std::get_if<ir::FloatLiteral>(&literal)) {
    if (type == ir::ScalarType::F32) return to_bits(static_cast<float>(f->value));
    return to_bits(f->value);
  }
  const auto& i = std::get<ir::IntLiteral>(literal);
  // Two's complement of the magnitude when negative, then cut to the type's width.
  const std::uint64_t raw = i.negative ? ~i.magnitude + 1 : i.magnitude;
  switch (type) {
    case ir::ScalarType::Pred:
      return raw != 0 ? 1 : 0;
    case ir::ScalarType::S32:
    case ir::ScalarType::U32:
      return raw & kFullWarpMask;
    case ir::ScalarType::S64:
    case ir::ScalarType::U64:
      return raw;
    case ir::ScalarType::F32: {
      const auto v =
          i.negative ? -static_cast<double>(i.magnitude) : static_cast<double>(i.magnitude);
      return to_bits(static_cast<float>(v));
    }
    case ir::ScalarType::F64:
      return to_bits(i.negative ? -static_cast<double>(i.magnitude)
                                : static_cast<double>(i.magnitude));
  }
  return raw;
}

}  // namespace warpsim::exec

// How typed values live in the simulator: every register lane and immediate is a uint64_t
// holding the value's bit pattern, zero-extended (an f32 is its 32 IEEE bits, a pred is 0 or 1).
// Contract: from_bits<T>(to_bits(v)) == v bit for bit, for every T the IR has.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "sim/core/ir/module.hpp"

namespace warpsim::exec {

template <typename T>
inline T from_bits(std::uint64_t bits) {
  if constexpr (std::is_same_v<T, bool>) {
    return bits != 0;
  } else if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(bits);
  } else {
    return static_cast<T>(bits);
  }
}

template <typename T>
inline std::uint64_t to_bits(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? 1 : 0;
  } else if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(value);
  } else {
    return static_cast<std::make_unsigned_t<T>>(value);
  }
}

// The bits of a literal used as a value of `type` (the verifier has checked that it fits).
std::uint64_t literal_bits(const ir::Literal& literal, ir::ScalarType type);

// Calls f(T{}) with T the C++ type of `type` (bool for pred).
template <typename F>
decltype(auto) with_type(ir::ScalarType type, F&& f) {
  switch (type) {
    case ir::ScalarType::Pred:
      return f(bool{});
    case ir::ScalarType::S32:
      return f(std::int32_t{});
    case ir::ScalarType::U32:
      return f(std::uint32_t{});
    case ir::ScalarType::S64:
      return f(std::int64_t{});
    case ir::ScalarType::U64:
      return f(std::uint64_t{});
    case ir::ScalarType::F32:
      return f(float{});
    case ir::ScalarType::F64:
      return f(double{});
  }
  return f(std::uint64_t{});
}

}  // namespace warpsim::exec

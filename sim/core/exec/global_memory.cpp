#include "sim/core/exec/global_memory.hpp"

#include <cmath>
#include <cstring>
#include <random>

#include "sim/core/exec/values.hpp"

namespace warpsim::exec {
namespace {

constexpr std::uint64_t kFirstAddress = 0x10000000;
constexpr std::uint64_t kAlignment = 512;

double literal_as_double(const ir::Literal& lit) {
  if (const auto* f = std::get_if<ir::FloatLiteral>(&lit)) return f->value;
  const auto& i = std::get<ir::IntLiteral>(lit);
  return i.negative ? -static_cast<double>(i.magnitude) : static_cast<double>(i.magnitude);
}

std::int64_t literal_as_int(const ir::Literal& lit) {
  const auto& i = std::get<ir::IntLiteral>(lit);
  return i.negative ? static_cast<std::int64_t>(~i.magnitude + 1)
                    : static_cast<std::int64_t>(i.magnitude);
}

template <typename T>
void store(GlobalBuffer& b, std::uint64_t i, T value) {
  std::memcpy(b.bytes.data() + i * sizeof(T), &value, sizeof(T));
}

template <typename T>
void fill_random(GlobalBuffer& b, const ir::BufferSpec& spec) {
  std::mt19937_64 rng(spec.seed);  // mt19937_64's sequence is fixed by the C++ standard
  const std::uint64_t n = b.count();
  if constexpr (std::is_floating_point_v<T>) {
    const double lo = spec.min ? literal_as_double(*spec.min) : 0.0;
    const double hi = spec.max ? literal_as_double(*spec.max) : 1.0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
      T v = static_cast<T>(lo + u * (hi - lo));
      if (!(v < static_cast<T>(hi))) v = std::nextafter(static_cast<T>(hi), static_cast<T>(lo));
      store(b, i, v);
    }
  } else {
    const std::int64_t lo = spec.min ? literal_as_int(*spec.min) : 0;
    const std::int64_t hi = spec.max ? literal_as_int(*spec.max) : 100;
    const auto range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    for (std::uint64_t i = 0; i < n; ++i) {
      store(b, i, static_cast<T>(static_cast<std::uint64_t>(lo) + rng() % range));
    }
  }
}

}  // namespace

void fill_buffer(GlobalBuffer& b, const ir::BufferSpec& spec) {
  with_type(b.element, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_same_v<T, bool>) {
      const std::uint64_t n = b.count();
      switch (spec.init) {
        case ir::BufferInit::Zero:
          break;
        case ir::BufferInit::Iota:
          for (std::uint64_t i = 0; i < n; ++i) store(b, i, static_cast<T>(i));
          break;
        case ir::BufferInit::Constant: {
          const T v = from_bits<T>(literal_bits(spec.value, b.element));
          for (std::uint64_t i = 0; i < n; ++i) store(b, i, v);
          break;
        }
        case ir::BufferInit::Random:
          fill_random<T>(b, spec);
          break;
      }
    }
  });
}

GlobalMemory GlobalMemory::allocate(const LaunchSpec& launch) {
  GlobalMemory mem;
  std::uint64_t next = kFirstAddress;
  for (const ir::KernelParam& p : launch.kernel->params) {
    if (!p.is_pointer) continue;
    const auto& spec = std::get<ir::BufferSpec>(launch.args.at(p.name));
    GlobalBuffer b;
    b.name = p.name;
    b.element = spec.element;
    b.base_address = next;
    b.bytes.assign(spec.count * ir::size_bytes(spec.element), 0);
    fill_buffer(b, spec);
    next += (b.bytes.size() + kAlignment - 1) / kAlignment * kAlignment;
    mem.buffers.push_back(std::move(b));
  }
  return mem;
}

const GlobalBuffer* GlobalMemory::find(std::string_view name) const {
  for (const GlobalBuffer& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

}  // namespace warpsim::exec

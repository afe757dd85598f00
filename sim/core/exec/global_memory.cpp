#include "sim/core/exec/global_memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "sim/core/exec/values.hpp"
#include "sim/core/ir/buffer_file.hpp"

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
    const auto [low, high] = ir::random_range(spec);
    const double lo = literal_as_double(low);
    const double hi = literal_as_double(high);
    for (std::uint64_t i = 0; i < n; ++i) {
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
      T v = static_cast<T>(lo + u * (hi - lo));
      if (!(v < static_cast<T>(hi))) v = std::nextafter(static_cast<T>(hi), static_cast<T>(lo));
      store(b, i, v);
    }
  } else {
    const auto [low, high] = ir::random_range(spec);
    const std::int64_t lo = literal_as_int(low);
    const std::int64_t hi = literal_as_int(high);
    const auto range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    for (std::uint64_t i = 0; i < n; ++i) {
      store(b, i, static_cast<T>(static_cast<std::uint64_t>(lo) + rng() % range));
    }
  }
}

template <typename T>
void sort_elements(GlobalBuffer& b) {
  std::vector<T> values(b.count());
  std::memcpy(values.data(), b.bytes.data(), b.bytes.size());
  std::sort(values.begin(), values.end());
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
}

// 0 .. n-1 shuffled by Fisher-Yates with mt19937_64 (std::shuffle's order is the library's
// choice, this one is the same everywhere).
template <typename T>
void fill_permutation(GlobalBuffer& b, std::uint64_t seed) {
  const std::uint64_t n = b.count();
  std::vector<T> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = static_cast<T>(i);
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = n; i > 1; --i) std::swap(values[i - 1], values[rng() % i]);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
}

// The largest half (or bfloat16) below `bits`, a finite non-zero value's encoding.
std::uint16_t half_below(std::uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  if ((bits & 0x7fffu) == 0) return 0x8001u;  // below +-0: the smallest negative subnormal
  return static_cast<std::uint16_t>(negative ? bits + 1u : bits - 1u);
}

// `wide`'s elements as `b`'s storage holds them: an integer's low bytes, a float rounded to
// nearest even; a random value kept below its range's max where the rounding reached it.
void narrow_into(GlobalBuffer& b, const GlobalBuffer& wide, const ir::BufferSpec& spec) {
  const unsigned size = ir::storage_bytes(b.type());
  const std::uint64_t n = b.count();
  if (b.storage == ir::Storage::Bits8 || b.storage == ir::Storage::Bits16) {
    for (std::uint64_t i = 0; i < n; ++i)
      std::memcpy(b.bytes.data() + i * size, wide.bytes.data() + i * 4, size);
    return;
  }
  const ir::HalfFormat format = ir::half_format(b.storage);
  const bool ranged = spec.init == ir::BufferInit::Random || spec.init == ir::BufferInit::Sorted;
  const double max = literal_as_double(ir::random_range(spec).second);
  for (std::uint64_t i = 0; i < n; ++i) {
    float v = 0;
    std::memcpy(&v, wide.bytes.data() + i * 4, 4);
    std::uint16_t bits = encode_half(v, format, ir::Rounding::Nearest);
    if (ranged && decode_half(bits, format) >= max) bits = half_below(bits);
    std::memcpy(b.bytes.data() + i * size, &bits, size);
  }
}

}  // namespace

void fill_buffer(GlobalBuffer& b, const ir::BufferSpec& spec) {
  const bool computed = spec.init != ir::BufferInit::Zero &&
                        spec.init != ir::BufferInit::Uninitialised &&
                        spec.init != ir::BufferInit::File && spec.init != ir::BufferInit::Result;
  if (b.storage != ir::Storage::Natural && computed) {
    // Computed as the element type's values, then stored narrower.
    GlobalBuffer wide;
    wide.element = b.element;
    wide.bytes.assign(b.count() * ir::size_bytes(b.element), 0);
    fill_buffer(wide, spec);
    narrow_into(b, wide, spec);
    return;
  }
  with_type(b.element, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_same_v<T, bool>) {
      const std::uint64_t n = b.count();
      switch (spec.init) {
        case ir::BufferInit::Zero:
        case ir::BufferInit::Uninitialised:
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
        case ir::BufferInit::Sorted:
          fill_random<T>(b, spec);
          sort_elements<T>(b);
          break;
        case ir::BufferInit::Permutation:
          if constexpr (std::is_integral_v<T>) fill_permutation<T>(b, spec.seed);
          break;
        case ir::BufferInit::File:
          b.bytes = ir::read_buffer_file(spec.file, b.type(), n);
          break;
        case ir::BufferInit::Result:
          if (spec.bytes == nullptr || spec.bytes->size() != b.bytes.size())
            throw std::logic_error("a launch's result buffer was not resolved before its run");
          b.bytes = *spec.bytes;
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
    b.storage = spec.storage;
    b.base_address = next;
    b.bytes.assign(spec.count * ir::storage_bytes(spec.type()), 0);
    fill_buffer(b, spec);
    next += (b.bytes.size() + kAlignment - 1) / kAlignment * kAlignment;
    mem.buffers.push_back(std::move(b));
  }
  for (const ir::ArrayDecl& g : launch.globals) {
    GlobalBuffer b;
    b.name = g.name;
    b.element = g.element;
    b.base_address = next;
    b.bytes = initial_bytes(g);
    next += (b.bytes.size() + kAlignment - 1) / kAlignment * kAlignment;
    mem.buffers.push_back(std::move(b));
  }
  return mem;
}

std::vector<std::uint8_t> initial_bytes(const ir::ArrayDecl& variable) {
  std::uint64_t count = 1;
  for (const std::uint64_t d : variable.dims) count *= d;
  const unsigned size = ir::size_bytes(variable.element);
  std::vector<std::uint8_t> bytes(count * size, 0);
  for (std::size_t i = 0; i < variable.init.size() && i < count; ++i) {
    const std::uint64_t bits = literal_bits(variable.init[i], variable.element);
    std::memcpy(bytes.data() + i * size, &bits, size);
  }
  return bytes;
}

const GlobalBuffer* GlobalMemory::find(std::string_view name) const {
  for (const GlobalBuffer& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

}  // namespace warpsim::exec

// Launch blocks: shapes within CUDA's limits, one well-typed argument per parameter.
#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "sim/core/ir/buffer_file.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/verifier.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {
namespace {

constexpr std::uint64_t kMaxBlockThreads = 1024;
constexpr std::uint64_t kMaxGridX = (std::uint64_t{1} << 31) - 1;
constexpr std::uint64_t kMaxGridYZ = 65535;
constexpr std::uint64_t kMaxClusterBlocks = 8;  // the portable cluster size
constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{16} << 30;

double as_double(const Literal& lit) {
  if (const auto* f = std::get_if<FloatLiteral>(&lit)) return f->value;
  const auto& i = std::get<IntLiteral>(lit);
  const auto m = static_cast<double>(i.magnitude);
  return i.negative ? -m : m;
}

// Whether `lit` fits the buffer's elements as memory stores them: a narrow integer's range, a
// half's largest finite value (bfloat16's is f32's own).
bool fits_storage(const Literal& lit, const BufferSpec& buf) {
  if (!literal_fits(lit, buf.element)) return false;
  const double v = as_double(lit);
  switch (buf.storage) {
    case Storage::Bits8:
    case Storage::Bits16: {
      const double span = buf.storage == Storage::Bits8 ? 256.0 : 65536.0;
      return is_signed_int(buf.element) ? v >= -span / 2 && v < span / 2 : v >= 0 && v < span;
    }
    case Storage::F16:
      return !std::isfinite(v) || std::fabs(v) <= 65504.0;
    case Storage::Natural:
    case Storage::BF16:
      return true;
  }
  return true;
}

void check_init(const BufferSpec& buf, const LaunchArg& a, Diagnostics& diags) {
  const std::string type(buffer_type_name(buf.type()));
  if (buf.init == BufferInit::Constant && !fits_storage(buf.value, buf)) {
    diags.error(a.loc, "constant " + to_string(buf.value) + " does not fit " + type);
  }
  if (buf.init == BufferInit::Permutation) {
    if (!is_int(buf.element)) {
      diags.error(a.loc, "a permutation is of integers, not " + type);
    } else if (const unsigned bits =
                   8 * storage_bytes(buf.type()) -
                   (is_signed_int(buf.element) || buf.storage == Storage::Natural ? 1u : 0u);
               bits < 63 && buf.count > (std::uint64_t{1} << bits)) {
      diags.error(a.loc, "a permutation of " + std::to_string(buf.count) + " does not fit " + type);
    }
  }
  if (buf.init == BufferInit::File) {
    const BufferFileCheck check = check_buffer_file(buf.file, buf.type(), buf.count);
    if (!check.layout) diags.error(a.loc, "buffer file '" + buf.file + "' " + check.error);
  }
  const bool ranged = buf.init == BufferInit::Random || buf.init == BufferInit::Sorted;
  if (!ranged || (!buf.min && !buf.max)) return;
  const auto [low, high] = random_range(buf);
  if (!fits_storage(low, buf) || !fits_storage(high, buf)) {
    diags.error(a.loc, "random range does not fit " + type);
  } else if (!(as_double(low) < as_double(high))) {
    diags.error(a.loc, "random range needs min < max");
  }
}

class LaunchChecker {
 public:
  LaunchChecker(const Module& m, const Launch& l, Diagnostics& diags)
      : module_(m), launch_(l), diags_(diags) {}

  void run() {
    const Kernel* k = module_.find_kernel(launch_.kernel);
    if (k == nullptr) {
      diags_.error(launch_.loc, "launch of unknown kernel '" + launch_.kernel + "'");
      return;
    }
    check_shape();
    check_launch_bounds(*k);
    check_cluster_dims(*k);
    check_args(*k);
    check_dynamic_smem(*k);
  }

 private:
  // CUDA refuses a launch with more threads a block than __launch_bounds__ allows.
  void check_launch_bounds(const Kernel& k) {
    if (!k.launch_bounds || launch_.block.count() <= k.launch_bounds->max_threads) return;
    const std::string bound = std::to_string(k.launch_bounds->max_threads);
    error("block of " + std::to_string(launch_.block.count()) + " threads exceeds the " + bound +
          " that kernel '" + k.name + "' allows (launch_bounds(" + bound + "))");
  }

  // A kernel compiled with __cluster_dims__ launches with that cluster only (CUDA refuses
  // another shape at launch).
  void check_cluster_dims(const Kernel& k) {
    if (!k.cluster_dims || launch_.cluster == *k.cluster_dims) return;
    const Dim3& c = *k.cluster_dims;
    const std::string want =
        std::to_string(c.x) + ", " + std::to_string(c.y) + ", " + std::to_string(c.z);
    error("kernel '" + k.name + "' has cluster_dims(" + want + "): launch it with cluster(" + want +
          ")");
  }

  void check_shape() {
    for (const std::string& e : shape_errors(launch_.grid, launch_.block, launch_.cluster)) {
      error(e);
    }
  }

  void check_args(const Kernel& k) {
    std::set<std::string> given;
    for (const LaunchArg& a : launch_.args) {
      if (!given.insert(a.name).second) {
        diags_.error(a.loc, "argument '" + a.name + "' given twice");
        continue;
      }
      const KernelParam* p = nullptr;
      for (const KernelParam& cand : k.params) {
        if (cand.name == a.name) p = &cand;
      }
      if (p == nullptr) {
        diags_.error(a.loc, "kernel '" + k.name + "' has no parameter '" + a.name + "'");
        continue;
      }
      verify_argument(*p, a, diags_);
      if (const auto* buf = std::get_if<BufferSpec>(&a.value);
          buf != nullptr && buf->init == BufferInit::Result)
        check_result(*buf, a);
    }
    for (const KernelParam& p : k.params) {
      if (!given.contains(p.name)) error("missing argument '" + p.name + "'");
    }
  }

  // result(LAUNCH, BUFFER): LAUNCH is a launch block before this one (so a sequence cannot
  // loop), and BUFFER one of its buffers of the same element type and count.
  void check_result(const BufferSpec& buf, const LaunchArg& a) {
    std::size_t self = module_.launches.size(), from = module_.launches.size();
    for (std::size_t i = 0; i < module_.launches.size(); ++i) {
      if (module_.launches[i].name == launch_.name && self == module_.launches.size()) self = i;
      if (module_.launches[i].name == buf.launch && from == module_.launches.size()) from = i;
    }
    if (from == module_.launches.size() || from >= self) {
      diags_.error(a.loc, "result(" + buf.launch + ", " + buf.buffer +
                              "): no launch block named '" + buf.launch + "' before launch '" +
                              launch_.name + "'");
      return;
    }
    const BufferSpec* source = nullptr;
    for (const LaunchArg& other : module_.launches[from].args) {
      if (other.name == buf.buffer) source = std::get_if<BufferSpec>(&other.value);
    }
    if (source == nullptr) {
      diags_.error(a.loc, "result(" + buf.launch + ", " + buf.buffer + "): launch '" + buf.launch +
                              "' has no buffer '" + buf.buffer + "'");
    } else if (source->type() != buf.type() || source->count != buf.count) {
      diags_.error(a.loc, "result(" + buf.launch + ", " + buf.buffer + ") is " +
                              std::string(buffer_type_name(source->type())) + "[" +
                              std::to_string(source->count) + "], not " +
                              std::string(buffer_type_name(buf.type())) + "[" +
                              std::to_string(buf.count) + "]");
    }
  }

  void check_dynamic_smem(const Kernel& k) {
    bool has_dynamic = false;
    for (const ArrayDecl& a : k.arrays) has_dynamic = has_dynamic || a.is_dynamic;
    if (has_dynamic && launch_.dynamic_smem == 0) {
      diags_.warning(launch_.loc, "kernel '" + k.name +
                                      "' declares a dynamic shared array but the launch "
                                      "gives it 0 bytes (dynamic_smem(bytes) is 0 or missing)");
    } else if (!has_dynamic && launch_.dynamic_smem != 0) {
      diags_.warning(launch_.loc, "dynamic_smem is given but kernel '" + k.name +
                                      "' declares no dynamic shared array");
    }
  }

  void error(const std::string& message) {
    diags_.error(launch_.loc, "launch '" + launch_.name + "': " + message);
  }

  const Module& module_;
  const Launch& launch_;
  Diagnostics& diags_;
};

}  // namespace

void verify_argument(const KernelParam& p, const LaunchArg& a, Diagnostics& diags) {
  const std::string type(name(p.type));
  if (const auto* lit = std::get_if<Literal>(&a.value)) {
    if (p.is_pointer) {
      diags.error(a.loc, "'" + p.name + "' is a pointer; give a buffer: " + p.name + " = " + type +
                             "[count] zero");
    } else if (const auto why = scalar_argument_error(p, *lit)) {
      diags.error(a.loc, *why);
    }
    return;
  }
  const auto& buf = std::get<BufferSpec>(a.value);
  if (!p.is_pointer) {
    diags.error(a.loc, "'" + p.name + "' is a scalar " + type + "; give a value, not a buffer");
    return;
  }
  // A narrow buffer's bytes are read by the kernel's 8- or 16-bit accesses through a pointer to
  // 32-bit integer words (as an imported char, short or __half pointer is typed).
  const bool narrow_words =
      buf.storage != Storage::Natural && is_int(p.type) && size_bytes(p.type) == 4;
  if (!narrow_words && !operand_compatible(p.type, buf.element)) {
    // An imported kernel's pointer to 8- or 16-bit elements (char, short, __half) points to
    // 32-bit words whose bytes the kernel addresses.
    const std::string words = size_bytes(p.type) == 4 && is_int(p.type)
                                  ? " (a pointer to 8- or 16-bit elements, char, short or "
                                    "__half, takes a buffer of u8, s8, u16, s16, f16 or bf16, "
                                    "or of 32-bit words holding them)"
                                  : "";
    diags.error(a.loc, "buffer of " + std::string(buffer_type_name(buf.type())) + " for '" +
                           p.name + "', which points to " + type + words);
  }
  const unsigned elem = storage_bytes(buf.type());
  if (buf.count == 0 || elem == 0 || buf.count > kMaxBufferBytes / elem) {
    diags.error(a.loc, "buffer '" + p.name + "' must hold 1 element to 16 GiB");
  }
  check_init(buf, a, diags);
}

std::vector<std::string> shape_errors(const Dim3& g, const Dim3& b, const Dim3& c) {
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 || c.x == 0 ||
      c.y == 0 || c.z == 0) {
    return {"grid, block and cluster dimensions must be at least 1"};
  }
  std::vector<std::string> errors;
  if (g.x > kMaxGridX || g.y > kMaxGridYZ || g.z > kMaxGridYZ) {
    errors.emplace_back("grid exceeds CUDA's limits (x < 2^31, y and z <= 65535)");
  }
  if (b.x > 1024 || b.y > 1024 || b.z > 64 || b.count() > kMaxBlockThreads) {
    errors.push_back("block of " + std::to_string(b.count()) +
                     " threads exceeds CUDA's limits (x, y <= 1024, z <= 64, at most 1024 "
                     "threads)");
  }
  if (g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0) {
    errors.emplace_back("cluster dimensions must divide the grid's");
  } else if (c.count() > kMaxClusterBlocks) {
    errors.emplace_back("a cluster holds at most 8 blocks (the portable limit)");
  }
  return errors;
}

std::optional<std::string> scalar_argument_error(const KernelParam& p, const Literal& value) {
  const std::string type(name(p.type));
  const std::string what = "parameter '" + p.name + "' (" + type + ")";
  if (std::holds_alternative<FloatLiteral>(value)) {
    if (!is_float(p.type)) return to_string(value) + " is not an integer, as " + what + " needs";
    if (literal_fits(value, p.type)) return std::nullopt;
    return "value " + to_string(value) + " is outside the range of " + what;
  }
  if (is_float(p.type)) return std::nullopt;
  const auto& i = std::get<IntLiteral>(value);
  if (p.type == ScalarType::Pred) {
    if (!i.negative && i.magnitude <= 1) return std::nullopt;
    return "value " + to_string(value) + " does not fit " + what + ": 0 or 1";
  }
  // Scalars are strict, unlike instruction literals (which may give any bit pattern of their
  // width): a launch argument names a number, and a wrapped one would silently change it.
  const unsigned bits = size_bytes(p.type) * 8;
  const bool is_signed = p.type == ScalarType::S32 || p.type == ScalarType::S64;
  const std::uint64_t top = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t max_positive = is_signed ? top >> 1 : top;
  const std::uint64_t max_negative = is_signed ? max_positive + 1 : 0;
  if (i.negative ? i.magnitude <= max_negative : i.magnitude <= max_positive) return std::nullopt;
  std::string range =
      is_signed ? "-" + std::to_string(max_negative) + " to " + std::to_string(max_positive)
                : "0 to " + std::to_string(max_positive);
  std::string hint;
  if (is_signed && !i.negative && i.magnitude <= top) {
    hint = "; it would fit u" + std::to_string(bits);
  }
  return "value " + to_string(value) + " does not fit " + what + ": " + range + hint;
}

bool verify_launch(const Module& module, const Launch& launch, Diagnostics& diags) {
  const std::size_t before = diags.error_count();
  LaunchChecker(module, launch, diags).run();
  return diags.error_count() == before;
}

void verify_launches(const Module& module, Diagnostics& diags) {
  std::set<std::string> names;
  for (const Launch& l : module.launches) {
    if (!names.insert(l.name).second) {
      diags.error(l.loc, "duplicate launch '" + l.name + "' (name one with 'as NAME')");
    }
    LaunchChecker(module, l, diags).run();
  }
}

}  // namespace warpsim::ir

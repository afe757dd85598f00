#include "sim/core/exec/device_printf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace warpsim::exec {
namespace {

// A width or precision beyond this is refused: the host formats into a buffer of that size.
constexpr long kLargestWidth = 4096;

// Reads the arguments in order, each at the next offset aligned to its size.
class ArgumentCursor {
 public:
  explicit ArgumentCursor(const PrintfMemory& memory) : memory_(memory) {}
  template <typename T>
  bool next(T& value) {
    offset_ = (offset_ + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    if (!memory_.argument(offset_, &value, sizeof(T))) return false;
    offset_ += sizeof(T);
    ++count_;
    return true;
  }
  std::int32_t count() const { return count_; }
  std::uint64_t offset() const { return offset_; }

 private:
  const PrintfMemory& memory_;
  std::uint64_t offset_ = 0;
  std::int32_t count_ = 0;
};

// One conversion: `%[flags][width][.precision][length]conversion`.
struct Conversion {
  std::string flags;
  std::optional<long> width, precision;  // resolved (a `*` read from the arguments)
  bool width_star = false, precision_star = false;
  std::string length;  // hh, h, l, ll, L, z, j, t
  char conversion = 0;
  std::size_t end = 0;  // index after the conversion character
};

std::optional<long> digits(std::string_view f, std::size_t& i) {
  if (i >= f.size() || f[i] < '0' || f[i] > '9') return std::nullopt;
  long v = 0;
  while (i < f.size() && f[i] >= '0' && f[i] <= '9') {
    v = std::min<long>(v * 10 + (f[i] - '0'), kLargestWidth + 1);
    ++i;
  }
  return v;
}

// Parses the conversion starting after the '%' at `i`; the conversion character is 0 where the
// format ends inside it.
Conversion parse(std::string_view f, std::size_t i) {
  Conversion c;
  while (i < f.size() && std::string_view("-+ #0").find(f[i]) != std::string_view::npos)
    c.flags += f[i++];
  if (i < f.size() && f[i] == '*') {
    c.width_star = true;
    ++i;
  } else {
    c.width = digits(f, i);
  }
  if (i < f.size() && f[i] == '.') {
    ++i;
    if (i < f.size() && f[i] == '*') {
      c.precision_star = true;
      ++i;
    } else {
      c.precision = digits(f, i).value_or(0);
    }
  }
  for (const std::string_view len : {"hh", "h", "ll", "l", "L", "z", "j", "t"}) {
    if (f.substr(i).starts_with(len)) {
      c.length = std::string(len);
      i += len.size();
      break;
    }
  }
  if (i < f.size()) c.conversion = f[i++];
  c.end = i;
  return c;
}

// The host's format string for `c`, its width and precision written out.
std::string host_spec(const Conversion& c, std::string_view length) {
  std::string spec = "%" + c.flags;
  if (c.width) spec += std::to_string(*c.width);
  if (c.precision) spec += "." + std::to_string(*c.precision);
  spec += length;
  spec += c.conversion;
  return spec;
}

template <typename T>
std::string host_format(const std::string& spec, T value) {
  const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (n <= 0) return {};
  std::string out(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), value);
  out.resize(static_cast<std::size_t>(n));
  return out;
}

bool is_wide_integer(const std::string& length) {
  return length == "l" || length == "ll" || length == "z" || length == "j" || length == "t";
}

// Formats conversion `c`, reading its value (and any `*`) from `args`; an error says why not.
std::string format_one(Conversion& c, ArgumentCursor& args, const PrintfMemory& memory,
                       std::string& error) {
  auto missing = [&] {
    error =
        fmt::format("its argument at byte {} of the argument buffer cannot be read", args.offset());
    return std::string();
  };
  if (c.width_star) {
    std::int32_t w = 0;
    if (!args.next(w)) return missing();
    if (w < 0) c.flags += '-';
    c.width = std::labs(w);
  }
  if (c.precision_star) {
    std::int32_t p = 0;
    if (!args.next(p)) return missing();
    if (p >= 0) c.precision = p;
  }
  if (c.width.value_or(0) > kLargestWidth || c.precision.value_or(0) > kLargestWidth) {
    error = fmt::format("a width or precision above {} is not modelled", kLargestWidth);
    return {};
  }
  switch (c.conversion) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      const bool is_signed = c.conversion == 'd' || c.conversion == 'i';
      if (is_wide_integer(c.length)) {
        std::uint64_t v = 0;
        if (!args.next(v)) return missing();
        const std::string spec = host_spec(c, "ll");
        return is_signed ? host_format(spec, static_cast<long long>(v))
                         : host_format(spec, static_cast<unsigned long long>(v));
      }
      if (c.length == "L") break;
      std::uint32_t v = 0;
      if (!args.next(v)) return missing();
      const std::string spec = host_spec(c, c.length);  // hh, h: the promoted int, narrowed
      return is_signed ? host_format(spec, static_cast<int>(v)) : host_format(spec, v);
    }
    case 'c': {
      if (!c.length.empty()) break;
      std::int32_t v = 0;
      if (!args.next(v)) return missing();
      return host_format(host_spec(c, ""), v);
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      if (!c.length.empty() && c.length != "l") break;
      double v = 0;
      if (!args.next(v)) return missing();
      return host_format(host_spec(c, ""), v);
    }
    case 's': {
      if (!c.length.empty()) break;
      std::uint64_t address = 0;
      if (!args.next(address)) return missing();
      std::optional<std::string> s =
          address == 0 ? std::optional<std::string>("(null)") : memory.string(address);
      if (!s) {
        error = fmt::format("%s names address 0x{:x}, which holds no string", address);
        return {};
      }
      return host_format(host_spec(c, ""), s->c_str());
    }
    case 'p': {
      std::uint64_t address = 0;
      if (!args.next(address)) return missing();
      // As glibc prints a pointer: its hexadecimal address, or (nil); the width applies.
      const std::string text = address == 0 ? "(nil)" : fmt::format("0x{:x}", address);
      c.conversion = 's';
      c.precision.reset();
      return host_format(host_spec(c, ""), text.c_str());
    }
    default:
      break;
  }
  error = fmt::format("the conversion %{}{} is not modelled", c.length, c.conversion);
  return {};
}

}  // namespace

void sort_printed(std::vector<PrintedLine>& lines) {
  std::stable_sort(lines.begin(), lines.end(), [](const PrintedLine& a, const PrintedLine& b) {
    return std::tie(a.block, a.warp, a.call, a.lane) < std::tie(b.block, b.warp, b.call, b.lane);
  });
}

PrintfResult format_device_printf(std::string_view format, const PrintfMemory& memory) {
  PrintfResult r;
  ArgumentCursor args(memory);
  std::size_t i = 0;
  while (i < format.size()) {
    const std::size_t percent = format.find('%', i);
    r.text += format.substr(i, percent - i);
    if (percent == std::string_view::npos) break;
    if (percent + 1 < format.size() && format[percent + 1] == '%') {
      r.text += '%';
      i = percent + 2;
      continue;
    }
    Conversion c = parse(format, percent + 1);
    if (c.conversion == 0) {  // the format ends inside a conversion: printed as it stands
      r.text += format.substr(percent);
      break;
    }
    r.text += format_one(c, args, memory, r.error);
    if (!r.error.empty()) {
      r.error = fmt::format("printf's '{}': {}", format.substr(percent, c.end - percent), r.error);
      return r;
    }
    i = c.end;
  }
  r.arguments = args.count();
  return r;
}

}  // namespace warpsim::exec

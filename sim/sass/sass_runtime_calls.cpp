// The CUDA runtime's device functions a kernel calls by absolute address (CALL.ABS.NOINC R):
// vprintf, printf's body, and __assertfail, a failed assert's. ptxas passes their arguments in
// registers by the ABI: vprintf(format R4:R5, arguments R6:R7) returns in R4;
// __assertfail(message R4:R5, file R6:R7, line R8, function R10:R11, char size R12:R13).
// Any other absolute call (malloc, free, ...) is a located fault, never guessed.
#include <fmt/format.h>

#include <cstring>

#include "sim/core/exec/device_printf.hpp"
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

// A string longer than this is taken as not terminated.
constexpr std::size_t kLongestString = std::size_t{1} << 16;

Operand reg(std::uint8_t index) {
  Operand r;
  r.kind = OperandKind::Reg;
  r.index = index;
  return r;
}

// Copies `bytes` bytes at generic address `address` as lane `lane` sees it: its own local
// memory (the local window), its block's shared memory (the shared window) or a global buffer.
bool read_generic(const Lanes& x, unsigned lane, std::uint64_t address, void* out,
                  std::size_t bytes) {
  const auto high = static_cast<std::uint32_t>(address >> 32);
  const std::uint64_t low = address & 0xffffffffu;
  if (high == kLocalWindowHigh) {
    if (low + bytes > x.launch.local_bytes) return false;
    std::memcpy(out, x.w.local.data() + std::size_t{lane} * x.launch.local_bytes + low, bytes);
    return true;
  }
  if (high == kSharedWindowHigh) {
    const std::vector<std::uint8_t>& shared = x.block.memory();
    const std::uint64_t window = low & ((std::uint64_t{1} << kSharedRankShift) - 1);
    if (window < kSharedWindowBase || window - kSharedWindowBase + bytes > shared.size())
      return false;
    std::memcpy(out, shared.data() + (window - kSharedWindowBase), bytes);
    return true;
  }
  for (const exec::GlobalBuffer& b : x.launch.global->buffers) {
    if (address >= b.base_address && address + bytes <= b.base_address + b.bytes.size()) {
      std::memcpy(out, b.bytes.data() + (address - b.base_address), bytes);
      return true;
    }
  }
  return false;
}

std::optional<std::string> read_string(const Lanes& x, unsigned lane, std::uint64_t address) {
  std::string s;
  for (char c = 0; s.size() < kLongestString; s += c) {
    if (!read_generic(x, lane, address + s.size(), &c, 1)) return std::nullopt;
    if (c == '\0') return s;
  }
  return std::nullopt;
}

void vprintf(const Lanes& x) {
  x.each([&](unsigned lane) {
    const std::uint64_t format_address = x.raw64(reg(4), lane);
    const std::uint64_t arguments = x.raw64(reg(6), lane);
    if (format_address == 0) return x.set(reg(4), lane, static_cast<std::uint32_t>(-1));
    const std::optional<std::string> format = read_string(x, lane, format_address);
    if (!format) {
      x.fault(lane, fmt::format("printf's format string at 0x{:x} is not in memory (or has no "
                                "end within {} bytes)",
                                format_address, kLongestString));
    }
    exec::PrintfMemory memory;
    memory.argument = [&](std::uint64_t offset, void* out, std::size_t bytes) {
      return read_generic(x, lane, arguments + offset, out, bytes);
    };
    memory.string = [&](std::uint64_t address) { return read_string(x, lane, address); };
    exec::PrintfResult r = exec::format_device_printf(*format, memory);
    if (!r.error.empty()) x.fault(lane, r.error);
    x.stats.printed_bytes += r.text.size();
    if (x.stats.printed_bytes > exec::kPrintfTextLimit) {
      x.fault(lane, fmt::format("printf has written more than {} MiB; warpsim keeps a launch's "
                                "output in memory (the GPU's own printf buffer keeps 1 MiB)",
                                exec::kPrintfTextLimit >> 20));
    }
    x.stats.printed.push_back(
        {x.block.linear, x.w.index, x.w.printf_calls, lane, std::move(r.text)});
    x.set(reg(4), lane, static_cast<std::uint32_t>(r.arguments));
  });
  ++x.w.printf_calls;
}

void assertfail(const Lanes& x) {
  if (x.mask == 0) return;
  const auto lane = static_cast<unsigned>(std::countr_zero(x.mask));
  auto text = [&](std::uint8_t r) {
    return read_string(x, lane, x.raw64(reg(r), lane)).value_or("?");
  };
  // The file and line (R6:R7, R8) are the fault's own location; the function is not.
  x.fault(lane, fmt::format("assertion `{}` failed in {}", text(4), text(10)));
}

}  // namespace

void call_runtime(const Lanes& x) {
  if (x.mask == 0) return;
  const std::uint64_t target = x.raw64(x.op(0), static_cast<unsigned>(std::countr_zero(x.mask)));
  if (target == kVprintfAddress) return vprintf(x);
  if (target == kAssertfailAddress) return assertfail(x);
  x.fault(static_cast<unsigned>(std::countr_zero(x.mask)),
          fmt::format("a call to the absolute address 0x{:x} (a runtime function other than "
                      "printf and assert, such as malloc) is not modelled",
                      target));
}

}  // namespace warpsim::sass

// A kernel's printf, as CUDA's device runtime does it: the compiler packs the arguments into a
// buffer in the thread's local memory, each aligned to its own size (an integer of the default
// length, `%c` and a `*` width 4 bytes; `l`, `ll`, `z`, `j`, `t` integers, every floating value,
// promoted to double, and every pointer 8 bytes) and calls vprintf(format, buffer), which returns
// the number of arguments it read. The host formats the text with the C library, as the CUDA
// driver does when it prints the device's printf buffer.
//
// The GPU prints the lines of one launch in no fixed order. warpsim's order is fixed, so that
// every run and every number of simulation threads prints the same: by block (its linear
// index), then warp, then the warp's calls in the order they executed, then lane.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::exec {

struct PrintedLine {
  std::uint64_t block = 0;  // linear block index
  std::uint32_t warp = 0;
  std::uint32_t call = 0;  // the warp's calls to printf before this one
  std::uint32_t lane = 0;
  std::string text;
};

// Sorts `lines` into the order above.
void sort_printed(std::vector<PrintedLine>& lines);

// Where one call's data lives: `argument` copies `bytes` bytes at `offset` within the argument
// buffer (false when they lie outside the thread's memory); `string` reads the NUL-terminated
// string at a device address (nothing when the address is outside every buffer or the string
// runs past its end).
struct PrintfMemory {
  std::function<bool(std::uint64_t offset, void* out, std::size_t bytes)> argument;
  std::function<std::optional<std::string>(std::uint64_t address)> string;
};

struct PrintfResult {
  std::string text;
  std::int32_t arguments = 0;  // vprintf's return value
  std::string error;           // non-empty: the call cannot be formatted (why)
};

// Formats one thread's call.
PrintfResult format_device_printf(std::string_view format, const PrintfMemory& memory);

// Text kept for one launch's printf before it stops with an error: far beyond the GPU's own
// 1 MiB printf buffer (cudaLimitPrintfFifoSize), a guard against a kernel that prints without
// end filling the host's memory.
inline constexpr std::size_t kPrintfTextLimit = std::size_t{64} << 20;

}  // namespace warpsim::exec

// Launch buffers read from files: `file("x.npy")` (NumPy's format, version 1-3, C order, a
// little-endian dtype equal to the buffer's element type as memory holds it: '<f2' for f16) or
// `file("x.bin")` (any other name: raw little-endian elements). The file must hold exactly the
// buffer's element count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ir/types.hpp"

namespace warpsim::ir {

// Where the elements start in the file and how many bytes they take, after checking the
// header (for .npy) and the size; or why the file does not fit the buffer.
struct BufferFileLayout {
  std::uint64_t data_offset = 0;
  std::uint64_t data_bytes = 0;
};
struct BufferFileCheck {
  std::optional<BufferFileLayout> layout;
  std::string error;  // set when layout is not
};
BufferFileCheck check_buffer_file(const std::string& path, BufferType type, std::uint64_t count);

// The elements' bytes; throws std::runtime_error naming the file when it cannot be read or
// no longer fits (it was checked when the launch was verified).
std::vector<std::uint8_t> read_buffer_file(const std::string& path, BufferType type,
                                           std::uint64_t count);

}  // namespace warpsim::ir

// Structs passed by value. A kernel `scale2d(float* img, Dims d)` gets `.param .align 4 .b8
// d[12]` in PTX, and reads the fields with ld.param at byte offsets ([d], [d+4], [d+8]). The
// importer makes each field the kernel reads an IR parameter of its own, named after the struct
// parameter and the field's offset (d_0, d_4, d_8), and records where every parameter lies in
// the entry's parameter buffer, so that the SASS frontend and the GPU run pass the struct's
// bytes as nvcc laid them out.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/import/ptx_syntax.hpp"

namespace warpsim::ptx {

// What a parameter read goes by: "d" for [d], "d+8" for [d+8].
std::string param_key(const std::string& param, std::int64_t offset);

// One field of a struct parameter, as the kernel reads it.
struct FieldRead {
  std::uint32_t offset = 0;  // bytes from the struct's start
  std::uint32_t bytes = 0;
  std::string type;  // the PTX type of the read (".u32", ".f32", ".u8", ...)
};

// The fields of struct parameter `param` that `entry` reads, by offset; or why it cannot be
// imported (two reads overlap, a read leaves the struct, or its address is taken).
std::variant<std::vector<FieldRead>, std::string> aggregate_fields(const Entry& entry,
                                                                   const Param& param);

// Where each PTX parameter of `entry` begins in its parameter buffer (each aligned to its
// .align, else to its size), and the buffer's size.
std::pair<std::vector<std::uint32_t>, std::uint32_t> ptx_param_layout(const Entry& entry);

// Bytes of one element of a PTX type: 1 for .u8/.s8/.b8, 2 for 16-bit, 4, 8 (0 if unknown).
std::uint32_t ptx_type_bytes(std::string_view type);

}  // namespace warpsim::ptx

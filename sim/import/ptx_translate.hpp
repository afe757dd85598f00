// PTX kernels into the IR. Each PTX instruction becomes the IR instructions with its exact
// semantics (a 32x32->64 multiply is a widening and a 64-bit multiply; a guarded store is a
// branch around the store); memory is accessed by byte address, as PTX does it. Every IR
// instruction carries its CUDA line and PTX line. A PTX form the IR cannot express exactly is
// an error naming it, never an approximation.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ir/module.hpp"
#include "sim/import/ptx_syntax.hpp"

namespace warpsim::ptx {

// A kernel parameter as the IR declares it (its name, pointer-ness and type), in PTX order: one
// per PTX parameter, except that a struct passed by value gives one per field the kernel reads
// (aggregate_params.hpp).
struct ParamSpec {
  std::string name;
  bool is_pointer = false;
  ir::ScalarType type = ir::ScalarType::U32;  // a pointer's element type
  std::string key;          // what the PTX reads it by: "n" for [n], "d+8" for a field (param_key)
  ir::ParamPlace place;     // where it lies in the entry's parameter buffer
  std::string unsupported;  // why its PTX parameter cannot be imported, if it cannot
};

struct TranslateError {
  std::uint32_t line = 0;  // in the PTX text
  std::uint32_t column = 0;
  Origin origin;  // the CUDA line of the instruction, when known
  std::string message;
};

struct TranslateInput {
  const Module* module = nullptr;
  const Entry* entry = nullptr;
  std::vector<ParamSpec> params;                 // see ParamSpec
  std::map<std::uint32_t, std::uint32_t> files;  // PTX .file number -> IR source file number
  std::string kernel_name;                       // the IR kernel's name
};

std::variant<ir::Kernel, TranslateError> translate_entry(const TranslateInput& input);

// The IR type a PTX type suffix names (".s32" -> s32, ".b32" -> u32, ".pred" -> pred), or
// nothing for the types the IR does not have (8- and 16-bit integers, halves).
std::optional<ir::ScalarType> ir_type_of(std::string_view ptx_type);

}  // namespace warpsim::ptx

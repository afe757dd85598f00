// What a PTX kernel's parameters are in CUDA terms. PTX keeps only widths (.u64, .u32); the
// mangled C++ name keeps the types (_Z6vecAddPKfS0_Pfi is vecAdd(float const*, float const*,
// float*, int)), and the CUDA source keeps the names. Where neither is available (an extern "C"
// kernel, PTX without its source), a .u64 parameter that the code uses as an address is a
// pointer whose element type is that of its first access.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/import/ptx_syntax.hpp"
#include "sim/import/ptx_translate.hpp"

namespace warpsim::ptx {

// The C++ name of a mangled symbol (itanium ABI), or nothing when it is not mangled.
std::optional<std::string> demangle(std::string_view mangled);

// "smem_transpose<0>" for _Z14smem_transposeILi0EEvPfPKfi: the demangled name without its
// parameter list (the PTX name itself when it is not mangled).
std::string kernel_display_name(std::string_view ptx_name);

// Whether a C++ kernel name as a user writes it names the demangled one: spaces aside, and an
// integer template argument's suffix aside ("reduce6<256>" names "reduce6<256u>").
bool same_cpp_name(std::string_view written, std::string_view demangled);

// The name of a function-local static (`tile` for _ZZ14smem_transposeILi0EEvPfPKfiE4tile).
std::optional<std::string> local_name(std::string_view mangled);

// The parameter declarations of a C++ function as demangled: "float const*", "int", ...
std::vector<std::string> demangled_parameter_types(std::string_view demangled);

// The parameter names of the kernel whose definition starts at or after `line` of `source`
// (the text of a .cu file): the last identifier of each declaration in its parameter list.
// Nothing when the list cannot be found or its length is not `count`.
std::optional<std::vector<std::string>> source_parameter_names(std::string_view source,
                                                               std::uint32_t line,
                                                               std::string_view kernel,
                                                               std::size_t count);

// The IR parameters of `entry`: names from `names` (or p0, p1, ...), types from the mangled
// name and, where that says nothing, from how the code uses them.
std::vector<ParamSpec> parameter_specs(const Entry& entry,
                                       const std::optional<std::vector<std::string>>& names);

}  // namespace warpsim::ptx

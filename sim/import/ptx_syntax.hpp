// PTX as the importer reads it: a module's kernels (.entry), each with its parameters,
// register and array declarations and a flat list of labels and instructions, every one with
// its PTX line and the CUDA source line (from .loc) it came from. Plain data; ptx_reader.hpp
// builds it from text, ptx_translate.hpp turns it into the IR.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace warpsim::ptx {

// The CUDA source position of an instruction: a .file index and a line (0 when unknown).
struct Origin {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
};

struct Register {
  std::string name;  // with the leading '%'
};
struct Immediate {
  // An integer as written (its bits, with a sign), or a float's exact bits: 0f3F800000 is
  // f32 1.0, 0d3FF0000000000000 f64 1.0.
  enum class Kind : std::uint8_t { Int, F32Bits, F64Bits, Float } kind = Kind::Int;
  std::uint64_t bits = 0;
  bool negative = false;  // Int: the magnitude in bits, negated
  double value = 0.0;     // Float: a decimal literal such as 1.5
};
struct Symbol {
  std::string name;  // a parameter, an array, a label or a special register's base
};
// [base], [base+N], [base-N] or [N]
struct Address {
  std::optional<std::variant<Register, Symbol>> base;
  std::int64_t displacement = 0;
};
// {%a, %b, ...}, or with constants among the registers: CUDA's bfloat16 headers join a half
// and a zero with `mov.b32 f, {0, h};`.
struct VectorOperand {
  std::vector<Register> elements;  // "_" sink elements are kept as the name "_"
  // Where an element is a constant: its value here, and its text as the element's name (so
  // that a use that does not read constants names it in its error). Empty when none is.
  std::vector<std::optional<Immediate>> constants;
};
// %d|%p: a result with a second, predicate result.
struct PairOperand {
  Register first;
  Register second;
};

using Operand = std::variant<Register, Immediate, Symbol, Address, VectorOperand, PairOperand>;

struct Instruction {
  std::string opcode;             // "ld.global.nc.f32", all modifiers kept
  std::optional<Register> guard;  // @%p or @!%p
  bool guard_negated = false;
  std::vector<Operand> operands;  // destination first, as PTX writes it
  std::uint32_t line = 0;         // in the PTX text
  std::uint32_t column = 0;
  Origin origin;
};

struct Label {
  std::string name;
  std::uint32_t line = 0;
  bool no_unroll = false;  // `.pragma "nounroll";` follows it (CUDA's #pragma unroll 1)
};

using Statement = std::variant<Instruction, Label>;

struct RegisterDecl {
  std::string type;     // ".b32", ".f32", ".pred", ...
  std::string name;     // "%r" for %r<6>, or the full name
  std::uint32_t count;  // 6 for %r<6> (registers %r0..%r5); 0 for a single register
};

// A .shared, .local, .const or .global variable: `.shared .align 4 .b8 name[4096];`
struct VariableDecl {
  std::string space;  // ".shared", ".local", ".const", ".global"
  std::string type;   // ".b8", ".f32", ...
  std::string name;
  std::uint64_t align = 0;
  std::uint64_t elements = 1;  // 0 for `extern .shared ... name[]` (dynamic shared memory)
  bool is_extern = false;
  bool has_initializer = false;
  std::vector<std::uint64_t> initializer;  // integer elements; floats as their bits
  std::uint32_t line = 0;
};

struct Param {
  std::string type;  // ".u64", ".u32", ".f32", ...
  std::string name;
  bool is_array = false;       // .param .align 8 .b8 name[16]: a struct passed by value
  std::uint64_t elements = 1;  // 16 above
  std::uint64_t align = 0;     // 8 above; 0 when not given (the type's size)
  std::uint32_t line = 0;
};

// A kernel directive the IR does not model (.reqntid, .explicitcluster, ...), refused when
// that kernel is imported.
struct Directive {
  std::string text;
  std::uint32_t line = 0, column = 0;
};

struct Entry {
  std::string name;  // as PTX spells it (a C++ name is mangled)
  std::vector<Param> params;
  std::vector<RegisterDecl> registers;
  std::vector<VariableDecl> variables;  // declared inside the kernel
  std::vector<Statement> body;
  // The parameters of the call sequences in its body (`{ .param .b64 param0; st.param.b64
  // [param0+0], %rd1; call.uni (retval0), f, (param0); ... }`): the arguments a call passes
  // and the values it returns, which the inliner turns into registers.
  std::vector<Param> call_params;
  // The performance directives (__maxnreg__, __launch_bounds__): .maxnreg, .maxntid's
  // thread count, .minnctapersm.
  std::optional<std::uint32_t> maxnreg, maxntid, minnctapersm;
  std::vector<Directive> unsupported_directives;
  // Why its body could not be read (text) and where: the kernel is then refused by the
  // translator alone, and the SASS frontend, which runs ptxas's code of it, still runs it.
  std::optional<Directive> unreadable;
  std::optional<std::array<std::uint32_t, 3>> reqnctapercluster;  // __cluster_dims__
  std::uint32_t line = 0;
  Origin origin;  // the .loc before the body's first instruction: the kernel's own line
};

// A `.func` definition: a device function nvcc did not inline (__noinline__, or libdevice's slow
// paths such as the argument reduction of double sin and cos). `definition` holds its name,
// parameters and body as an entry's; a call is replaced by that body (ptx_inline.hpp).
struct Function {
  Entry definition;
  std::vector<Param> returns;  // `func_retval0`
  bool has_body = false;       // false: declared only (.extern), or its body could not be read
  std::string unreadable;      // why its body could not be read, when it could not
};

struct Module {
  std::string target;                                        // "sm_90"
  std::vector<std::pair<std::uint32_t, std::string>> files;  // .file N "path"
  std::vector<VariableDecl> variables;                       // module scope
  std::vector<Entry> entries;
  std::vector<Function> functions;  // .func definitions, for calls to inline
};

// A located problem with the PTX text.
struct ReadError {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
};

}  // namespace warpsim::ptx

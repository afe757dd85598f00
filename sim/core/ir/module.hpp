// The in-memory form of a .kir file: kernels, their declarations and basic blocks, module
// constants and launch blocks. Plain data; parser.hpp builds it, verifier.hpp checks it,
// printer.hpp writes it back.
//
// Equality compares meaning, not position: SourceLoc always compares equal, so a module parsed
// from printed text equals the module it was printed from (the round-trip property).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ir/opcodes.hpp"
#include "sim/core/ir/types.hpp"

namespace warpsim::ir {

struct SourceLoc {
  std::uint32_t line = 0;  // 1-based; 0 when the node was not read from text
  std::uint32_t column = 0;
  friend bool operator==(SourceLoc, SourceLoc) { return true; }
};

// An integer literal as written: its magnitude and sign, so "-1" and "4294967295" stay distinct
// until an instruction type gives them a width.
struct IntLiteral {
  std::uint64_t magnitude = 0;
  bool negative = false;
  bool operator==(const IntLiteral&) const = default;
};
struct FloatLiteral {
  double value = 0.0;
  // Bitwise, so that NaN literals round-trip and equal themselves.
  bool operator==(const FloatLiteral& other) const;
};
using Literal = std::variant<IntLiteral, FloatLiteral>;

struct RegRef {
  std::string name;  // without the leading '%'
  bool operator==(const RegRef&) const = default;
};
struct ParamRef {
  std::string name;
  bool operator==(const ParamRef&) const = default;
};
struct LabelRef {
  std::string name;
  bool operator==(const LabelRef&) const = default;
};

using Value = std::variant<RegRef, SpecialReg, ParamRef, IntLiteral, FloatLiteral>;
struct ValueOperand {
  Value value;
  SourceLoc loc;
  bool operator==(const ValueOperand&) const = default;
};

// array[i][j]..., or array@rank[i] for another block's shared memory in the cluster (dsmem);
// or, as PTX addresses memory, [base+displacement] with a byte address: `array` is then empty
// and indices[0] is the base (a register, a pointer parameter, an array's name or a literal).
struct MemRef {
  std::string array;
  std::optional<ValueOperand> rank;
  std::vector<ValueOperand> indices;
  std::int64_t displacement = 0;  // bytes added to an address base
  bool is_address() const { return array.empty(); }
  bool operator==(const MemRef&) const = default;
};

// {%a, %b, %c, %d}: the values of a vector store.
struct RegList {
  std::vector<ValueOperand> elements;
  bool operator==(const RegList&) const = default;
};

struct Operand {
  std::variant<ValueOperand, MemRef, LabelRef, RegList> kind;
  SourceLoc loc;
  bool operator==(const Operand&) const = default;
};

struct RegDef {
  std::string name;  // without the leading '%'
  SourceLoc loc;
  bool operator==(const RegDef&) const = default;
};

// Where an instruction came from when the module was imported from CUDA: the source file (an
// index into Module::source_files, from 1), its line, and the line of the PTX it was translated
// from. All zero for an instruction written in the IR itself.
struct SourceOrigin {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
  std::uint32_t ptx_line = 0;
  bool known() const { return file != 0; }
  bool operator==(const SourceOrigin&) const = default;
};

struct Instruction {
  Opcode opcode = Opcode::Ret;
  ScalarType type = ScalarType::Pred;         // cvt: the destination type
  ScalarType source_type = ScalarType::Pred;  // cvt only
  Space space = Space::Global;                // ld, st, atom
  std::uint8_t vector_width = 1;              // ld, st: 1, 2 or 4
  // ld, st: 1 or 2 for an 8- or 16-bit access (spelled u8, s8, u16, s16) of a 32-bit integer
  // register: loads zero- or sign-extend by the type's signedness, stores write the low bytes;
  // 0 for an access of the type's own size.
  std::uint8_t narrow_bytes = 0;
  AtomicOp atomic_op = AtomicOp::Add;  // atom
  ShuffleMode shuffle_mode = ShuffleMode::Idx;
  VoteMode vote_mode = VoteMode::Ballot;
  Rounding rounding = Rounding::Nearest;  // float add, sub, mul, fma; cvt to a half
  // cvt: the side that is a 16-bit float (cvt.f32.f16: the source; cvt.rn.bf16.f32: the
  // destination) is a u32 register holding the value's bits low, and its type field says U32.
  HalfFormat half = HalfFormat::None;
  std::vector<RegDef> dests;
  std::vector<Operand> operands;
  SourceOrigin origin;
  SourceLoc loc;
  bool operator==(const Instruction&) const = default;
};

struct BasicBlock {
  std::string label;
  std::vector<Instruction> instructions;
  SourceLoc loc;
  // `nounroll` (CUDA's `#pragma unroll 1`): a loop whose header this is stays rolled, in the
  // timing model's unroller and in ptxas (lowered to `.pragma "nounroll"`).
  bool no_unroll = false;
  bool operator==(const BasicBlock&) const = default;
};

struct KernelParam {
  std::string name;
  ScalarType type = ScalarType::S32;  // for a pointer: the element type
  bool is_pointer = false;            // pointers always point into global memory
  SourceLoc loc;
  bool operator==(const KernelParam&) const = default;
};

// Where an imported kernel's parameter lies in its PTX entry's parameter buffer: bytes from the
// buffer's start, and how many.
struct ParamPlace {
  std::uint32_t offset = 0;
  std::uint32_t bytes = 0;
  bool operator==(const ParamPlace&) const = default;
};

// An imported entry's parameter buffer, where it passes a struct by value: where each IR
// parameter lies (one field of the struct, or one whole PTX parameter), where each PTX
// parameter starts, and the buffer's size. Empty otherwise: each IR parameter is a PTX
// parameter of its own, aligned to its size, in order.
struct PtxParams {
  std::vector<ParamPlace> places;     // by IR parameter
  std::vector<std::uint32_t> starts;  // by PTX parameter
  std::uint32_t bytes = 0;
  bool empty() const { return places.empty() && starts.empty(); }
  bool operator==(const PtxParams&) const = default;
};

// A shared, local or constant array. Shapes are row-major: the last index varies fastest.
struct ArrayDecl {
  std::string name;
  Space space = Space::Shared;
  ScalarType element = ScalarType::F32;
  std::vector<std::uint64_t> dims;  // empty when dynamic
  bool is_dynamic = false;          // `shared x: f32[]`, sized by the launch's dynamic_smem
  std::vector<Literal> init;        // module constants and globals only; missing elements are zero
  // A shared array's byte alignment (`shared x: u32[2] align 4`, as nvcc's PTX declares it, so
  // that arrays lie and add up as ptxas lays them out); 0: kDefaultArrayAlignment.
  std::uint32_t align = 0;
  SourceLoc loc;
  // An imported module variable whose PTX name is no IR word (nvcc's string constants, "$str"):
  // that name, by which the GPU's module knows it; empty otherwise (the printed IR has none).
  std::string ptx_name;
  // A constant or global a launch file gave its value (as a host's cudaMemcpyToSymbol): the
  // GPU's module is given it too.
  bool filled_by_launch = false;
  bool operator==(const ArrayDecl&) const = default;
};

struct Dim3 {
  std::uint64_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

struct Kernel {
  std::string name;
  std::vector<KernelParam> params;
  std::vector<ArrayDecl> arrays;      // shared and local
  std::optional<std::uint32_t> regs;  // registers per thread, as the compiler would report
  bool regs_from_ptxas = false;       // regs is what ptxas allocated (not a regs(N) annotation)
  // CUDA's __maxnreg__(N): ptxas allocates at most N registers a thread (PTX .maxnreg).
  std::optional<std::uint32_t> max_regs;
  // CUDA's __launch_bounds__(T, B): a launch has at most T threads a block (PTX .maxntid),
  // and ptxas keeps registers low enough for B blocks an SM (PTX .minnctapersm; 0: not given).
  struct LaunchBounds {
    std::uint32_t max_threads = 0;
    std::uint32_t min_blocks = 0;
    bool operator==(const LaunchBounds&) const = default;
  };
  std::optional<LaunchBounds> launch_bounds;
  // CUDA's __cluster_dims__(x, y, z): every launch uses this cluster shape (PTX
  // .reqnctapercluster, with .explicitcluster).
  std::optional<Dim3> cluster_dims;
  std::vector<BasicBlock> blocks;  // blocks[0] is the entry
  SourceLoc loc;
  // Imported: the entry's name in the PTX it came from (a C++ kernel's mangled name), as the
  // loader records it (cli::load_input; the IR text does not carry it).
  std::string ptx_name;
  // Imported from an entry that passes a struct by value: its parameter buffer's layout.
  // Recorded like ptx_name (the IR text does not carry it).
  PtxParams ptx_params;
  // Imported for the SASS frontend only: why the IR holds no body for it (a PTX form the IR
  // does not import), its parameters and arrays kept for the launch. Recorded like ptx_name.
  std::string sass_only;
  bool operator==(const Kernel&) const = default;
};

// Permutation: 0 .. count-1 shuffled by the seed; Sorted: Random's values in ascending order;
// File: the elements of a .npy or raw file (sim/core/ir/buffer_file.hpp).
// Uninitialised: as cudaMalloc leaves memory (warpsim fills it with zeros, so results stay
// deterministic; `check init` reports reads of it that nothing in the launch wrote before).
// Result: the bytes an earlier launch block of the module left in one of its buffers (a launch
// sequence: a scan's block sums, a CSR matrix's row pointers), found by running that launch.
enum class BufferInit : std::uint8_t {
  Zero,
  Iota,
  Constant,
  Random,
  Permutation,
  Sorted,
  File,
  Uninitialised,
  Result
};

struct BufferSpec {
  ScalarType element = ScalarType::F32;
  Storage storage = Storage::Natural;  // how memory holds each element (types.hpp)
  std::uint64_t count = 0;
  BufferInit init = BufferInit::Zero;
  Literal value;           // Constant: the value of every element
  std::uint64_t seed = 0;  // Random
  // Random, Sorted: the half-open range [min, max); a bound left out is the default's
  // (random_range below).
  std::optional<Literal> min;
  std::optional<Literal> max;
  std::string file;            // File: its path (a relative one resolved against the launch's file)
  std::string launch, buffer;  // Result: the earlier launch block and its buffer
  // Result: those bytes, once the launch has run (cli::resolve_launch runs it).
  std::shared_ptr<const std::vector<std::uint8_t>> bytes;
  BufferType type() const { return {element, storage}; }
  bool operator==(const BufferSpec&) const = default;
};

// Enough for any 128-bit access: where an array's alignment is not given.
inline constexpr std::uint64_t kDefaultArrayAlignment = 16;
inline std::uint64_t alignment(const ArrayDecl& a) {
  return a.align != 0 ? a.align : kDefaultArrayAlignment;
}
// The largest alignment a shared array may declare.
inline constexpr std::uint32_t kMaxArrayAlignment = 1024;

// A random buffer's range with the defaults filled in: [0, 1) for floats, [0, 100) for integers.
std::pair<Literal, Literal> random_range(const BufferSpec& spec);

struct LaunchArg {
  std::string name;
  std::variant<Literal, BufferSpec> value;
  SourceLoc loc;
  bool operator==(const LaunchArg&) const = default;
};

struct Launch {
  std::string kernel;
  std::string name;  // defaults to the kernel's name
  Dim3 grid, block, cluster;
  std::uint64_t dynamic_smem = 0;
  std::vector<LaunchArg> args;
  SourceLoc loc;
  bool operator==(const Launch&) const = default;
};

struct Module {
  std::vector<std::string> source_files;  // `source N "path"`: file N is source_files[N - 1]
  std::vector<ArrayDecl> constants;
  // `global name: T[n] = {...}`: module-scope variables in global memory (CUDA's __device__
  // variables, and the tables nvcc's math functions read). Every launch starts with them as
  // initialised, as a freshly loaded module holds them, and reports them as it reports buffers.
  std::vector<ArrayDecl> globals;
  std::vector<Kernel> kernels;
  std::vector<Launch> launches;
  // Imported from PTX: that PTX, as nvcc wrote it (the SASS frontend compiles it, so a .cu runs
  // as nvcc builds it), as the loader records it; empty for a module read from the IR.
  std::string imported_ptx;
  bool operator==(const Module&) const = default;

  const Kernel* find_kernel(std::string_view name) const;
  const ArrayDecl* find_constant(std::string_view name) const;
  const ArrayDecl* find_global(std::string_view name) const;
  // "file.cu:12" for an imported instruction, "" when it has no origin.
  std::string origin_text(const SourceOrigin& origin) const;
};

}  // namespace warpsim::ir

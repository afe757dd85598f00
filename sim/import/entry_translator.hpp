// The translation of one PTX kernel into IR blocks (ptx_translate.hpp's implementation). The
// instruction families live in translate_*.cpp; this class holds what they share: the
// registers' storage types, the IR blocks being built, operand conversion and the errors.
#pragma once

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sim/import/ptx_import.hpp"
#include "sim/import/ptx_translate.hpp"

namespace warpsim::ptx {

// Thrown while translating one instruction; translate_entry locates it.
struct Unsupported {
  std::string message;
  std::uint32_t line = 0;  // the PTX line, where it is not the current instruction's
  std::uint32_t column = 0;
};

// An instruction's opcode split at its dots: "ld.global.nc.f32" -> base "ld", modifiers
// {"global", "nc", "f32"}.
struct OpcodeParts {
  std::string base;
  std::vector<std::string> mods;
  bool has(std::string_view m) const;
  // The last modifier as an IR type; throws Unsupported for a type the IR lacks. An 8- or
  // 16-bit integer type is its 32-bit IR type (narrow() says how narrow).
  ir::ScalarType type() const;
  // 8 or 16 for the 8- and 16-bit integer types (.u16, .s8, .b16, ...), 0 otherwise.
  unsigned narrow() const;
};

// Refuses (throws Unsupported) a modifier of `parts` outside `allowed`, the last
// `type_suffixes` modifiers (the types) aside: those that would change what the IR computes.
void refuse_modifiers(const OpcodeParts& parts, std::initializer_list<std::string_view> allowed,
                      std::size_t type_suffixes = 1);

// The width of an 8- or 16-bit integer type name ("u16" -> 16), 0 for any other; `is_signed`
// says whether it is an .s type.
unsigned narrow_width(std::string_view type, bool* is_signed = nullptr);

// Where an instruction writes: the IR register to name as its destination, and, when the PTX
// register holds another type of the same width, the register the bits are cast into after.
struct Dest {
  std::string name;
  std::string cast_into;  // empty: written directly
  ir::ScalarType written = ir::ScalarType::U32;
  ir::ScalarType storage = ir::ScalarType::U32;
  bool widen = false;  // cast_into is wider: extended (cvt), not the same bits (bitcast)
};

class EntryTranslator {
 public:
  explicit EntryTranslator(const TranslateInput& input);
  ir::Kernel run();  // throws Unsupported (with current_ set) for a form it cannot translate

  const Instruction* current() const { return current_; }

 private:
  // Setup (translate_entry.cpp).
  void declare_params();
  void declare_registers();
  void declare_arrays();
  void scan_definitions();

  // Blocks and emission.
  void start_block(const std::string& label);
  ir::Instruction& emit(ir::Instruction inst);
  ir::Instruction& emit(ir::Opcode op, ir::ScalarType type, std::vector<std::string> dests,
                        std::vector<ir::Operand> operands);
  std::string fresh_label();
  std::string fresh_temp();
  std::string label_name(const std::string& ptx_label);
  bool terminated() const;

  // Operands.
  ir::ValueOperand value(const Operand& op, ir::ScalarType want);
  ir::ValueOperand literal(const Immediate& imm, ir::ScalarType want);
  ir::ValueOperand nan_literal(std::uint64_t bits, ir::ScalarType want);
  Dest dest(const Operand& op, ir::ScalarType written);
  void finish(const Dest& d);
  // The IR register a 32-bit integer load into the 64-bit register `target` extends into, or
  // empty where the load writes its register at its own width.
  std::string widening_target(const Operand& target, ir::ScalarType loaded);
  ir::ScalarType storage_of(const Register& r);
  std::string ir_register(const std::string& ptx_name) const;
  std::optional<std::uint64_t> known_constant(const Operand& op) const;
  bool is_read(const Register& r) const;
  ir::MemRef address(const Operand& op, ir::Space space);
  const Operand& operand(std::size_t i) const;
  void expect_operands(std::size_t n) const;

  // Instruction families.
  void translate(const Instruction& inst);
  void translate_guarded(const Instruction& inst);
  bool control(const OpcodeParts& op);        // translate_control.cpp
  bool arithmetic(const OpcodeParts& op);     // translate_arith.cpp
  bool carry_chain(const OpcodeParts& op);    // add.cc, addc, madc, ... (translate_carry.cpp)
  bool compare(const OpcodeParts& op);        // translate_arith.cpp
  bool conversion(const OpcodeParts& op);     // translate_arith.cpp
  bool memory(const OpcodeParts& op);         // translate_memory.cpp
  void async_copy(const OpcodeParts& op);     // cp.async, translate_memory.cpp
  void param_read(const OpcodeParts& parts);  // ld.param (translate_memory.cpp)
  void param_value(const OpcodeParts& parts, const Symbol& field, const Operand& into);
  bool warp_wide(const OpcodeParts& op);  // translate_control.cpp
  // The member mask of a shfl.sync or vote.sync: nothing for the whole warp (the IR's plain
  // shfl and vote, over the active lanes), else its value (the IR's shfl.sync and vote.sync).
  std::optional<ir::ValueOperand> member_mask(std::size_t operand_index);
  ir::ValueOperand members_or_active(std::size_t operand_index);
  ir::Instruction& emit_shuffle(ir::ScalarType t, const std::string& dest,
                                const ir::ValueOperand& value, const ir::ValueOperand& lane,
                                const std::optional<ir::ValueOperand>& members);
  void segmented_shuffle(ir::ShuffleMode mode, std::uint64_t c, const Register& result,
                         const Register* in_range, const std::optional<ir::ValueOperand>& members);
  void binary(ir::Opcode op, ir::ScalarType t);
  void unary(ir::Opcode op, ir::ScalarType t);
  void widening(const OpcodeParts& op, bool add);
  void multiply_high(const OpcodeParts& parts);
  static ir::Rounding float_rounding(const OpcodeParts& parts);
  void rounded_binary(ir::Opcode code, const OpcodeParts& parts);
  bool flushed_exp2(const OpcodeParts& parts);  // ex2.approx.ftz (translate_flush.cpp)
  bool flushed_log2(const OpcodeParts& parts);  // lg2.approx.ftz (translate_flush.cpp)
  // rsqrt.approx.ftz.f32 and sqrt.approx.ftz.f32 (same file), `function` the IR's form
  bool flushed_unit_function(const OpcodeParts& parts, ir::Opcode function);
  bool flushed_divide(const OpcodeParts& parts);  // div.approx.ftz.f32 (same)
  std::string flushed(const ir::ValueOperand& x, std::string out = {});  // a subnormal as 0
  bool multiply(const OpcodeParts& parts);                               // mul
  bool multiply_add(const OpcodeParts& parts);                           // mad, fma
  bool warp_reduction(const OpcodeParts& parts);     // redux.sync (translate_control.cpp)
  bool match_all(const OpcodeParts& parts);          // match.all.sync
  bool barrier_reduction(const OpcodeParts& parts);  // bar.red (translate_control.cpp)
  ir::ValueOperand stored_value(const Operand& source, ir::ScalarType t);
  void funnel_shift(const OpcodeParts& parts);
  void load(const OpcodeParts& op, ir::Space space);
  void store(const OpcodeParts& op, ir::Space space);
  void atomic(const OpcodeParts& op, bool returns);
  std::string predicate_result(ir::Opcode cmp, ir::ScalarType t, const ir::ValueOperand& a,
                               const ir::ValueOperand& b);
  std::string float_compare(const std::string& cmp, ir::ScalarType t, const ir::ValueOperand& a,
                            const ir::ValueOperand& b);

  const TranslateInput& in_;
  const Entry& entry_;
  ir::Kernel kernel_;
  const Instruction* current_ = nullptr;
  std::map<std::string, ir::ScalarType> storage_;   // PTX register -> its IR type
  std::map<std::string, std::string> odd_storage_;  // PTX register -> a type the IR lacks
  std::map<std::string, std::string> labels_;       // PTX label -> IR label
  std::set<std::string> used_labels_;
  std::map<std::string, std::uint32_t> definitions_;  // PTX register -> instructions writing it
  std::map<std::string, std::uint64_t> constants_;  // registers written once, by a mov of a literal
  std::set<std::string> reads_;                     // registers some instruction reads
  std::map<std::string, std::string> symbols_;      // PTX param/array -> IR name
  // 16-bit registers (.b16, .u16, .s16) hold their value zero-extended in a 32-bit IR register;
  // an instruction of an 8- or 16-bit type reads them sign-extended where it is signed, and
  // masks what it writes back to its width. narrow_ is the current instruction's width.
  unsigned narrow_ = 0;
  std::string current_base_;
  std::set<std::string> narrow_regs_;  // the 16-bit registers
  // What a 64-bit register used as a generic address points into, from the instructions that
  // make it: a global pointer (a pointer parameter, cvta.global), this block's shared memory
  // (cvta.shared: the register holds the offset) or a cluster address (mapa). Registers made
  // two ways are Mixed, and a generic access through one is refused.
  enum class Pointee : std::uint8_t { Global, Shared, Cluster, Mixed };
  std::map<std::string, Pointee> pointee_;
  std::set<std::string> pointer_params_;  // PTX names of the pointer parameters
  std::set<std::string> module_globals_;  // PTX names of the module's .global variables
  void classify_pointers();
  ir::Space generic_space(const Operand& address) const;
  bool cluster_instruction(const OpcodeParts& op);  // translate_cluster.cpp
  static std::string register_name(const Operand& op) {
    const auto* r = std::get_if<Register>(&op);
    return r == nullptr ? "" : r->name;
  }
  bool narrow_signed_ = false;
  ir::ValueOperand extend(const ir::ValueOperand& v, unsigned bits, bool is_signed);
  ir::ValueOperand lane_mask(const std::string& name, ir::ScalarType want);
  void mask_into(const std::string& reg, unsigned bits);
  bool narrow_conversion(const std::string& dname, const std::string& sname);
  // cvt between f16/bf16 (a 16-bit register, held as a u32) and f32/f64.
  bool half_conversion(const OpcodeParts& parts);
  bool half_integer_conversion(const OpcodeParts& parts);
  std::string widen_to_odd(const ir::ValueOperand& v, bool is_signed);
  // add, sub, mul, fma, neg, abs, min, max on .f16, .bf16 and their pairs (translate_half.cpp).
  bool half_arithmetic(const OpcodeParts& parts);
  // set.CMP.dtype.f16 (and .bf16, .f16x2, .bf16x2): each half compared, true as the type's one
  // or all ones (translate_half.cpp).
  bool half_set(const OpcodeParts& parts);
  // Half `half` (0 the low) of `word` in `format`, widened to f64 (exactly): the temporary.
  std::string half_to_f64(const ir::ValueOperand& word, unsigned half, ir::HalfFormat format);
  // Operand 0 written with the 16-bit result in results[0], or with the pair (results[1] high).
  void write_halves(const std::string (&results)[2], bool pair);
  bool pack_or_unpack_16(const VectorOperand& halves, bool unpack);
  bool pack_or_unpack(const OpcodeParts& parts);           // mov.b64 with {lo, hi}
  bool bit_operation(const OpcodeParts& parts);            // translate_bits.cpp, as the next
  void find_leading_bit(const OpcodeParts& parts);         // bfind
  void permute_bytes(const OpcodeParts& parts);            // prmt
  void absolute_difference_sum(const OpcodeParts& parts);  // sad
  void permute_bytes_at_run_time();                        // prmt with a register selector
  void copy_sign(const OpcodeParts& parts);
  void extract_bit_field(const OpcodeParts& parts);  // bfe
  void insert_bit_field(const OpcodeParts& parts);   // bfi
  void bit_mask(const OpcodeParts& parts);           // bmsk
  void three_input_logic(const OpcodeParts& parts);  // lop3 (translate_logic.cpp, as the next)
  void dot_product(const OpcodeParts& parts, bool four_bytes);  // dp4a, dp2a
  ir::ValueOperand packed_field(const ir::ValueOperand& word, unsigned bits, unsigned index,
                                bool is_signed);
  // x (f32 or f64) rounded to an integral value by `mode` (rni, rmi, rpi, rzi); the temporary
  // holding it (translate_rounding.cpp).
  std::string round_to_integral(const ir::ValueOperand& x, ir::ScalarType t,
                                const std::string& mode);
  // Multiplies ptxas fuses into the adds they feed (translate_contract.cpp): found once per
  // kernel; such a multiply emits nothing, and each add it feeds becomes an fma.
  void find_contractions();
  bool contracted(const OpcodeParts& parts);
  std::pair<ir::ValueOperand, ir::ValueOperand> approximate_quotient_factors(
      const ir::ValueOperand& a, const ir::ValueOperand& b);
  std::set<const Instruction*> contracted_muls_;
  // add or sub -> the multiply fused into it and which of its operands (1 or 2) that was.
  std::map<const Instruction*, std::pair<const Instruction*, std::size_t>> fma_of_add_;
  std::string temp_prefix_ = "_t";
  unsigned temps_ = 0;
  unsigned label_count_ = 0;
};

// Whether `ptx_name` is a special register and which (nothing for an ordinary register).
std::optional<ir::SpecialReg> special_register(std::string_view ptx_name);

}  // namespace warpsim::ptx

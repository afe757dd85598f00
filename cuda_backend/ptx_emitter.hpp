// The state of lowering one kernel: register names, temporaries, and the body being written.
// Internal to the PTX backend.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::cuda {

class KernelEmitter {
 public:
  // `clusters`: the target has thread block clusters (sm_90 and later), so %cluster_ctarank
  // and %cluster_nctarank exist.
  KernelEmitter(const ir::Module& module, const ir::Kernel& kernel, bool clusters);

  // The whole .entry, declarations first.
  std::string emit();

  // Used by the instruction lowering (ptx_instructions.cpp).
  void instruction(const ir::Instruction& inst);
  // The memory (ld, st, atom) and warp-wide and control (shfl, vote, barriers, branches, ret)
  // instructions, which instruction() hands on.
  void memory_instruction(const ir::Instruction& inst);
  void warp_instruction(const ir::Instruction& inst);
  // cvt to or from f16/bf16 bits held in a u32 register, through a 16-bit PTX register.
  void half_conversion(const ir::Instruction& inst, const std::string& dest);
  std::string value(const ir::ValueOperand& v, ir::ScalarType as);
  std::string reg(const std::string& ir_name) const { return "%v_" + ir_name; }
  std::string temp(const char* type);  // a fresh temporary register of a PTX type
  std::string address(const ir::MemRef& ref, ir::Space space, ir::ScalarType element);
  std::string label(const std::string& block) const { return "$L_" + block; }
  void line(const std::string& text) { body_ << "  " << text << ";\n"; }
  void raw(const std::string& text) { body_ << text << '\n'; }
  const ir::Kernel& kernel() const { return kernel_; }

 private:
  bool clusters_;
  void declare_registers();
  void prologue();
  std::string index_value(const ir::ValueOperand& v, bool wide);

  const ir::Module& module_;
  const ir::Kernel& kernel_;
  std::map<std::string, ir::ScalarType> reg_types_;
  std::map<std::string, std::string> params_;  // parameter -> register holding it (or its base)
  std::vector<std::pair<std::string, std::string>> temps_;  // name, PTX type
  std::ostringstream decls_, body_;
};

// PTX spellings.
std::string ptx_type(ir::ScalarType t);                 // .s32, .f32, .pred ...
std::string ptx_bits(ir::ScalarType t);                 // .b32 / .b64
std::string float_literal(double v, ir::ScalarType t);  // 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX

}  // namespace warpsim::cuda

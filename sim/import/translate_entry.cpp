// Setup and blocks of one kernel's translation, and the dispatch to the instruction families
// (translate_arith.cpp, translate_convert.cpp, translate_memory.cpp, translate_control.cpp,
// translate_cluster.cpp); operands are in translate_operands.cpp.
#include <algorithm>
#include <cctype>
#include <tuple>

#include "sim/import/aggregate_params.hpp"
#include "sim/import/entry_translator.hpp"
#include "sim/import/kernel_signature.hpp"
#include "sim/import/ptx_operand_walk.hpp"

namespace warpsim::ptx {

bool OpcodeParts::has(std::string_view m) const {
  for (const std::string& x : mods) {
    if (x == m) return true;
  }
  return false;
}

unsigned narrow_width(std::string_view t, bool* is_signed) {
  if (is_signed != nullptr) *is_signed = t == "s8" || t == "s16";
  if (t == "u8" || t == "s8" || t == "b8") return 8;
  if (t == "u16" || t == "s16" || t == "b16") return 16;
  return 0;
}

unsigned OpcodeParts::narrow() const {
  return mods.empty() ? 0 : narrow_width(mods.back());
}

ir::ScalarType OpcodeParts::type() const {
  if (mods.empty()) throw Unsupported{"'" + base + "' without a type is not PTX"};
  if (auto t = ir_type_of("." + mods.back())) return *t;
  bool is_signed = false;
  if (narrow_width(mods.back(), &is_signed) != 0) {
    return is_signed ? ir::ScalarType::S32 : ir::ScalarType::U32;
  }
  throw Unsupported{"the type ." + mods.back() +
                    " is not imported (the IR's types: pred, s32, u32, s64, u64, f32, f64)"};
}

// Modifiers an instruction may carry without changing what the IR computes.
void refuse_modifiers(const OpcodeParts& parts, std::initializer_list<std::string_view> allowed,
                      std::size_t type_suffixes) {
  const std::size_t n = parts.mods.size() >= type_suffixes ? parts.mods.size() - type_suffixes : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& m = parts.mods[i];
    if (std::find(allowed.begin(), allowed.end(), m) != allowed.end()) continue;
    throw Unsupported{"'" + parts.base + "' with ." + m +
                      " is not imported (the IR computes no such variant exactly)"};
  }
}

std::optional<ir::ScalarType> ir_type_of(std::string_view t) {
  if (t == ".pred") return ir::ScalarType::Pred;
  if (t == ".s32") return ir::ScalarType::S32;
  if (t == ".u32" || t == ".b32") return ir::ScalarType::U32;
  if (t == ".s64") return ir::ScalarType::S64;
  if (t == ".u64" || t == ".b64") return ir::ScalarType::U64;
  if (t == ".f32") return ir::ScalarType::F32;
  if (t == ".f64") return ir::ScalarType::F64;
  return std::nullopt;
}

std::optional<ir::SpecialReg> special_register(std::string_view name) {
  if (!name.starts_with("%")) return std::nullopt;
  return ir::parse_special_reg(name.substr(1));
}

std::string ir_word(std::string_view name) {
  std::string s;
  for (char c : name) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    s += word ? c : '_';
  }
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) != 0) s = "_" + s;
  return s;
}

EntryTranslator::EntryTranslator(const TranslateInput& input) : in_(input), entry_(*input.entry) {}

ir::Kernel EntryTranslator::run() {
  kernel_.name = in_.kernel_name;
  if (const auto& u = entry_.unreadable) throw Unsupported{u->text, u->line, u->column};
  if (!entry_.unsupported_directives.empty()) {
    const Directive& d = entry_.unsupported_directives.front();
    throw Unsupported{"the kernel directive '" + d.text + "' is not imported", d.line, d.column};
  }
  kernel_.max_regs = entry_.maxnreg;
  if (const auto& c = entry_.reqnctapercluster)
    kernel_.cluster_dims = ir::Dim3{(*c)[0], (*c)[1], (*c)[2]};
  if (entry_.maxntid) {
    kernel_.launch_bounds =
        ir::Kernel::LaunchBounds{*entry_.maxntid, entry_.minnctapersm.value_or(0)};
  } else if (entry_.minnctapersm) {
    throw Unsupported{".minnctapersm without .maxntid"};
  }
  declare_params();
  declare_registers();
  declare_arrays();
  scan_definitions();
  find_contractions();
  start_block("entry");
  for (const Statement& s : entry_.body) {
    if (const auto* label = std::get_if<Label>(&s)) {
      // A jump into the label from the block before is the previous instruction's.
      start_block(label_name(label->name));
      kernel_.blocks.back().no_unroll = label->no_unroll;
      continue;
    }
    current_ = &std::get<Instruction>(s);
    if (current_->guard) {
      translate_guarded(*current_);
    } else {
      translate(*current_);
    }
  }
  current_ = nullptr;
  // Running off the end of a kernel exits it.
  if (!terminated()) emit(ir::Opcode::Ret, ir::ScalarType::Pred, {}, {});
  return std::move(kernel_);
}

void EntryTranslator::declare_params() {
  bool aggregate = false;
  for (const Param& p : entry_.params) aggregate = aggregate || p.is_array;
  for (const ParamSpec& spec : in_.params) {
    if (!spec.unsupported.empty()) throw Unsupported{spec.unsupported};
    ir::KernelParam kp;
    kp.name = spec.name;
    kp.is_pointer = spec.is_pointer;
    kp.type = spec.type;
    kernel_.params.push_back(kp);
    symbols_[spec.key] = spec.name;
    if (spec.is_pointer) pointer_params_.insert(spec.key);
    if (aggregate) kernel_.ptx_params.places.push_back(spec.place);
  }
  if (aggregate) {
    std::tie(kernel_.ptx_params.starts, kernel_.ptx_params.bytes) = ptx_param_layout(entry_);
  }
}

void EntryTranslator::declare_registers() {
  auto add = [&](const std::string& name, const std::string& type) {
    if (type == ".b16" || type == ".u16" || type == ".s16" || type == ".f16" || type == ".bf16") {
      storage_[name] = ir::ScalarType::U32;  // zero-extended, see narrow_
      narrow_regs_.insert(name);
    } else if (auto t = ir_type_of(type)) {
      storage_[name] = *t;
    } else {
      odd_storage_[name] = type;
    }
  };
  std::set<std::string> ir_names;
  for (const RegisterDecl& r : entry_.registers) {
    if (r.count == 0) {
      add(r.name, r.type);
    } else {
      for (std::uint32_t k = 0; k < r.count; ++k) add(r.name + std::to_string(k), r.type);
    }
  }
  for (const auto& [name, type] : storage_) {
    if (!ir_names.insert(ir_register(name)).second) {
      throw Unsupported{"registers named alike after '$' becomes '_': " + name};
    }
  }
  // Temporaries must not share a name with any PTX register.
  auto collides = [&] {
    for (const std::string& n : ir_names) {
      if (n.starts_with(temp_prefix_)) return true;
    }
    return false;
  };
  while (collides()) temp_prefix_ = "_" + temp_prefix_;
}

void EntryTranslator::declare_arrays() {
  std::vector<const VariableDecl*> arrays;
  for (const VariableDecl& v : entry_.variables) arrays.push_back(&v);
  // Module-scope .shared variables (extern dynamic shared memory among them) that this kernel
  // names.
  std::set<std::string> named;
  for (const Statement& s : entry_.body) {
    const auto* inst = std::get_if<Instruction>(&s);
    if (inst == nullptr) continue;
    for (const Operand& op : inst->operands) {
      if (const auto* sym = std::get_if<Symbol>(&op)) named.insert(sym->name);
      if (const auto* a = std::get_if<Address>(&op); a && a->base) {
        if (const auto* sym = std::get_if<Symbol>(&*a->base)) named.insert(sym->name);
      }
    }
  }
  for (const VariableDecl& v : in_.module->variables) {
    if (v.space == ".shared" && named.contains(v.name)) arrays.push_back(&v);
    if (v.space == ".const" || v.space == ".global") symbols_[v.name] = ir_word(v.name);
    if (v.space == ".global") module_globals_.insert(v.name);
  }
  std::set<std::string> taken;
  for (const ParamSpec& p : in_.params) taken.insert(p.name);
  for (const VariableDecl* v : arrays) {
    ir::ArrayDecl a;
    if (v->space == ".shared") {
      a.space = ir::Space::Shared;
    } else if (v->space == ".local") {
      a.space = ir::Space::Local;
    } else {
      throw Unsupported{"a " + v->space + " variable inside a kernel is not imported"};
    }
    if (v->has_initializer) throw Unsupported{"an initialised " + v->space + " variable"};
    // Accesses go by byte address, so only the size matters: whole 32-bit words (or the
    // declared element type where the IR has it).
    const auto declared = ir_type_of(v->type);
    const std::uint64_t element_bytes =
        v->type == ".b8" || v->type == ".u8" || v->type == ".s8"                           ? 1
        : v->type == ".b16" || v->type == ".u16" || v->type == ".s16" || v->type == ".f16" ? 2
        : declared ? ir::size_bytes(*declared)
                   : 0;
    if (element_bytes == 0) throw Unsupported{"a variable of type " + v->type};
    if (v->elements == 0) {
      a.is_dynamic = true;
      a.element = ir::ScalarType::U32;
    } else if (declared && *declared != ir::ScalarType::Pred) {
      a.element = *declared;
      a.dims = {v->elements};
    } else {
      a.element = ir::ScalarType::U32;
      a.dims = {(v->elements * element_bytes + 3) / 4};
    }
    // A C++ static array is mangled with its function (_ZZ6reducePKfPfE1s is reduce's `s`).
    std::string name = ir_word(v->name);
    if (auto plain = local_name(v->name); plain && !taken.contains(*plain)) name = *plain;
    if (!taken.insert(name).second) name = ir_word(v->name);
    a.name = name;
    // Laid out as nvcc declared it: its .align, else its elements' own.
    if (a.space == ir::Space::Shared)
      a.align = static_cast<std::uint32_t>(v->align != 0 ? v->align : element_bytes);
    symbols_[v->name] = name;
    kernel_.arrays.push_back(std::move(a));
  }
}

void EntryTranslator::scan_definitions() {
  for (const Statement& s : entry_.body) {
    const auto* inst = std::get_if<Instruction>(&s);
    if (inst == nullptr) continue;
    const std::string base = inst->opcode.substr(0, inst->opcode.find('.'));
    for_each_write(*inst, [&](const std::string& name) { ++definitions_[name]; });
    for_each_read(*inst, [&](const std::string& name, std::size_t) { reads_.insert(name); });
    if (base == "mov" && inst->operands.size() == 2 && !inst->guard) {
      const auto* d = std::get_if<Register>(&inst->operands[0]);
      const auto* imm = std::get_if<Immediate>(&inst->operands[1]);
      if (d && imm && imm->kind == Immediate::Kind::Int) {
        constants_[d->name] = imm->negative ? ~imm->bits + 1 : imm->bits;
      }
    }
  }
  std::erase_if(constants_, [&](const auto& c) { return definitions_[c.first] != 1; });
  classify_pointers();
}

// --- blocks -----------------------------------------------------------------------------------

bool EntryTranslator::terminated() const {
  const ir::BasicBlock& b = kernel_.blocks.back();
  if (b.instructions.empty()) return false;
  const ir::Opcode last = b.instructions.back().opcode;
  return last == ir::Opcode::Br || last == ir::Opcode::Jmp || last == ir::Opcode::Ret;
}

void EntryTranslator::start_block(const std::string& label) {
  if (!kernel_.blocks.empty() && !terminated()) {
    emit(ir::Opcode::Jmp, ir::ScalarType::Pred, {}, {ir::Operand{ir::LabelRef{label}, {}}});
  }
  used_labels_.insert(label);
  kernel_.blocks.push_back(ir::BasicBlock{label, {}, {}});
}

std::string EntryTranslator::label_name(const std::string& ptx_label) {
  auto it = labels_.find(ptx_label);
  if (it != labels_.end()) return it->second;
  std::string name = ir_word(ptx_label);
  while (name == "entry" || used_labels_.contains(name)) name += "_";
  // Reserve it now: later uses and the label itself must agree.
  for (const auto& [ptx, ir_name] : labels_) {
    if (ir_name == name) name += "_";
  }
  labels_[ptx_label] = name;
  return name;
}

std::string EntryTranslator::fresh_label() {
  for (;;) {
    std::string name = "b" + std::to_string(++label_count_);
    bool clash = used_labels_.contains(name);
    for (const auto& [ptx, ir_name] : labels_) clash = clash || ir_name == name;
    for (const Statement& s : entry_.body) {
      if (const auto* l = std::get_if<Label>(&s)) clash = clash || ir_word(l->name) == name;
    }
    if (!clash) return name;
  }
}

std::string EntryTranslator::fresh_temp() {
  return temp_prefix_ + std::to_string(++temps_);
}

ir::Instruction& EntryTranslator::emit(ir::Instruction inst) {
  if (terminated()) start_block(fresh_label());
  if (current_ != nullptr) {
    const auto file = in_.files.find(current_->origin.file);
    if (file != in_.files.end() && current_->origin.line != 0) {
      inst.origin = {file->second, current_->origin.line, current_->line};
    } else {
      inst.origin = {0, 0, 0};
    }
  }
  kernel_.blocks.back().instructions.push_back(std::move(inst));
  return kernel_.blocks.back().instructions.back();
}

ir::Instruction& EntryTranslator::emit(ir::Opcode op, ir::ScalarType type,
                                       std::vector<std::string> dests,
                                       std::vector<ir::Operand> operands) {
  ir::Instruction inst;
  inst.opcode = op;
  inst.type = type;
  for (std::string& d : dests) inst.dests.push_back(ir::RegDef{std::move(d), {}});
  inst.operands = std::move(operands);
  return emit(std::move(inst));
}

// --- dispatch ---------------------------------------------------------------------------------

void EntryTranslator::translate(const Instruction& inst) {
  OpcodeParts op;
  const std::string& text = inst.opcode;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = text.find('.', start);
    const std::string part = text.substr(start, dot == std::string::npos ? dot : dot - start);
    if (start == 0) {
      op.base = part;
    } else {
      op.mods.push_back(part);
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  current_base_ = op.base;
  // Memory and conversions handle narrow types themselves.
  const bool own_narrow = op.base == "cvt" || op.base == "ld" || op.base == "st" ||
                          op.base == "atom" || op.base == "red" || op.base == "ldu";
  narrow_ = own_narrow ? 0 : op.narrow();
  narrow_signed_ = narrow_ != 0 && op.mods.back()[0] == 's';
  const bool done = cluster_instruction(op) || control(op) || arithmetic(op) || compare(op) ||
                    conversion(op) || memory(op) || warp_wide(op);
  narrow_ = 0;
  if (done) return;
  throw Unsupported{"the PTX instruction '" + inst.opcode + "' is not imported"};
}

// @%p inst: a branch around the instruction (a guarded branch is a conditional branch).
void EntryTranslator::translate_guarded(const Instruction& inst) {
  const Register& guard = *inst.guard;
  if (storage_of(guard) != ir::ScalarType::Pred) {
    throw Unsupported{"the guard " + guard.name + " is not a predicate"};
  }
  const ir::ValueOperand p{ir::RegRef{ir_register(guard.name)}, {}};
  const std::string base = inst.opcode.substr(0, inst.opcode.find('.'));
  auto branch = [&](const std::string& when_true, const std::string& when_false) {
    emit(ir::Opcode::Br, ir::ScalarType::Pred, {},
         {ir::Operand{p, {}}, ir::Operand{ir::LabelRef{when_true}, {}},
          ir::Operand{ir::LabelRef{when_false}, {}}});
  };
  if (base == "bra") {
    const auto* target = inst.operands.empty() ? nullptr : std::get_if<Symbol>(&inst.operands[0]);
    if (target == nullptr) throw Unsupported{"bra needs a label"};
    const std::string taken = label_name(target->name);
    const std::string next = fresh_label();
    if (inst.guard_negated) {
      branch(next, taken);
    } else {
      branch(taken, next);
    }
    start_block(next);
    return;
  }
  const std::string then = fresh_label();
  used_labels_.insert(then);
  const std::string join = fresh_label();
  used_labels_.insert(join);
  if (inst.guard_negated) {
    branch(join, then);
  } else {
    branch(then, join);
  }
  start_block(then);
  translate(inst);
  start_block(join);
}

std::variant<ir::Kernel, TranslateError> translate_entry(const TranslateInput& input) {
  EntryTranslator t(input);
  try {
    return t.run();
  } catch (const Unsupported& u) {
    TranslateError e;
    e.message = u.message;
    if (u.line != 0) {
      e.line = u.line;
      e.column = u.column;
    } else if (const Instruction* inst = t.current()) {
      e.line = inst->line;
      e.column = inst->column;
      e.origin = inst->origin;
    } else {
      e.line = input.entry->line;
    }
    return e;
  }
}

}  // namespace warpsim::ptx

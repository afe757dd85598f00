#include "sim/import/ptx_inline.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/import/aggregate_params.hpp"

namespace warpsim::ptx {
namespace {

// Bounds a module whose calls would expand without end in all but name (a call tree of many
// levels, each calling the next several times).
constexpr std::size_t kMaxInlinedStatements = 200000;

struct InlineFailure {
  ReadError error;
};

[[noreturn]] void fail_at(const Instruction& at, std::string message) {
  throw InlineFailure{{at.line, at.column, std::move(message)}};
}

// A register type that holds a parameter of `type`: 8-bit values travel in 16-bit registers.
std::string register_type(const std::string& type) {
  return ptx_type_bytes(type) == 1 ? type.substr(0, 2) + "16" : type;
}

// `st.param.v2.f64` -> {"v2" count 2, ".f64"}.
struct ParamAccess {
  unsigned elements = 1;
  std::string type;
};
ParamAccess param_access(const std::string& opcode) {
  ParamAccess a;
  a.type = opcode.substr(opcode.rfind('.'));
  if (opcode.find(".v2.") != std::string::npos) a.elements = 2;
  if (opcode.find(".v4.") != std::string::npos) a.elements = 4;
  return a;
}

// The registers a function declares, to tell them from special registers (%tid.x, %laneid).
class DeclaredRegisters {
 public:
  explicit DeclaredRegisters(const std::vector<RegisterDecl>& decls) {
    for (const RegisterDecl& d : decls) {
      if (d.count == 0) {
        single_.insert(d.name);
      } else {
        ranged_.emplace_back(d.name, d.count);
      }
    }
  }
  bool contains(const std::string& name) const {
    if (single_.contains(name)) return true;
    return std::any_of(ranged_.begin(), ranged_.end(), [&](const auto& range) {
      const std::string& prefix = range.first;
      if (name.size() <= prefix.size() || !name.starts_with(prefix)) return false;
      const std::string digits = name.substr(prefix.size());
      if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(),
                                            [](unsigned char c) { return std::isdigit(c) != 0; }))
        return false;
      return std::stoul(digits) < range.second;
    });
  }

 private:
  std::set<std::string> single_;
  std::vector<std::pair<std::string, std::uint32_t>> ranged_;
};

// One copy of a function's body: the names it gives the function's own registers, labels,
// arrays and parameters (a prefix of its own), and where its `ret` goes.
struct Copy {
  const Entry* function = nullptr;  // nullptr: the kernel itself, whose names stay
  std::string prefix;
  std::set<std::string> labels, arrays, params;  // the function's own, before renaming
  std::set<std::string> branched_to;  // its labels some branch names (the others are dropped:
                                      // nvcc ends each function with an unused $L__func_end)
  const DeclaredRegisters* registers = nullptr;
  std::string end_label;

  std::string name(const std::string& n) const { return function == nullptr ? n : prefix + n; }
  std::string register_name(const std::string& n) const {
    if (function == nullptr || !registers->contains(n)) return n;
    return "%" + prefix + n.substr(1);
  }
  std::string symbol(const std::string& n) const {
    if (function == nullptr) return n;
    return labels.contains(n) || arrays.contains(n) || params.contains(n) ? prefix + n : n;
  }
};

class Inliner {
 public:
  Inliner(const Module& module, Entry& entry) : module_(module), entry_(entry) {}

  void run() {
    std::vector<Statement> body = std::move(entry_.body);
    entry_.body.clear();
    std::set<std::string> call_params;
    for (const Param& p : entry_.call_params) call_params.insert(p.name);
    expand(body, Copy{}, call_params);
    entry_.call_params.clear();
  }

 private:
  void expand(const std::vector<Statement>& body, const Copy& copy,
              const std::set<std::string>& call_params) {
    for (const Statement& statement : body) {
      if (entry_.body.size() > kMaxInlinedStatements) {
        throw InlineFailure{{entry_.line, 0,
                             "inlining the kernel's calls makes more than " +
                                 std::to_string(kMaxInlinedStatements) + " instructions"}};
      }
      if (const auto* label = std::get_if<Label>(&statement)) {
        if (copy.function != nullptr && !copy.branched_to.contains(label->name)) continue;
        Label renamed = *label;
        renamed.name = copy.name(label->name);
        entry_.body.emplace_back(std::move(renamed));
        continue;
      }
      const auto& original = std::get<Instruction>(statement);
      Instruction inst = renamed(original, copy);
      const std::string& op = inst.opcode;
      const bool own = copy.function != nullptr;
      // A call's parameter or the function's own: moved through registers, never memory.
      const std::string* param = param_symbol(original);
      const bool passed = param != nullptr && (call_params.contains(copy.name(*param)) ||
                                               (own && copy.params.contains(*param)));
      if (passed && op.starts_with("st.param")) {
        store_param(inst, copy.name(*param));
      } else if (passed && op.starts_with("ld.param")) {
        load_param(inst, copy.name(*param), *param);
      } else if (op == "call") {
        call(inst, copy);
      } else if (own && (op == "ret" || op.starts_with("ret."))) {
        inst.opcode = "bra";
        inst.operands = {Symbol{copy.end_label}};
        entry_.body.emplace_back(std::move(inst));
      } else {
        entry_.body.emplace_back(std::move(inst));
      }
    }
  }

  // The symbol an instruction addresses ([name+offset]), as the function names it.
  static const std::string* param_symbol(const Instruction& inst) {
    for (const Operand& o : inst.operands) {
      const auto* a = std::get_if<Address>(&o);
      if (a == nullptr || !a->base) continue;
      if (const auto* s = std::get_if<Symbol>(&*a->base)) return &s->name;
    }
    return nullptr;
  }

  Instruction renamed(Instruction inst, const Copy& copy) {
    if (copy.function == nullptr) return inst;
    auto reg = [&](Register& r) { r.name = copy.register_name(r.name); };
    if (inst.guard) reg(*inst.guard);
    for (Operand& o : inst.operands) {
      if (auto* r = std::get_if<Register>(&o)) reg(*r);
      if (auto* s = std::get_if<Symbol>(&o)) s->name = copy.symbol(s->name);
      if (auto* v = std::get_if<VectorOperand>(&o)) {
        if (inst.opcode == "call") continue;  // parameter names, renamed by call()
        for (Register& r : v->elements) {
          if (r.name != "_") reg(r);
        }
      }
      if (auto* p = std::get_if<PairOperand>(&o)) {
        reg(p->first);
        reg(p->second);
      }
      if (auto* a = std::get_if<Address>(&o); a != nullptr && a->base) {
        if (auto* r = std::get_if<Register>(&*a->base)) reg(*r);
        if (auto* s = std::get_if<Symbol>(&*a->base)) s->name = copy.symbol(s->name);
      }
    }
    if (inst.origin.line == 0) inst.origin = call_origin_;
    return inst;
  }

  // st.param.T [p+off], x: x moved into a new register, which the parameter's bytes at off are.
  void store_param(const Instruction& inst, const std::string& param) {
    const ParamAccess access = param_access(inst.opcode);
    const auto& address = std::get<Address>(inst.operands.at(0));
    std::vector<Operand> values;
    if (const auto* v = std::get_if<VectorOperand>(&inst.operands.at(1))) {
      for (const Register& r : v->elements) values.emplace_back(r);
    } else {
      values.push_back(inst.operands.at(1));
    }
    const unsigned bytes = ptx_type_bytes(access.type);
    if (bytes == 0) fail_at(inst, "a parameter of type " + access.type + " is not imported");
    for (std::size_t i = 0; i < values.size(); ++i) {
      // One register per parameter and offset, whichever path stores it: a function that
      // returns from two places writes its return value's register on each.
      const std::string type = register_type(access.type);
      auto& slot = slots_[{param, address.displacement + static_cast<std::int64_t>(i * bytes)}];
      if (slot.first.empty() || slot.second != type) {
        slot = {"%__param" + std::to_string(slot_serial_++), type};
        entry_.registers.push_back(RegisterDecl{type, slot.first, 0});
      }
      entry_.body.emplace_back(register_move(inst, Register{slot.first}, values[i], access.type));
    }
  }

  // ld.param.T y, [p+off]: y moved from the register that holds those bytes (`name`: p as the
  // PTX names it, for the error).
  void load_param(const Instruction& inst, const std::string& param, const std::string& name) {
    const ParamAccess access = param_access(inst.opcode);
    const auto& address = std::get<Address>(inst.operands.at(1));
    std::vector<Register> dests;
    if (const auto* v = std::get_if<VectorOperand>(&inst.operands.at(0))) {
      dests = v->elements;
    } else {
      dests.push_back(std::get<Register>(inst.operands.at(0)));
    }
    const unsigned bytes = ptx_type_bytes(access.type);
    for (std::size_t i = 0; i < dests.size(); ++i) {
      const std::int64_t offset = address.displacement + static_cast<std::int64_t>(i * bytes);
      const auto it = slots_.find({param, offset});
      if (it == slots_.end()) {
        fail_at(inst, "the call's parameter " + name + "+" + std::to_string(offset) +
                          " is read but no st.param wrote it");
      }
      if (dests[i].name == "_") continue;
      entry_.body.emplace_back(
          register_move(inst, dests[i], Register{it->second.first}, access.type));
    }
  }

  static Instruction register_move(const Instruction& at, Register to, Operand from,
                                   const std::string& type) {
    Instruction m;
    m.opcode = "mov" + register_type(type);
    m.operands = {std::move(to), std::move(from)};
    m.line = at.line;
    m.column = at.column;
    m.origin = at.origin;
    return m;
  }

  void call(const Instruction& inst, const Copy& caller) {
    const std::string callee = std::get<Symbol>(inst.operands.at(0)).name;
    const auto& returns = std::get<VectorOperand>(inst.operands.at(1)).elements;
    const auto& arguments = std::get<VectorOperand>(inst.operands.at(2)).elements;
    if (callee == "vprintf") {
      fail_at(inst,
              "printf (a call to vprintf) is not imported: the IR has no output from a "
              "kernel");
    }
    // A function may be declared (a prototype) before it is defined: the definition counts.
    auto f = std::find_if(
        module_.functions.begin(), module_.functions.end(),
        [&](const Function& fn) { return fn.definition.name == callee && fn.has_body; });
    if (f == module_.functions.end()) {
      f = std::find_if(module_.functions.begin(), module_.functions.end(),
                       [&](const Function& fn) { return fn.definition.name == callee; });
    }
    if (f == module_.functions.end() || !f->has_body) {
      std::string why = f == module_.functions.end() || f->unreadable.empty()
                            ? "the PTX does not define it"
                            : "its body could not be read (" + f->unreadable + ")";
      fail_at(inst, "a call to the device function '" + callee + "' is not imported: " + why);
    }
    if (std::find(stack_.begin(), stack_.end(), callee) != stack_.end()) {
      fail_at(inst, "the device function '" + callee +
                        "' calls itself, directly or through "
                        "others: recursion is not imported");
    }
    const Entry& fn = f->definition;
    if (arguments.size() != fn.params.size() || returns.size() > f->returns.size()) {
      fail_at(inst, "the call to '" + callee + "' passes other parameters than it declares");
    }
    const DeclaredRegisters declared(fn.registers);
    Copy copy;
    copy.function = &fn;
    copy.prefix = "inl" + std::to_string(copy_serial_++) + "_";
    copy.registers = &declared;
    for (const Statement& s : fn.body) {
      if (const auto* l = std::get_if<Label>(&s)) copy.labels.insert(l->name);
      if (const auto* i = std::get_if<Instruction>(&s)) {
        for (const Operand& o : i->operands) {
          if (const auto* target = std::get_if<Symbol>(&o)) copy.branched_to.insert(target->name);
        }
      }
    }
    for (const VariableDecl& v : fn.variables) copy.arrays.insert(v.name);
    for (const Param& p : fn.params) copy.params.insert(p.name);
    for (const Param& p : f->returns) copy.params.insert(p.name);
    copy.end_label = copy.prefix + "$L__return";
    // The arguments' registers are the callee's parameters' (the caller's names renamed as the
    // caller's copy renames them).
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      alias(caller.name(arguments[i].name), copy.name(fn.params[i].name));
    }
    for (const RegisterDecl& r : fn.registers) {
      RegisterDecl renamed_decl = r;
      renamed_decl.name = "%" + copy.prefix + r.name.substr(1);
      entry_.registers.push_back(std::move(renamed_decl));
    }
    for (const VariableDecl& v : fn.variables) {
      VariableDecl renamed_var = v;
      renamed_var.name = copy.name(v.name);
      entry_.variables.push_back(std::move(renamed_var));
    }
    std::set<std::string> call_params;
    for (const Param& p : fn.call_params) call_params.insert(copy.name(p.name));
    stack_.push_back(callee);
    const Origin outer = call_origin_;
    if (inst.origin.line != 0) call_origin_ = inst.origin;
    expand(fn.body, copy, call_params);
    call_origin_ = outer;
    stack_.pop_back();
    entry_.body.emplace_back(Label{copy.end_label, inst.line});
    for (std::size_t i = 0; i < returns.size(); ++i) {
      alias(copy.name(f->returns[i].name), caller.name(returns[i].name));
    }
  }

  // Every byte offset of parameter `from` held in a register, now also `to`'s.
  void alias(const std::string& from, const std::string& to) {
    std::vector<std::pair<std::int64_t, std::pair<std::string, std::string>>> found;
    for (const auto& [key, slot] : slots_) {
      if (key.first == from) found.emplace_back(key.second, slot);
    }
    for (const auto& [offset, slot] : found) slots_[{to, offset}] = slot;
  }

  const Module& module_;
  Entry& entry_;
  // (parameter, byte offset) -> the register holding it and that register's type.
  std::map<std::pair<std::string, std::int64_t>, std::pair<std::string, std::string>> slots_;
  std::vector<std::string> stack_;  // the functions being inlined, outermost first
  Origin call_origin_;              // the CUDA line of the outermost call, for code without its own
  unsigned copy_serial_ = 0, slot_serial_ = 0;
};

}  // namespace

std::optional<ReadError> inline_calls(const Module& module, Entry& entry) {
  const bool has_calls = std::any_of(entry.body.begin(), entry.body.end(), [](const Statement& s) {
    const auto* i = std::get_if<Instruction>(&s);
    return i != nullptr && i->opcode == "call";
  });
  if (!has_calls) return std::nullopt;
  try {
    Inliner(module, entry).run();
  } catch (const InlineFailure& f) {
    return f.error;
  }
  return std::nullopt;
}

}  // namespace warpsim::ptx

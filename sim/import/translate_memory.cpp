// Loads, stores, atomics and reductions by byte address, and parameter reads. Cache operators
// (.nc, .cg, .L1::...), memory-ordering semantics and scopes do not change what the IR
// computes: it runs every thread in a sequentially consistent memory, so they are dropped.
#include <algorithm>

#include "sim/import/aggregate_params.hpp"
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"

namespace warpsim::ptx {
namespace {

bool is_ignored_qualifier(const std::string& m) {
  static const std::set<std::string, std::less<>> kIgnored = {
      "nc",  "ca",      "cg",       "cs",      "lu",      "cv",      "wb",
      "wt",  "weak",    "volatile", "relaxed", "acquire", "release", "acq_rel",
      "cta", "cluster", "gpu",      "sys",     "unified", "noftz"};
  return kIgnored.contains(m) || m.starts_with("L1::") || m.starts_with("L2::");
}

struct MemoryForm {
  std::optional<ir::Space> space;
  bool param = false;
  std::uint8_t vector_width = 1;
  std::string atomic_op;
};

MemoryForm parse_form(const OpcodeParts& parts) {
  MemoryForm f;
  for (std::size_t i = 0; i + 1 < parts.mods.size(); ++i) {
    const std::string& m = parts.mods[i];
    if (m == "global") {
      f.space = ir::Space::Global;
    } else if (m == "shared" || m == "shared::cta") {
      f.space = ir::Space::Shared;
    } else if (m == "local") {
      f.space = ir::Space::Local;
    } else if (m == "const") {
      f.space = ir::Space::Const;
    } else if (m == "param" || m == "param::entry") {
      f.param = true;
    } else if (m == "v2" || m == "v4") {
      f.vector_width = m == "v2" ? 2 : 4;
    } else if (m == "add" || m == "min" || m == "max" || m == "exch" || m == "cas" || m == "inc" ||
               m == "dec" || m == "and" || m == "or" || m == "xor") {
      f.atomic_op = m;
    } else if (m == "shared::cluster") {
      throw Unsupported{"'" + parts.base +
                        ".shared::cluster' (distributed shared memory by address) is not "
                        "imported"};
    } else if (m == "L2::cache_hint") {
      throw Unsupported{"an access with a cache-policy operand (.L2::cache_hint)"};
    } else if (!is_ignored_qualifier(m)) {
      throw Unsupported{"'" + parts.base + "' with ." + m + " is not imported"};
    }
  }
  return f;  // no space and not a parameter: a generic address (generic_space resolves it)
}

// An ld or st of `parts`' type and form in `space`, its operands still to add.
ir::Instruction access(ir::Opcode opcode, const OpcodeParts& parts, const MemoryForm& form,
                       ir::Space space) {
  const unsigned narrow = parts.narrow();
  ir::Instruction inst;
  inst.opcode = opcode;
  inst.type = parts.type();
  inst.space = space;
  inst.vector_width = form.vector_width;
  inst.narrow_bytes = static_cast<std::uint8_t>(narrow / 8);
  return inst;
}

}  // namespace

std::string EntryTranslator::widening_target(const Operand& target, ir::ScalarType loaded) {
  const auto* r = std::get_if<Register>(&target);
  if (r == nullptr || r->name == "_" || special_register(r->name)) return {};
  const ir::ScalarType storage = storage_of(*r);
  if (!ir::is_int(loaded) || !ir::is_int(storage) || ir::size_bytes(loaded) != 4 ||
      ir::size_bytes(storage) != 8) {
    return {};
  }
  return ir_register(r->name);
}

void EntryTranslator::load(const OpcodeParts& parts, ir::Space space) {
  const MemoryForm form = parse_form(parts);
  expect_operands(2);
  const ir::ScalarType t = parts.type();
  std::vector<Operand> targets;
  if (const auto* v = std::get_if<VectorOperand>(&operand(0))) {
    for (const Register& r : v->elements) targets.emplace_back(r);
  } else {
    targets.push_back(operand(0));
  }
  if (targets.size() != form.vector_width) {
    throw Unsupported{"the load's registers do not match its vector width"};
  }
  const unsigned narrow = parts.narrow();
  ir::Instruction inst = access(ir::Opcode::Ld, parts, form, space);
  inst.operands.push_back(ir::Operand{address(operand(1), space), {}});
  std::vector<Dest> dests;
  std::vector<std::string> widened;  // by target: the wider register a loaded value extends into
  for (const Operand& target : targets) {
    widened.push_back(widening_target(target, t));
    if (!widened.back().empty()) {
      dests.push_back(Dest{fresh_temp(), {}, t, t});
    } else {
      dests.push_back(dest(target, t));
    }
    inst.dests.push_back(ir::RegDef{dests.back().name, {}});
  }
  emit(std::move(inst));
  // PTX lets an integer load write a wider register: the value is sign-extended for .s types and
  // zero-extended otherwise (`ld.global.s32 %rd1` is a widening load).
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (widened[k].empty()) continue;
    const ir::ScalarType wide = storage_of(std::get<Register>(targets[k]));
    const ir::ScalarType from =
        ir::is_signed_int(t) ? t : (ir::size_bytes(t) == 4 ? ir::ScalarType::U32 : t);
    emit(ir::Opcode::Cvt, wide, {widened[k]},
         {ir::Operand{ir::ValueOperand{ir::RegRef{dests[k].name}, {}}, {}}})
        .source_type = from;
  }
  // A sign-extended 8-bit value in a 16-bit register is held as its 16 bits.
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (narrow == 8 && ir::is_signed_int(t) && narrow_regs_.contains(register_name(targets[k]))) {
      mask_into(dests[k].name, 16);
    }
  }
  for (const Dest& d : dests) finish(d);
}

void EntryTranslator::store(const OpcodeParts& parts, ir::Space space) {
  const MemoryForm form = parse_form(parts);
  expect_operands(2);
  const ir::ScalarType t = parts.type();
  ir::Instruction inst = access(ir::Opcode::St, parts, form, space);
  ir::MemRef ref = address(operand(0), space);
  if (const auto* v = std::get_if<VectorOperand>(&operand(1))) {
    if (v->elements.size() != form.vector_width) {
      throw Unsupported{"the store's registers do not match its vector width"};
    }
    ir::RegList list;
    for (const Register& r : v->elements) list.elements.push_back(value(r, t));
    inst.operands = {ir::Operand{std::move(ref), {}}, ir::Operand{std::move(list), {}}};
  } else {
    inst.operands = {ir::Operand{std::move(ref), {}}, op(stored_value(operand(1), t))};
  }
  emit(std::move(inst));
}

// A store's value as type t. PTX's relaxed type rules let an integer store take a wider
// register (nvcc's sinf stores a 64-bit register with st.local.u32): its low bytes are stored.
ir::ValueOperand EntryTranslator::stored_value(const Operand& source, ir::ScalarType t) {
  const auto* r = std::get_if<Register>(&source);
  if (r == nullptr || !ir::is_int(t) || special_register(r->name)) return value(source, t);
  const ir::ScalarType held = storage_of(*r);
  if (!ir::is_int(held) || ir::size_bytes(held) <= ir::size_bytes(t)) return value(source, t);
  const ir::ValueOperand wide = value(source, held);
  const std::string low = fresh_temp();
  ir::Instruction& c = emit(ir::Opcode::Cvt, t, {low}, {op(wide)});
  c.source_type = held;
  return reg(low);
}

void EntryTranslator::atomic(const OpcodeParts& parts, bool returns) {
  MemoryForm form = parse_form(parts);
  if (form.param) throw Unsupported{"an atomic on parameter memory"};
  if (!form.space) form.space = generic_space(operand(returns ? 1 : 0));
  if (*form.space != ir::Space::Global && *form.space != ir::Space::Shared &&
      *form.space != ir::Space::Dsmem) {
    throw Unsupported{"an atomic on " + std::string(ir::name(*form.space)) + " memory"};
  }
  static const std::map<std::string, ir::AtomicOp, std::less<>> kOps = {
      {"add", ir::AtomicOp::Add},   {"min", ir::AtomicOp::Min}, {"max", ir::AtomicOp::Max},
      {"exch", ir::AtomicOp::Exch}, {"cas", ir::AtomicOp::Cas}, {"and", ir::AtomicOp::And},
      {"or", ir::AtomicOp::Or},     {"xor", ir::AtomicOp::Xor}, {"inc", ir::AtomicOp::Inc},
      {"dec", ir::AtomicOp::Dec}};
  auto it = kOps.find(form.atomic_op);
  if (it == kOps.end()) {
    throw Unsupported{"the atomic operation ." + form.atomic_op + " is not imported"};
  }
  const bool cas = it->second == ir::AtomicOp::Cas;
  const std::size_t first = returns ? 1 : 0;
  expect_operands(first + (cas ? 3 : 2));
  const ir::ScalarType t = parts.type();
  ir::Instruction inst;
  inst.opcode = ir::Opcode::Atom;
  inst.type = t;
  inst.space = *form.space;
  inst.atomic_op = it->second;
  inst.operands.push_back(ir::Operand{address(operand(first), *form.space), {}});
  inst.operands.push_back(op(value(operand(first + 1), t)));
  if (cas) inst.operands.push_back(op(value(operand(first + 2), t)));
  // ptxas compiles an atomic whose old value nothing reads as a reduction (RED), and so the
  // GPU counts it; the IR's atom without a destination is that reduction.
  const auto* result = returns ? std::get_if<Register>(&operand(0)) : nullptr;
  if (result != nullptr && (result->name == "_" || !is_read(*result))) returns = false;
  std::optional<Dest> d;
  if (returns) {
    d = dest(operand(0), t);
    inst.dests.push_back(ir::RegDef{d->name, {}});
  }
  emit(std::move(inst));
  if (d) finish(*d);
}

// ld.param: a kernel parameter's value (a pointer's is the buffer's address), or a struct
// parameter's fields ([d+8], or ld.param.v2 of two), each an IR parameter of its own.
void EntryTranslator::param_read(const OpcodeParts& parts) {
  expect_operands(2);
  const auto* a = std::get_if<Address>(&operand(1));
  const Symbol* sym = a && a->base ? std::get_if<Symbol>(&*a->base) : nullptr;
  if (sym == nullptr) throw Unsupported{"a parameter read other than ld.param [name+N]"};
  std::vector<Operand> dests{operand(0)};
  if (const auto* v = std::get_if<VectorOperand>(&operand(0))) {
    dests.assign(v->elements.begin(), v->elements.end());
  }
  const std::int64_t step = parts.narrow() != 0
                                ? parts.narrow() / 8
                                : static_cast<std::int64_t>(ir::size_bytes(parts.type()));
  for (std::size_t k = 0; k < dests.size(); ++k) {
    const std::string key =
        param_key(sym->name, a->displacement + static_cast<std::int64_t>(k) * step);
    if (!symbols_.contains(key)) {
      throw Unsupported{
          "a parameter read other than ld.param [name] of a parameter, or [name+N] "
          "of a struct parameter's field"};
    }
    param_value(parts, Symbol{key}, dests[k]);
  }
}

void EntryTranslator::param_value(const OpcodeParts& parts, const Symbol& field,
                                  const Operand& into) {
  const ir::ScalarType t = parts.type();
  const Dest d = dest(into, t);
  // A parameter read as another type of its width (ld.param.f32 of a .u32 parameter: nvcc's
  // __uint_as_float of an argument) is its bits cast.
  const auto it = symbols_.find(field.name);
  const auto param =
      it == symbols_.end()
          ? kernel_.params.end()
          : std::find_if(kernel_.params.begin(), kernel_.params.end(),
                         [&](const ir::KernelParam& k) { return k.name == it->second; });
  if (param != kernel_.params.end() && !param->is_pointer && parts.narrow() == 0 &&
      !ir::operand_compatible(param->type, t) && ir::size_bytes(param->type) == ir::size_bytes(t)) {
    ir::Instruction& c = emit(ir::Opcode::Bitcast, t, {d.name}, {op(value(field, param->type))});
    c.source_type = param->type;
    finish(d);
    return;
  }
  const ir::ValueOperand v = value(field, t);
  emit(ir::Opcode::Mov, t, {d.name}, {op(v)});
  // An 8- or 16-bit parameter is its low bytes (the driver passes no more).
  if (const unsigned bits = parts.narrow(); bits != 0) {
    const ir::ValueOperand low = extend({ir::RegRef{d.name}, {}}, bits, ir::is_signed_int(t));
    if (!std::holds_alternative<ir::RegRef>(low.value) ||
        std::get<ir::RegRef>(low.value).name != d.name) {
      emit(ir::Opcode::Mov, ir::ScalarType::U32, {d.name}, {op(low)});
    }
    mask_into(d.name, narrow_regs_.contains(register_name(into)) ? 16 : bits);
  }
  finish(d);
}

// cp.async.{ca,cg}.shared.global [dst], [src], size[, src-size]: an asynchronous copy of 4, 8 or
// 16 bytes from global to shared memory, the bytes past src-size zero. A copy must complete
// before cp.async.wait_group / wait_all lets its thread read the bytes, and reading or writing
// them before is a race the PTX ISA leaves undefined, so completing it at once is one of its
// legal executions: it is imported as a load and a store of 32-bit words (commit_group,
// wait_group and wait_all as nothing). Refused: a source size computed at run time, the bulk
// and mbarrier forms, a cache-policy operand.
void EntryTranslator::async_copy(const OpcodeParts& parts) {
  if (parts.has("commit_group") || parts.has("wait_group") || parts.has("wait_all")) return;
  for (const std::string& m : parts.mods) {
    if (m == "async" || m == "ca" || m == "cg" || m == "shared" || m == "shared::cta" ||
        m == "global" || (m.starts_with("L2::") && m != "L2::cache_hint"))
      continue;
    throw Unsupported{"'" + current_->opcode + "' is not imported (cp.async." + m + ")"};
  }
  if (!parts.has("global") || (!parts.has("shared") && !parts.has("shared::cta"))) {
    throw Unsupported{"'" + current_->opcode + "': cp.async from global to shared memory only"};
  }
  if (current_->operands.size() != 3 && current_->operands.size() != 4) {
    throw Unsupported{"'" + current_->opcode + "' takes 3 or 4 operands here"};
  }
  const auto bytes = known_constant(operand(2));
  if (!bytes || (*bytes != 4 && *bytes != 8 && *bytes != 16)) {
    throw Unsupported{"cp.async copies 4, 8 or 16 bytes"};
  }
  std::uint64_t source_bytes = *bytes;
  if (current_->operands.size() == 4) {
    const auto given = known_constant(operand(3));
    if (!given) throw Unsupported{"cp.async with a source size computed at run time"};
    if (*given > *bytes || *given % 4 != 0) {
      throw Unsupported{"cp.async with a source size other than a multiple of 4 up to the size"};
    }
    source_bytes = *given;
  }
  const auto words = static_cast<std::uint8_t>(*bytes / 4);
  std::vector<std::string> loaded(words);
  const auto read = static_cast<std::uint8_t>(source_bytes / 4);
  if (read != 0) {
    // One load of the words read (a vector of 2 or 4, or one), then zeros for the rest.
    ir::Instruction ld;
    ld.opcode = ir::Opcode::Ld;
    ld.type = ir::ScalarType::U32;
    ld.space = ir::Space::Global;
    ld.vector_width = read == 3 ? 4 : read;
    if (read == 3) throw Unsupported{"cp.async with a source size of 12 bytes"};
    ld.operands.push_back(ir::Operand{address(operand(1), ir::Space::Global), {}});
    for (std::uint8_t k = 0; k < read; ++k) {
      loaded[k] = fresh_temp();
      ld.dests.push_back(ir::RegDef{loaded[k], {}});
    }
    emit(std::move(ld));
  }
  ir::Instruction st;
  st.opcode = ir::Opcode::St;
  st.type = ir::ScalarType::U32;
  st.space = ir::Space::Shared;
  st.vector_width = words;
  ir::MemRef dst = address(operand(0), ir::Space::Shared);
  const ir::ValueOperand zero{ir::IntLiteral{0, false}, {}};
  if (words == 1) {
    st.operands = {ir::Operand{std::move(dst), {}}, op(read != 0 ? reg(loaded[0]) : zero)};
  } else {
    ir::RegList list;
    for (std::uint8_t k = 0; k < words; ++k)
      list.elements.push_back(k < read ? reg(loaded[k]) : zero);
    st.operands = {ir::Operand{std::move(dst), {}}, ir::Operand{std::move(list), {}}};
  }
  emit(std::move(st));
}

bool EntryTranslator::memory(const OpcodeParts& parts) {
  const std::string& b = parts.base;
  if (b == "cp" && parts.has("async")) {
    async_copy(parts);
    return true;
  }
  if ((b == "atom" || b == "red") && parts.narrow() != 0) {
    throw Unsupported{"'" + current_->opcode + "': 8- and 16-bit atomics are not imported"};
  }
  if ((b == "atom" || b == "red") && (parts.has("v2") || parts.has("v4") || parts.has("v8"))) {
    throw Unsupported{"'" + current_->opcode +
                      "': vector atomics (atomicAdd on float2 or float4) are not imported"};
  }
  if (b == "ld" || b == "ldu") {
    const MemoryForm form = parse_form(parts);
    if (form.param) {
      param_read(parts);
      return true;
    }
    load(parts, form.space ? *form.space : generic_space(operand(1)));
    return true;
  }
  if (b == "st") {
    const MemoryForm form = parse_form(parts);
    if (form.param) throw Unsupported{"st.param (a device-function call) is not imported"};
    const ir::Space space = form.space ? *form.space : generic_space(operand(0));
    if (space == ir::Space::Const) throw Unsupported{"a store to constant memory"};
    store(parts, space);
    return true;
  }
  if (b == "atom") {
    atomic(parts, true);
    return true;
  }
  if (b == "red") {
    atomic(parts, false);
    return true;
  }
  return false;
}

}  // namespace warpsim::ptx

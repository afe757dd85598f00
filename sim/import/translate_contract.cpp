// Multiplies and adds that ptxas fuses. PTX's `mul.f32` and `add.f32` without a rounding
// modifier "may be optimized aggressively by the code generator", and ptxas contracts them
// into FFMA/DFMA (one rounding instead of two), so the IR must fuse the same pairs for its
// results to be the GPU's bit for bit. The rule, read from ptxas's output for sm_90:
//   - a `mul.f32`/`mul.f64` is fused when every use of its result is an `add` or `sub` of its
//     type without a modifier, in the same basic block, and into every such use (the product
//     is then computed once per use and the multiply disappears); one with any other use
//     (a store, a compare, `add.rn`) stays a multiply;
//   - an add of two fusable products fuses one of them; the other stays a multiply. ptxas
//     picks the one whose operands its schedule has ready last, which the PTX alone does not
//     settle: here the one on the longer dependency chain within the block, the first
//     operand's when they tie. That matched ptxas on black_scholes's two such subtractions and
//     on adds of two products of loaded values, and missed one probe (a*b + c*(d+1), where
//     ptxas fused a*b, having scheduled the loads of a and b last); there the IR frontend may
//     round one bit differently from the GPU, and the SASS frontend, which runs ptxas's own
//     choice, does not;
//   - a guarded add fuses as an unguarded one; a product from another block does not;
//   - `div.approx.f32` (CUDA's __fdividef and fast division) is a multiply by the unit's
//     reciprocal, and fuses by the same rule: __fdividef(a, b) - c is one FFMA.
// The SASS equivalence test (IR against the SASS, every kernel) checks the rule.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"
#include "sim/import/ptx_operand_walk.hpp"

namespace warpsim::ptx {
namespace {

const Register* register_operand(const Instruction& inst, std::size_t i) {
  return i < inst.operands.size() ? std::get_if<Register>(&inst.operands[i]) : nullptr;
}

bool is_plain(const Instruction& inst, const char* base) {
  return inst.opcode == std::string(base) + ".f32" || inst.opcode == std::string(base) + ".f64";
}

struct Use {
  const Instruction* inst;
  std::size_t operand;  // 1 or 2 for a source operand an add could fuse; else kNotAnOperand
  std::size_t block;
  std::size_t position;
};
struct Product {
  std::size_t block, position;
  std::size_t depth;  // the longest chain of instructions within the block ending here
};

// Where each register is read, and the multiplies that might fuse, in one pass over the body.
struct BodyScan {
  std::map<std::string, std::vector<Use>> uses;
  std::map<const Instruction*, Product> products;
  std::map<std::string, const Instruction*> product_of;
  std::vector<const Instruction*> order;  // every instruction, in order

  const std::vector<Use>& uses_of(const Instruction& mul) const {
    static const std::vector<Use> kNone;
    const auto it = uses.find(std::get<Register>(mul.operands[0]).name);
    return it == uses.end() ? kNone : it->second;
  }
  // Whether register `name` is written strictly between positions `from` and `to`.
  bool rewritten_between(const std::string& name, std::size_t from, std::size_t to) const {
    for (std::size_t k = from + 1; k < to; ++k) {
      const Register* d = register_operand(*order[k], 0);
      if (d && d->name == name && writes_first_operand(order[k]->opcode)) return true;
    }
    return false;
  }
  // Whether the use `u` of `mul`'s product could fuse: a plain add/sub of its type, later in
  // its block, neither of mul's sources written in between.
  bool fusable_use(const Instruction* mul, const Use& u) const {
    const Product& p = products.at(mul);
    if (u.operand != 1 && u.operand != 2) return false;
    if (u.block != p.block || u.position <= p.position) return false;
    const Instruction& add = *u.inst;
    if (!(is_plain(add, "add") || is_plain(add, "sub"))) return false;
    if (add.opcode.substr(add.opcode.size() - 3) != mul->opcode.substr(mul->opcode.size() - 3))
      return false;
    const Register* a = register_operand(add, 1);
    const Register* b = register_operand(add, 2);
    if (a && b && a->name == b->name) return false;  // x*y + x*y
    for (const std::size_t i : {std::size_t{1}, std::size_t{2}}) {
      if (const Register* src = register_operand(*mul, i);
          src && rewritten_between(src->name, p.position, u.position)) {
        return false;
      }
    }
    return true;
  }
};

BodyScan scan_body(const Entry& entry, std::map<std::string, std::uint32_t>& definitions) {
  BodyScan scan;
  std::size_t block = 0;
  std::map<std::string, std::size_t> depth;  // a register's chain length in the current block
  for (const Statement& s : entry.body) {
    if (std::holds_alternative<Label>(s)) {
      ++block;
      depth.clear();
      continue;
    }
    const Instruction& inst = std::get<Instruction>(s);
    const bool writes = writes_first_operand(inst.opcode);
    std::size_t chain = 0;
    for_each_read(inst, [&](const std::string& name, std::size_t operand) {
      scan.uses[name].push_back({&inst, operand, block, scan.order.size()});
      if (const auto it = depth.find(name); it != depth.end()) chain = std::max(chain, it->second);
    });
    const Register* d = register_operand(inst, 0);
    if (writes && d) depth[d->name] = chain + 1;
    if (writes && d && (is_plain(inst, "mul") || inst.opcode == "div.approx.f32") && !inst.guard &&
        definitions[d->name] == 1) {
      scan.products[&inst] = {block, scan.order.size(), chain + 1};
      scan.product_of[d->name] = &inst;
    }
    scan.order.push_back(&inst);
    if (inst.opcode.starts_with("bra")) {  // a branch ends its block
      ++block;
      depth.clear();
    }
  }
  return scan;
}

}  // namespace

void EntryTranslator::find_contractions() {
  const BodyScan scan = scan_body(entry_, definitions_);
  // Candidates: products whose every use can fuse; then each add picks one of its products (as
  // above), and a product passed over by an add it feeds is a multiply after all (repeated
  // until no choice changes).
  std::set<const Instruction*> fused;
  for (const auto& entry : scan.products) {
    const Instruction* mul = entry.first;
    const auto& list = scan.uses_of(*mul);
    if (!list.empty() &&
        std::ranges::all_of(list, [&](const Use& u) { return scan.fusable_use(mul, u); })) {
      fused.insert(mul);
    }
  }
  auto fused_product = [&](const Instruction& add, std::size_t i) -> const Instruction* {
    const Register* r = register_operand(add, i);
    if (r == nullptr || !scan.product_of.contains(r->name)) return nullptr;
    const Instruction* m = scan.product_of.at(r->name);
    return fused.contains(m) ? m : nullptr;
  };
  for (bool changed = true; changed;) {
    changed = false;
    fma_of_add_.clear();
    for (const Instruction* mul : fused) {
      for (const Use& u : scan.uses_of(*mul)) {
        const Instruction* first = fused_product(*u.inst, 1);
        const Instruction* second = fused_product(*u.inst, 2);
        const bool second_deeper =
            first && second && scan.products.at(second).depth > scan.products.at(first).depth;
        const std::size_t pick = first && !second_deeper ? 1 : 2;
        if (pick == u.operand) fma_of_add_[u.inst] = {mul, pick};
      }
    }
    for (auto it = fused.begin(); it != fused.end();) {
      const bool all_taken = std::ranges::all_of(scan.uses_of(**it), [&](const Use& u) {
        const auto f = fma_of_add_.find(u.inst);
        return f != fma_of_add_.end() && f->second.first == *it;
      });
      if (all_taken) {
        ++it;
      } else {
        it = fused.erase(it);
        changed = true;
      }
    }
  }
  contracted_muls_ = std::move(fused);
}

// div.approx.f32 a, b is ptxas's a * RCP(b) (exec::divide_approx_lowered: a divisor below
// 2^-126 in magnitude and the dividend scaled by 2^24 first), and that multiply fuses as a
// mul.f32's does: the factors (a', RCP(b')) of the product the add takes.
std::pair<ir::ValueOperand, ir::ValueOperand> EntryTranslator::approximate_quotient_factors(
    const ir::ValueOperand& a, const ir::ValueOperand& b) {
  using ir::Opcode;
  const ir::ScalarType t = ir::ScalarType::F32;
  const ir::ValueOperand scale{ir::FloatLiteral{16777216.0}, {}};
  const ir::ValueOperand smallest_normal{ir::FloatLiteral{0x1p-126}, {}};
  const std::string magnitude = fresh_temp(), tiny = fresh_temp(), scaled_b = fresh_temp(),
                    divisor = fresh_temp(), scaled_a = fresh_temp(), dividend = fresh_temp(),
                    reciprocal = fresh_temp();
  emit(Opcode::Abs, t, {magnitude}, {op(b)});
  emit(Opcode::Lt, t, {tiny}, {op(reg(magnitude)), op(smallest_normal)});  // false for a NaN
  emit(Opcode::Mul, t, {scaled_b}, {op(b), op(scale)});
  emit(Opcode::Select, t, {divisor}, {op(reg(tiny)), op(reg(scaled_b)), op(b)});
  emit(Opcode::Mul, t, {scaled_a}, {op(a), op(scale)});
  emit(Opcode::Select, t, {dividend}, {op(reg(tiny)), op(reg(scaled_a)), op(a)});
  // The IR's rcp.approx is the unit's RCP, subnormals flushed (PTX's rcp.approx.ftz).
  emit(Opcode::RcpApprox, t, {reciprocal}, {op(reg(divisor))});
  return {reg(reciprocal), reg(dividend)};
}

bool EntryTranslator::contracted(const OpcodeParts& parts) {
  if (contracted_muls_.contains(current_)) return true;  // computed in each add it feeds
  const auto it = fma_of_add_.find(current_);
  if (it == fma_of_add_.end()) return false;
  const auto [mul, product_operand] = it->second;
  const ir::ScalarType t = parts.type();
  ir::ValueOperand x = value(mul->operands[1], t);
  ir::ValueOperand y = value(mul->operands[2], t);
  if (mul->opcode.starts_with("div")) std::tie(x, y) = approximate_quotient_factors(x, y);
  ir::ValueOperand addend = value(operand(product_operand == 1 ? 2 : 1), t);
  if (parts.base == "sub") {
    // x*y - c = fma(x, y, -c); c - x*y = fma(-x, y, c): negation is exact.
    ir::ValueOperand& negated = product_operand == 1 ? addend : x;
    const std::string n = fresh_temp();
    emit(ir::Opcode::Neg, t, {n}, {op(negated)});
    negated = reg(n);
  }
  const Dest d = dest(operand(0), t);
  emit(ir::Opcode::Fma, t, {d.name}, {op(x), op(y), op(addend)});
  finish(d);
  return true;
}

}  // namespace warpsim::ptx

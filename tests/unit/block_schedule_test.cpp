// The list scheduler the compiler model orders unrolled loops with (block_schedule.hpp): on
// random straight-line blocks of loads, stores and arithmetic it returns a permutation that
// keeps every register dependence and the order of stores against every memory access, and it
// moves independent loads ahead of arithmetic.
#include "sim/core/ir/block_schedule.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>

#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/register_reads.hpp"

namespace warpsim::ir {
namespace {

// One block of `n` random instructions over registers %r0..%r5 (all defined first), parsed
// and verified; returns its instructions without the definitions and the terminator.
std::vector<Instruction> random_block(std::mt19937& rng, int n) {
  std::ostringstream src;
  src << "kernel k(a: ptr global f32, c: ptr global f32) {\nentry:\n";
  for (int r = 0; r < 6; ++r) src << "  %r" << r << " = cvt.f32.u32 %tid.x\n";
  src << "  %i = mov.u32 %tid.x\n";
  auto reg = [&] { return "%r" + std::to_string(rng() % 6); };
  for (int k = 0; k < n; ++k) {
    switch (rng() % 5) {
      case 0:
      case 1:
        src << "  " << reg() << " = ld.global.f32 a[%i]\n";
        break;
      case 2:
        src << "  st.global.f32 c[%i], " << reg() << "\n";
        break;
      case 3:
        src << "  " << reg() << " = add.f32 " << reg() << ", " << reg() << "\n";
        break;
      default:
        src << "  " << reg() << " = mul.f32 " << reg() << ", 2.0\n";
        break;
    }
  }
  src << "  ret\n}\n";
  LoadedModule loaded = load_module_text("random", src.str());
  REQUIRE(loaded.ok());
  const auto& all = loaded.module.kernels[0].blocks[0].instructions;
  return {all.begin() + 7, all.end() - 1};
}

std::set<std::string> reads_of(const Instruction& inst) {
  std::set<std::string> out;
  for_each_register_read(inst, [&](const RegRef& r, SourceLoc) { out.insert(r.name); });
  return out;
}

bool depends(const Instruction& a, const Instruction& b) {
  const auto ra = reads_of(a), rb = reads_of(b);
  for (const RegDef& d : a.dests)
    if (rb.count(d.name) != 0) return true;  // read after write
  for (const RegDef& d : b.dests) {
    if (ra.count(d.name) != 0) return true;  // write after read
    for (const RegDef& e : a.dests)
      if (e.name == d.name) return true;  // write after write
  }
  const bool a_mem = a.opcode == Opcode::Ld || a.opcode == Opcode::St;
  const bool b_mem = b.opcode == Opcode::Ld || b.opcode == Opcode::St;
  return a_mem && b_mem && (a.opcode == Opcode::St || b.opcode == Opcode::St);
}

TEST_CASE("the list scheduler keeps every dependence of random blocks") {
  std::mt19937 rng(20261130);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const std::vector<Instruction> in = random_block(rng, 24);
    // Each input instruction is found by its source line (unique per line) and its meaning.
    const std::vector<Instruction> out = schedule_block(in, estimated_latency);
    REQUIRE(out.size() == in.size());
    std::vector<std::size_t> position(in.size());
    std::vector<bool> used(in.size(), false);
    for (std::size_t j = 0; j < out.size(); ++j) {
      std::size_t found = in.size();
      for (std::size_t i = 0; i < in.size(); ++i) {
        if (!used[i] && in[i].loc.line == out[j].loc.line && in[i] == out[j]) {
          found = i;
          break;
        }
      }
      REQUIRE(found < in.size());  // a permutation: each input instruction exactly once
      used[found] = true;
      position[found] = j;
    }
    for (std::size_t i = 0; i < in.size(); ++i) {
      for (std::size_t k = i + 1; k < in.size(); ++k) {
        if (depends(in[i], in[k])) CHECK(position[i] < position[k]);
      }
    }
  }
}

TEST_CASE("the list scheduler issues independent loads before the arithmetic on them") {
  // Two chains, each a load then two dependent adds: the second load can start before the
  // first chain's adds, which wait for their load anyway.
  LoadedModule loaded = load_module_text("chains", R"(
kernel k(a: ptr global f32, c: ptr global f32) {
entry:
  %x = ld.global.f32 a[%tid.x]
  %x = add.f32 %x, 1.0
  %x = add.f32 %x, 1.0
  %y = ld.global.f32 c[%tid.x]
  %y = add.f32 %y, 1.0
  %y = add.f32 %y, 1.0
  st.global.f32 a[%tid.x], %y
  ret
}
)");
  REQUIRE(loaded.ok());
  const auto& all = loaded.module.kernels[0].blocks[0].instructions;
  const std::vector<Instruction> out =
      schedule_block({all.begin(), all.end() - 1}, estimated_latency);
  REQUIRE(out.size() == 7);
  CHECK(out[0].opcode == Opcode::Ld);
  CHECK(out[1].opcode == Opcode::Ld);
  CHECK(out.back().opcode == Opcode::St);
}

}  // namespace
}  // namespace warpsim::ir

// The SASS frontend of the timing model: it issues exactly the instructions the functional SASS
// run executes, takes each one's stall count and scoreboards from its controls, and gives the
// same statistics on any number of threads. And the decoder names what it cannot model.
#include <doctest/doctest.h>

#include <bit>
#include <nlohmann/json.hpp>

#include "cuda_backend/ptx.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/sass/sass_run.hpp"
#include "sim/scheduler/frontend/sass_frontend.hpp"
#include "sim/scheduler/timing_engine.hpp"
#include "tests/unit/json_support.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/sass_timing_support.hpp"
#include "tests/unit/test_support.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

// `warpsim run kernels_ir/KERNEL --mode timing` on `frontend` with one config value set.
nlohmann::json timed_with(const std::string& kernel, const std::string& frontend,
                          const std::string& setting, std::vector<std::string> extra = {}) {
  extra.insert(extra.end(), {"--mode", "timing", "--frontend", frontend, "--set", setting});
  return run_json(kernel, extra);
}

}  // namespace

TEST_CASE("the SASS frontend issues the SASS run's instructions, the same on any thread count") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  for (const char* file : {"vecAdd.kir", "sum_reduce.kir", "warp_divergence.kir"}) {
    CAPTURE(file);
    const KernelRun k = load_kernel(file);
    const sass::SassKernel kernel = compiled(k);
    const exec::LaunchResult functional =
        sass::execute_sass(kernel, k.spec, exec::constant_image(k.loaded.module), {});
    const scheduler::TimingResult one = time_on_sass(k, kernel, 1);
    const scheduler::TimingResult two = time_on_sass(k, kernel, 2);
    // Every SASS instruction a warp executes is issued once: no unroller, no layout jumps.
    CHECK(one.functional.stats.warp_instructions == functional.stats.warp_instructions);
    CHECK(one.timing.issued == functional.stats.warp_instructions);
    for (std::size_t b = 0; b < functional.memory.buffers.size(); ++b)
      CHECK(one.functional.memory.buffers[b].bytes == functional.memory.buffers[b].bytes);
    CHECK(one.timing.elapsed_cycles > 0);
    CHECK(one.timing.elapsed_cycles == two.timing.elapsed_cycles);
    CHECK(one.timing.warp_state_cycles == two.timing.warp_state_cycles);
  }
}

TEST_CASE("each SASS instruction is timed by its own stall count and scoreboards") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  const KernelRun k = load_kernel("vecAdd.kir");
  const sass::SassKernel kernel = compiled(k);
  const auto timed = scheduler::classify_sass(kernel.program, h200().timing);
  REQUIRE(timed.size() == kernel.program.insts.size());
  unsigned loads = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const sass::Instruction& inst = kernel.program.insts[i];
    if (inst.listed == nullptr) continue;
    const sass::Controls& c = inst.listed->controls;
    CHECK(timed[i].stall == c.stall);
    CHECK(timed[i].nwrites == (c.write_barrier ? 1 : 0));
    CHECK(timed[i].nreads == static_cast<unsigned>(std::popcount(c.wait_mask)));
    if (inst.op == sass::Op::LDG) {
      // A load is variable-latency: it releases a scoreboard, the memory side's answer.
      ++loads;
      CHECK(timed[i].pipe == scheduler::Pipe::Global);
      CHECK(timed[i].memory_op == scheduler::MemoryOp::Load);
      REQUIRE(c.write_barrier.has_value());
      CHECK(timed[i].writes[0] == *c.write_barrier);
    }
  }
  // vecAdd.kir reads a[i] and b[i].
  CHECK(loads == 2);
}

TEST_CASE("the [sass] values time the SASS frontend, and only it") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // sum_reduce waits on each shared load of its tree: a longer LDS latency lengthens the SASS
  // frontend's run, while the IR frontend keeps timing.shared_latency.
  auto cycles = [&](const std::string& frontend, const std::string& latency) {
    return timed_with("sum_reduce.kir", frontend,
                      "sass.shared_latency=" + latency)["metrics"]["gpc__cycles_elapsed.max"]
        .get<double>();
  };
  CHECK(cycles("sass", "121") > cycles("sass", "21"));
  CHECK(cycles("ir", "121") == cycles("ir", "21"));
}

TEST_CASE("warps wait for a constant operand's line the SM has not yet read, as imc_miss") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // vecAdd's SASS reads the block size and the buffers' descriptor as constant operands (ULDC):
  // the warps an SM starts together all wait for those lines; with no miss latency none does.
  auto imc_miss = [&](const std::string& latency) {
    return timed_with(
               "vecAdd.kir", "sass",
               "sass.immediate_constant_miss_latency=" +
                   latency)["metrics"]
                           ["smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio"]
                               .get<double>();
  };
  CHECK(imc_miss("110") > 0);
  CHECK(imc_miss("0") == 0);
}

TEST_CASE("a page the SM has not translated holds its first accesses by the miss latency") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // vecAdd's 16 blocks of 256 threads (8 warps) read two buffers and write a third: every SM's
  // first access to a page waits for its translation, and every warp of the SM asking meanwhile
  // waits for the same one, so the loads' waits grow, each warp's by about the latency (its two
  // loads, a few cycles apart, wait for their pages side by side).
  auto long_scoreboard_cycles = [&](const std::string& latency) {
    return timed_with("vecAdd.kir", "sass", "sass.translation_miss_latency=" + latency,
                      {"--grid", "16"})["warp_states"]["long_scoreboard"]
        .get<double>();
  };
  const double none = long_scoreboard_cycles("0");
  const double translated = long_scoreboard_cycles("300");
  CHECK(translated > none);
  // 16 blocks x 8 warps, each waiting 300 cycles more and the few between its loads' issues
  // (100 covers them).
  CHECK(translated <= none + 16 * 8 * (300 + 100));
}

TEST_CASE("a cluster's blocks meet at UCGABAR and reach each other's shared memory by ATOM") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // clusterHist: clusters of 2 blocks, each warp arriving (UCGABAR_ARV) and waiting
  // (UCGABAR_WAIT) twice, its histogram atomics generic (ATOM at SR_SWINHI's window) into either
  // block's shared memory. The timed SASS run must leave the functional SASS run's bins, which
  // equal the IR run's (sass_equivalence_test), and count the IR's dsmem atomics: one per warp
  // and loop trip (2^18 elements / 32 lanes = 8,192), on one thread or two alike.
  const KernelRun k = load_kernel("clusterHist_kernel.kir");
  const sass::SassKernel kernel = compiled(k);
  const exec::LaunchResult functional =
      sass::execute_sass(kernel, k.spec, exec::constant_image(k.loaded.module), {});
  const exec::LaunchResult ir = k.run();
  const scheduler::TimingResult one = time_on_sass(k, kernel, 1);
  const scheduler::TimingResult two = time_on_sass(k, kernel, 2);
  for (std::size_t b = 0; b < functional.memory.buffers.size(); ++b) {
    CHECK(one.functional.memory.buffers[b].bytes == functional.memory.buffers[b].bytes);
    CHECK(functional.memory.buffers[b].bytes == ir.memory.buffers[b].bytes);
  }
  const auto atom = static_cast<std::size_t>(exec::SharedOp::Atomic);
  CHECK(one.functional.stats.memory.dsmem[atom].instructions == 8192);
  CHECK(one.functional.stats.memory.dsmem[atom].wavefronts ==
        ir.stats.memory.dsmem[atom].wavefronts);
  CHECK(one.functional.stats.memory.shared[atom].wavefronts ==
        ir.stats.memory.shared[atom].wavefronts);
  CHECK(one.timing.elapsed_cycles == two.timing.elapsed_cycles);
}

TEST_CASE("global atomics are timed by the L2's atomic units, not as stores") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // atom_add's loop adds to a counter per line with atomicAdd, whose result it does not use:
  // ptxas emits REDG (or ATOMG). Either is an atomic for the memory side, and the kernel's
  // cycles then follow the atomic units' rate (l2_atomic_cycles_per_request), as the IR's do.
  const KernelRun k = load_kernel("calibration/atomics.kir");
  const sass::SassKernel kernel = compiled(k);
  const auto timed = scheduler::classify_sass(kernel.program, h200().timing);
  unsigned atomics = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const sass::Op op = kernel.program.insts[i].op;
    if (op != sass::Op::ATOMG && op != sass::Op::REDG) continue;
    ++atomics;
    CHECK(timed[i].memory_op == scheduler::MemoryOp::Atomic);
    CHECK(timed[i].pipe == scheduler::Pipe::Global);
  }
  CHECK(atomics > 0);
}

TEST_CASE("the uniform datapath's arithmetic issues to a pipe of its own, one a cycle") {
  if (!have_sass_tools("the SASS frontend is not timed")) return;
  // uniform_paths (branches.kir, its first kernel) counts its loop in uniform registers
  // (UIADD3, UISETP): those must not take the INT32 lanes' issue slots, which hold a warp
  // instruction int_interval (2) cycles since a sub-partition has 16 of them for 32 lanes.
  const KernelRun k = load_kernel("calibration/branches.kir");
  const sass::SassKernel kernel = compiled(k);
  const auto timed = scheduler::classify_sass(kernel.program, h200().timing);
  unsigned uniform = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const sass::Instruction& inst = kernel.program.insts[i];
    if (!inst.mods.uniform || inst.pipe != exec::SassPipe::Uniform) continue;
    CAPTURE(inst.address);
    ++uniform;
    CHECK(timed[i].pipe == scheduler::Pipe::Uniform);
    CHECK(timed[i].interval == 1);
  }
  CHECK(uniform > 0);
  CHECK(h200().timing.int_interval == 2);
}

TEST_CASE("an instruction the SASS executor does not model is an error naming it") {
  // A listing as nvdisasm -hex -c prints it, with one made-up opcode.
  const std::string text =
      ".text.k:\n"
      "        /*0000*/                   MOV R1, 0x1 ;       /* 0x0000000100017802 */\n"
      "                                                       /* 0x000fe20000000f00 */\n"
      "        /*0010*/                   FROB R2, R1 ;       /* 0x0000000100027802 */\n"
      "                                                       /* 0x000fe20000000f00 */\n";
  sass::ListingError listing_error;
  auto listing = sass::parse_listing(text, listing_error);
  REQUIRE(listing.has_value());
  std::string error;
  CHECK_FALSE(sass::decode_kernel(std::move(*listing), {}, {}, {}, "k", error).has_value());
  CHECK(error.find("k: SASS instruction at /*0010*/ `FROB R2, R1`") != std::string::npos);
  CHECK(error.find("not modelled") != std::string::npos);
}

TEST_CASE("an instruction not modelled that only a BRA.DIV reaches waits until a warp reaches it") {
  // ptxas compiles a general path beside a warp-synchronous fast path (cooperative groups'
  // tiles) and branches to it with BRA.DIV where the member lanes do not run together; the
  // kernel decodes, and the made-up FROB there is remembered for a warp that gets to it.
  const std::string hex =
      "       /* 0x0000000100017802 */\n"
      "                                                       /* "
      "0x000fe20000000f00 */\n";
  const std::string text = ".text.k:\n        /*0000*/                   MOV R1, 0x1 ;" + hex +
                           "        /*0010*/              @!P0 BRA.DIV UR4, `(.L_x_0) ;" + hex +
                           "        /*0020*/                   EXIT ;" + hex + ".L_x_0:\n" +
                           "        /*0030*/                   FROB R2, R1 ;" + hex +
                           "        /*0040*/                   EXIT ;" + hex;
  sass::ListingError listing_error;
  auto listing = sass::parse_listing(text, listing_error);
  REQUIRE(listing.has_value());
  std::string error;
  const auto kernel = sass::decode_kernel(std::move(*listing), {}, {}, {}, "k", error);
  REQUIRE_MESSAGE(kernel.has_value(), error);
  REQUIRE(kernel->program.unmodelled.size() == 1);
  CHECK(kernel->program.unmodelled[0].first == 3);  // /*0030*/, the fourth instruction
  CHECK(kernel->program.insts[3].unmodelled);
  CHECK(kernel->program.unmodelled[0].second.find("FROB R2, R1") != std::string::npos);
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("SASS instructions are counted by memory class and pipe, the same in timing mode") {
  if (!have_sass_tools("the SASS instruction classes are not counted")) return;
  const KernelRun k = load_kernel("vecAdd.kir");
  const sass::SassKernel kernel = compiled(k);
  const exec::LaunchResult functional =
      sass::execute_sass(kernel, k.spec, exec::constant_image(k.loaded.module), {});
  const exec::SassClassStats& c = functional.stats.sass;
  // vecAdd.kir: N = 1,000,000 over 3907 blocks of 256 threads, 31,256 warps; the first
  // 1,000,000 / 32 = 31,250 hold elements (all 32 lanes each) and load a[i] and b[i] once and
  // store c[i] once; the other 6 leave at the bound check before any access.
  CHECK(c.op(exec::SassOpClass::GlobalLd) == 2 * 31'250);
  CHECK(c.op(exec::SassOpClass::GlobalSt) == 31'250);
  CHECK(c.op(exec::SassOpClass::GlobalAtom) == 0);
  CHECK(c.op(exec::SassOpClass::LocalLd) == 0);
  // Every executed instruction has one mnemonic and one pipe (vecAdd has no RET, which the GPU
  // counts in two).
  std::uint64_t in_pipes = 0, by_mnemonic = 0;
  for (const std::uint64_t n : c.pipes) in_pipes += n;
  for (const std::uint64_t n : c.per_mnemonic) by_mnemonic += n;
  CHECK(c.instructions == functional.stats.warp_instructions);
  CHECK(in_pipes == c.instructions);
  CHECK(by_mnemonic == c.instructions);
  // The loads and the store go through the LSU, at least.
  CHECK(c.pipe(exec::SassPipe::Lsu) >= 3 * 31'250);
  for (const std::uint32_t threads : {1u, 2u}) {
    CAPTURE(threads);
    const exec::SassClassStats& timed = time_on_sass(k, kernel, threads).functional.stats.sass;
    CHECK(timed.ops == c.ops);
    CHECK(timed.pipes == c.pipes);
    CHECK(timed.per_mnemonic == c.per_mnemonic);
  }
  // Reported on the SASS frontend only.
  const std::string file = (source_dir() / "kernels_ir" / "vecAdd.kir").string();
  const CommandResult on_sass = run_cli({"run", file, "--frontend", "sass", "--json", "-"});
  const CommandResult on_ir = run_cli({"run", file, "--frontend", "ir", "--json", "-"});
  REQUIRE(on_sass.exit_code == 0);
  REQUIRE(on_ir.exit_code == 0);
  const auto sass_metrics = nlohmann::json::parse(on_sass.out)["metrics"];
  CHECK(sass_metrics["smsp__sass_inst_executed_op_global_ld.sum"] == 2 * 31'250);
  CHECK(sass_metrics["smsp__inst_executed_pipe_lsu.sum"] == c.pipe(exec::SassPipe::Lsu));
  CHECK_FALSE(
      nlohmann::json::parse(on_ir.out)["metrics"].contains("smsp__inst_executed_pipe_lsu.sum"));
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("a 64-bit shared atomic's ATOMS.CAST.SPIN loop serves one wavefront per pass") {
  if (!have_sass_tools("the ATOMS.CAST.SPIN passes are not counted")) return;
  // memory_rules.kir's shared_atom_add_u64: one warp, 16 atomic adds a lane; ptxas loops on
  // ATOMS.CAST.SPIN, reloading the word (LDS) once per pass, plus one LDS outside the loop.
  // A pass serves, in each half-warp, the lanes of one conflict-free wavefront, one lane per
  // word succeeding; so the passes per atomic are:
  //   one word, 32 lanes:                      one success a pass         -> 32
  //   16 words in distinct banks, 2 lanes each: 8 a half-warp a pass       -> 2
  //   32 words in one bank:                     one a half-warp a pass     -> 16
  //   8 words in one bank, 4 lanes each:        one a half-warp a pass     -> 16
  const std::pair<const char*, std::uint64_t> cases[] = {{"satom_add_u64_one_word", 32},
                                                         {"satom_add_u64_pairs", 2},
                                                         {"satom_add_u64_one_bank", 16},
                                                         {"satom_add_u64_quads_one_bank", 16}};
  for (const auto& [launch, passes] : cases) {
    CAPTURE(launch);
    cli::LaunchOverrides o;
    o.launch_name = launch;
    const KernelRun k = load_kernel("calibration/memory_rules.kir", o);
    const exec::LaunchResult r =
        sass::execute_sass(compiled(k), k.spec, exec::constant_image(k.loaded.module), {});
    CHECK(r.stats.memory.shared[static_cast<std::size_t>(exec::SharedOp::Load)].instructions ==
          1 + 16 * passes);
    // The passes change when a lane's addition lands, not what is left: the IR's result.
    const exec::LaunchResult ir_run = k.run();
    REQUIRE(r.memory.buffers.size() == ir_run.memory.buffers.size());
    for (std::size_t b = 0; b < r.memory.buffers.size(); ++b)
      CHECK(r.memory.buffers[b].bytes == ir_run.memory.buffers[b].bytes);
  }
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("the SASS run's memory counts land on the IR lines they came from") {
  if (!have_sass_tools("the SASS per-line tables are not compared")) return;
  // smem_transpose.kir: ptxas compiles each of its four memory instructions (global load,
  // shared store, shared load, global store) to one SASS instruction on the same line, so each
  // line's executions, sectors and wavefronts on the SASS are the IR's.
  const std::string file = (source_dir() / "kernels_ir" / "smem_transpose.kir").string();
  const CommandResult on_sass =
      run_cli({"run", file, "--arg", "m=256", "--frontend", "sass", "--json", "-"});
  const CommandResult on_ir =
      run_cli({"run", file, "--arg", "m=256", "--frontend", "ir", "--json", "-"});
  REQUIRE(on_sass.exit_code == 0);
  REQUIRE(on_ir.exit_code == 0);
  const auto sass_lines = nlohmann::json::parse(on_sass.out)["lines"];
  const auto ir_lines = nlohmann::json::parse(on_ir.out)["lines"];
  REQUIRE(ir_lines.size() == 4);
  CHECK(sass_lines == ir_lines);
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("--frontend auto runs the SASS where ptxas and nvdisasm are found, and says so") {
  const std::string file = (source_dir() / "kernels_ir" / "vecAdd.kir").string();
  const CommandResult r = run_cli({"run", file, "--frontend", "auto", "--json", "-"});
  REQUIRE(r.exit_code == 0);
  // Without the tools, auto is the IR, and the message names what is missing.
  const bool tools =
      toolkit::find_program("ptxas").has_value() && sass::find_disassembler().has_value();
  const std::string chosen = tools ? "sass" : "ir";
  CHECK(nlohmann::json::parse(r.out)["frontend"] == chosen);
  CHECK(r.err.find("--frontend auto: " + chosen) != std::string::npos);
  const CommandResult bad = run_cli({"run", file, "--frontend", "frob"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--frontend must be ir, sass or auto, not 'frob'") != std::string::npos);
}

}  // namespace warpsim::test

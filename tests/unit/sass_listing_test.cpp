// The SASS listing (sim/sass/): nvdisasm's text read into instructions, and the scheduling
// controls decoded from each instruction's high word, checked bit by bit against the layout in
// sass_listing.hpp; then, where ptxas and nvdisasm are installed, a kernel's real SASS.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda_backend/ptx.hpp"
#include "sim/import/toolkit.hpp"
#include "sim/sass/disassembler.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

// The start of `nvdisasm -hex -c` of a kernel ptxas compiled for sm_90 (a kernel that loads,
// divides and branches): each instruction's line holds its low word, the next line its high.
constexpr const char* kListing = R"(	.target	sm_90

//--------------------- .text.k                   --------------------------
	.section	.text.k,"ax",@progbits
k:
.text.k:
	//## File "warpsim.kir", line 7
        /*0000*/                   LDC R1, c[0x0][0x28] ;                /* 0x00000a00ff017b82 */
                                                                         /* 0x000ff00000000800 */
        /*0010*/                   LDC.64 R6, c[0x0][0x210] ;            /* 0x00008400ff067b82 */
                                                                         /* 0x000e220000000a00 */
        /*0020*/                   S2R R2, SR_TID.X ;                    /* 0x0000000000027919 */
                                                                         /* 0x000e620000002100 */
        /*0030*/                   LDG.E R6, desc[UR6][R6.64+0x4] ;      /* 0x0000040606067981 */
                                                                         /* 0x001ea2000c1e1900 */
.L_x_0:
	//## File "helper.h", line 12 inlined at "inner.h", line 5
	//## File "inner.h", line 5 inlined at "warpsim.kir", line 9
        /*0040*/               @P0 BRA `(.L_x_0) ;                       /* 0x0000000000440947 */
                                                                         /* 0x000fea0003800000 */
)";

TEST_CASE("the controls are bits 41-61 of the high word: stall, yield, barriers, wait, reuse") {
  // 0x000ff00000000800 >> 41 = 0x7f8: stall 8 (bits 0-3), yield 1 (bit 4), write and read
  // barrier 7 (none), wait 0.
  const sass::Controls first = sass::decode_controls(0x000ff00000000800ull);
  CHECK(first.stall == 8);
  CHECK(first.yield);
  CHECK_FALSE(first.write_barrier.has_value());
  CHECK_FALSE(first.read_barrier.has_value());
  CHECK(first.wait_mask == 0);
  // LDG: 0x001ea2000c1e1900 >> 41 = 0x0f51: stall 1, yield 1, write barrier 2 (bits 5-7 =
  // 0b010), read 7, wait mask 0b000001 (bits 11-16: it waits for the LDC.64 of R6, which set
  // barrier 0).
  const sass::Controls load = sass::decode_controls(0x001ea2000c1e1900ull);
  CHECK(load.stall == 1);
  CHECK(load.write_barrier == std::optional<std::uint8_t>{2});
  CHECK_FALSE(load.read_barrier.has_value());
  CHECK(load.wait_mask == 0b000001);
  // Every field at its extreme: all 21 bits set is stall 15, yield, no barriers, wait all six,
  // reuse 15.
  const sass::Controls all = sass::decode_controls(0x1fffffull << 41);
  CHECK(all.stall == 15);
  CHECK(all.wait_mask == 0x3f);
  CHECK(all.reuse == 15);
  CHECK_FALSE(all.write_barrier.has_value());
}

TEST_CASE("a listing reads into functions, instructions, guards, operands and labels") {
  sass::ListingError error;
  const auto listing = sass::parse_listing(kListing, error);
  INFO(error.message);
  REQUIRE(listing.has_value());
  REQUIRE(listing->functions.size() == 1);
  const sass::SassFunction& k = listing->functions[0];
  CHECK(k.name == "k");
  REQUIRE(k.instructions.size() == 5);
  CHECK(k.instructions[1].opcode == "LDC.64");
  CHECK(k.instructions[1].base() == "LDC");
  CHECK(k.instructions[1].operands == "R6, c[0x0][0x210]");
  CHECK(k.instructions[1].controls.write_barrier == std::optional<std::uint8_t>{0});
  CHECK(k.instructions[3].low == 0x0000040606067981ull);
  CHECK(k.instructions[3].high == 0x001ea2000c1e1900ull);
  CHECK(k.instructions[4].guard == "@P0");
  CHECK(k.instructions[4].opcode == "BRA");
  CHECK(k.instructions[4].address == 0x40);
  // Line information applies to the instructions after it, up to the next.
  CHECK(k.instructions[0].source_file == "warpsim.kir");
  CHECK(k.instructions[0].source_line == 7);
  CHECK(k.instructions[3].source_line == 7);
  // Inlined code is placed at the outermost call of its chain, in the kernel's own file.
  CHECK(k.instructions[4].source_file == "warpsim.kir");
  CHECK(k.instructions[4].source_line == 9);
  REQUIRE(k.labels.size() == 1);
  CHECK(k.labels[0] == std::pair<std::string, std::uint32_t>{".L_x_0", 0x40});
}

TEST_CASE("nvdisasm's annotations are dropped from the operands, but a BRX's targets are kept") {
  // A spill's store as nvdisasm lists it (a kernel under __launch_bounds__ that spills), and an
  // indirect branch through a jump table.
  const std::string listing_text =
      std::string(kListing) +
      "        /*0050*/                   STL [R1+0x2c], R0              (*\"SpillRefill\"*); "
      "/* 0x00002c0001007387 */\n"
      "                                                                         /* "
      "0x0005e60000100800 */\n"
      "        /*0060*/                   BRX R2 -0x70        (*\"BRANCH_TARGETS .L_x_0\"*) ;"
      "    /* 0x0000000002007949 */\n"
      "                                                                         /* "
      "0x000fea0003800000 */\n";
  sass::ListingError error;
  const auto listing = sass::parse_listing(listing_text, error);
  INFO(error.message);
  REQUIRE(listing.has_value());
  const sass::SassFunction& k = listing->functions[0];
  REQUIRE(k.instructions.size() == 7);
  CHECK(k.instructions[5].opcode == "STL");
  CHECK(k.instructions[5].operands == "[R1+0x2c], R0");
  CHECK(k.instructions[6].operands == "R2 -0x70        (*\"BRANCH_TARGETS .L_x_0\"*)");
}

TEST_CASE("an instruction without its second encoding word is an error at its line") {
  std::string cut = kListing;
  cut.erase(cut.find("                                                                         /* "
                     "0x000e620000002100 */"),
            std::string("                                                                         "
                        "/* 0x000e620000002100 */\n")
                .size());
  sass::ListingError error;
  CHECK_FALSE(sass::parse_listing(cut, error).has_value());
  CHECK(error.message.find("second encoding word") != std::string::npos);
  CHECK(error.line == 13);  // the next instruction's line, where the word was expected
}

TEST_CASE("vecAdd's SASS: its two loads and one store, the add waiting for both loads") {
  if (!toolkit::find_program("ptxas") || !sass::find_disassembler()) {
    MESSAGE("ptxas or nvdisasm is not installed: the SASS of a real kernel is not checked here");
    return;
  }
  const KernelRun k = load_kernel("vecAdd.kir");
  const sass::SassBuild built = sass::build_sass(cuda::lower_to_ptx(k.loaded.module), "sm_90");
  INFO(built.error);
  REQUIRE(built.listing.has_value());
  const sass::SassFunction* f = built.listing->find("vecAdd");
  REQUIRE(f != nullptr);
  auto count = [&](std::string_view base) {
    return std::count_if(f->instructions.begin(), f->instructions.end(),
                         [&](const sass::SassInstruction& i) { return i.base() == base; });
  };
  // The IR's two ld.global and one st.global: ptxas keeps one SASS access each.
  CHECK(count("LDG") == 2);
  CHECK(count("STG") == 1);
  // Each load carries its IR line (vecAdd.kir: A's load at line 16, B's at 17).
  std::vector<std::uint32_t> load_lines;
  for (const sass::SassInstruction& i : f->instructions) {
    if (i.base() == "LDG") load_lines.push_back(i.source_line);
  }
  std::sort(load_lines.begin(), load_lines.end());
  CHECK(load_lines == std::vector<std::uint32_t>{16, 17});
  // The FADD of the two loaded values waits for the scoreboard each load releases.
  const auto fadd = std::find_if(f->instructions.begin(), f->instructions.end(),
                                 [](const sass::SassInstruction& i) { return i.base() == "FADD"; });
  REQUIRE(fadd != f->instructions.end());
  for (const sass::SassInstruction& i : f->instructions) {
    if (i.base() != "LDG") continue;
    REQUIRE(i.controls.write_barrier.has_value());
    const unsigned waits = fadd->controls.wait_mask;
    CHECK(((waits >> unsigned{*i.controls.write_barrier}) & 1u) == 1u);
  }
}

TEST_CASE("warpsim sass lists each kernel's SASS with its controls, or says what is missing") {
  CHECK(run_cli({"sass"}).exit_code == 2);  // no file
  if (!toolkit::find_program("ptxas") || !sass::find_disassembler()) {
    const auto r = run_cli({"sass", (source_dir() / "kernels_ir/vecAdd.kir").string()});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("is not installed") != std::string::npos);
    return;
  }
  const auto r = run_cli({"sass", (source_dir() / "kernels_ir/vecAdd.kir").string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("kernel vecAdd: ") != std::string::npos);
  CHECK(r.out.find(" STG.E ") != std::string::npos);
  CHECK(r.out.find("IR line 19: st.global.f32 C[%workIndex], %c") != std::string::npos);
}

TEST_CASE("warpsim sass --counts shows how many times a warp executed each instruction") {
  if (!toolkit::find_program("ptxas") || !sass::find_disassembler()) return;
  // vecAdd's launch block: 3907 blocks of 256 threads, 8 warps each, every warp executing the
  // first instruction once.
  const auto r = run_cli({"sass", (source_dir() / "kernels_ir/vecAdd.kir").string(), "--counts"});
  REQUIRE(r.exit_code == 0);
  std::uint64_t total = 0, first = 0, reported = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string address;
    std::uint64_t count = 0;
    if (line.find("warp instructions)") != std::string::npos) {
      reported = std::stoull(line.substr(line.rfind('(') + 1));
    } else if (words >> address >> count && address.size() == 5 &&
               address.find_first_not_of("0123456789abcdef") == std::string::npos) {
      if (total == 0) first = count;
      total += count;
    }
  }
  CHECK(first == 3907 * 8);
  CHECK(total == reported);  // the listing accounts for every executed instruction
  CHECK(reported > 32 * 10);
  // Without a launch for the kernel, --counts says so.
  const auto none =
      run_cli({"sass", (source_dir() / "kernels_cuda/coverage/warp_cg.cu").string(), "--counts"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no launch block names kernel") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("step --frontend sass shows the warp's SASS, its lanes and its convergence barriers") {
  if (!have_sass_tools("step --frontend sass")) return;
  const auto script = std::filesystem::temp_directory_path() / "warpsim_sass_step.txt";
  std::ofstream(script) << "c\n";
  // warp_divergence: lanes 0-15 and 16-31 take the two sides of a branch on the lane id. On
  // its SASS that is a guarded BRA after which 16 lanes run, each side to its own EXIT.
  const CommandResult r =
      run_cli({"step", (source_dir() / "kernels_ir" / "warp_divergence.kir").string(), "--frontend",
               "sass", "--script", script.string(), "--ascii"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("on its SASS") != std::string::npos);
  CHECK(r.out.find("BRA") != std::string::npos);
  CHECK(r.out.find("----------------################  16/32") != std::string::npos);
  CHECK(r.out.find("################................  16/32") != std::string::npos);
  CHECK(r.out.find("warp finished after") != std::string::npos);
  // A kernel whose SASS makes a convergence barrier shows it (BSSY's lanes, then BSYNC).
  const CommandResult hist = run_cli(
      {"step", (source_dir() / "kernels_cuda" / "textbook" / "histogram_shared.cu").string(),
       "--launch-file",
       (source_dir() / "kernels_cuda" / "textbook" / "histogram_shared.launch").string(),
       "--frontend", "sass", "--script", script.string(), "--ascii"});
  if (hist.exit_code == 0) {
    CHECK(hist.out.find("BSSY B0") != std::string::npos);
    CHECK(hist.out.find("B0  ################################  32 lanes") != std::string::npos);
  } else {
    MESSAGE("histogram_shared.cu not compiled (no nvcc?): " << hist.err);
  }
  CHECK(run_cli({"step", (source_dir() / "kernels_ir" / "vecAdd.kir").string(), "--frontend",
                 "sass", "--check", "race"})
            .exit_code == 2);
}

TEST_CASE("ptxas's resources: a called function's lines do not overwrite the kernel's") {
  // ptxas -v for a kernel whose double sin calls libdevice's slow path: the kernel's own frame,
  // then its cumulative stack size, then the called function's properties (0 bytes of its own).
  const std::string output =
      "ptxas info    : 272 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
      "ptxas info    : Function properties for k\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 28 registers, used 0 barriers, 40 bytes cumulative stack size\n"
      "ptxas info    : Function properties for __internal_trig_reduction_slowpathd\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  const auto resources = sass::parse_ptxas_resources(output);
  REQUIRE(resources.size() == 1);
  CHECK(resources.at("k").registers == 28);
  CHECK(resources.at("k").stack_frame == 40);  // the cumulative size: its frame and the callee's
}

}  // namespace warpsim::test

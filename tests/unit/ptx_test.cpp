// IR -> PTX: every seed kernel lowers, keeps one PTX memory instruction per IR memory
// instruction, and assembles with ptxas for sm_90 (when ptxas is installed).
#include "cuda_backend/ptx.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "sim/core/ir/frontend.hpp"
#include "sim/import/toolkit.hpp"
#include "tests/unit/test_support.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::test {
namespace {

std::size_t ir_memory_instructions(const ir::Module& m) {
  std::size_t n = 0;
  for (const ir::Kernel& k : m.kernels) {
    for (const ir::BasicBlock& b : k.blocks) {
      for (const ir::Instruction& i : b.instructions) {
        n += i.opcode == ir::Opcode::Ld || i.opcode == ir::Opcode::St ||
             i.opcode == ir::Opcode::Atom;
      }
    }
  }
  return n;
}

std::size_t ptx_memory_instructions(const std::string& ptx) {
  // ld/st/atom/red in a memory space, not ld.param (the kernel's arguments).
  const std::regex memory(
      R"(^\s+(ld|st|atom|red)\.(global|shared|const|local|shared::cluster)[.\s])");
  std::size_t n = 0;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);) n += std::regex_search(line, memory);
  return n;
}

TEST_CASE("every seed kernel lowers to PTX with one memory instruction per IR one") {
  for (const auto& file : files_in(source_dir() / "kernels_ir", ".kir")) {
    CAPTURE(file);
    const auto loaded = ir::load_module_file(file.string());
    REQUIRE(loaded.ok());
    const std::string ptx = cuda::lower_to_ptx(loaded.module);
    CHECK(ptx.find(".target sm_90") != std::string::npos);
    CHECK(ptx_memory_instructions(ptx) == ir_memory_instructions(loaded.module));
  }
}

TEST_CASE("float arithmetic keeps explicit rounding, so ptxas cannot fuse mul and add") {
  const auto loaded = ir::load_module_text(
      "f",
      "kernel k(o: ptr global f32) {\nentry:\n  %a = mul.f32 1.5, 2.5\n"
      "  %b = add.f32 %a, 1.0\n  %c = fma.f32 %a, %b, 1.0\n  st.global.f32 o[0], %c\n"
      "  ret\n}\n");
  REQUIRE(loaded.ok());
  const std::string ptx = cuda::lower_to_ptx(loaded.module);
  CHECK(ptx.find("mul.rn.f32") != std::string::npos);
  CHECK(ptx.find("add.rn.f32") != std::string::npos);
  CHECK(ptx.find("fma.rn.f32") != std::string::npos);
  CHECK(ptx.find("0f3FC00000") != std::string::npos);  // 1.5 exactly
}

TEST_CASE("every seed kernel's PTX assembles with ptxas -arch=sm_90") {
#ifdef WARPSIM_PTXAS
  for (const auto& file : files_in(source_dir() / "kernels_ir", ".kir")) {
    CAPTURE(file);
    const auto loaded = ir::load_module_file(file.string());
    REQUIRE(loaded.ok());
    const auto dir = std::filesystem::temp_directory_path();
    const auto ptx = dir / (file.stem().string() + ".ptx");
    std::ofstream(ptx) << cuda::lower_to_ptx(loaded.module);
    const std::string command = std::string(WARPSIM_PTXAS) + " -arch=sm_90 -o " +
                                (dir / (file.stem().string() + ".cubin")).string() + " " +
                                ptx.string();
    CHECK(std::system(command.c_str()) == 0);
  }
#else
  MESSAGE("ptxas not found when building: the PTX was not assembled");
#endif
}

TEST_CASE("kernels without clusters assemble for the configs' older and newer GPUs too") {
#ifdef WARPSIM_PTXAS
  // rtx3090 is sm_86, which has no %cluster_ctarank; cc100-example sm_100, which needs PTX 8.6.
  for (const char* target : {"sm_86", "sm_100"}) {
    for (const char* name : {"vecAdd", "saxpy", "smem_transpose", "warp_divergence"}) {
      CAPTURE(target);
      CAPTURE(name);
      const auto loaded = ir::load_module_file(
          (source_dir() / "kernels_ir" / (std::string(name) + ".kir")).string());
      REQUIRE(loaded.ok());
      const std::string text = cuda::lower_to_ptx(loaded.module, target);
      CHECK((text.find("%cluster_ctarank") == std::string::npos) == (target[3] == '8'));
      const auto dir = std::filesystem::temp_directory_path();
      const auto ptx = dir / (std::string(name) + "_" + target + ".ptx");
      std::ofstream(ptx) << text;
      const std::string command = std::string(WARPSIM_PTXAS) + " -arch=" + target + " -o " +
                                  (dir / (std::string(name) + "_" + target + ".cubin")).string() +
                                  " " + ptx.string();
      CHECK(std::system(command.c_str()) == 0);
    }
  }
#else
  MESSAGE("ptxas not found when building: the PTX was not assembled");
#endif
}

TEST_CASE("the PTX warpsim writes for an imported CUDA kernel assembles with ptxas (round trip)") {
#ifdef WARPSIM_PTXAS
  if (!toolkit::find_program("nvcc")) {
    MESSAGE("nvcc is not installed: the CUDA kernels are not imported here");
    return;
  }
  for (const auto& file : files_in(source_dir() / "kernels_cuda", ".cu")) {
    CAPTURE(file);
    const auto loaded = cli::load_kernel_file(file.string(), {});
    REQUIRE(loaded.ok());
    const auto dir = std::filesystem::temp_directory_path();
    const auto ptx = dir / (file.stem().string() + "_imported.ptx");
    std::ofstream(ptx) << cuda::lower_to_ptx(loaded.module);
    const std::string command = std::string(WARPSIM_PTXAS) + " -arch=sm_90 -o " +
                                (dir / (file.stem().string() + "_imported.cubin")).string() + " " +
                                ptx.string();
    CHECK(std::system(command.c_str()) == 0);
  }
#else
  MESSAGE("ptxas not found when building: the PTX was not assembled");
#endif
}

TEST_CASE("validate explains itself, and says why when it cannot reach a GPU") {
  const auto help = run_cli({"validate", "--help"});
  CHECK(help.exit_code == 0);
  // It says which counters are compared and why the bank-conflict ones are not.
  CHECK(help.out.find("must be equal") != std::string::npos);
  CHECK(help.out.find("cutlass issue 1882") != std::string::npos);
  const auto r = run_cli({"validate", (source_dir() / "kernels_ir/compute.kir").string()});
  if (r.exit_code == 2) {
    CHECK(r.err.find("cannot run") != std::string::npos);
    MESSAGE("no GPU here: " << r.err);
  } else {
    MESSAGE("a GPU answered; validate exited " << r.exit_code);
    CHECK(r.out.find("compute / compute") != std::string::npos);
  }
}

}  // namespace
}  // namespace warpsim::test

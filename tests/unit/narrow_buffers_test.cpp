// Launch buffers of 8- and 16-bit elements (u8, s8, u16, s16, f16, bf16): a CUDA kernel's char,
// short, __half and __nv_bfloat16 pointers read them as the GPU would, on both frontends.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "tests/unit/sass_only_run.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/textbook_support.hpp"

namespace warpsim::test {
namespace {

// Buffer `name`'s elements of `bytes` bytes each, zero-extended.
std::vector<std::uint32_t> narrow_values(const exec::GlobalMemory& memory, const std::string& name,
                                         unsigned bytes) {
  const exec::GlobalBuffer* b = memory.find(name);
  REQUIRE(b != nullptr);
  REQUIRE(b->bytes.size() % bytes == 0);
  std::vector<std::uint32_t> values(b->bytes.size() / bytes, 0);
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(&values[i], &b->bytes[i * bytes], bytes);
  return values;
}

// The kernel's outputs from the launch's inputs, computed as its source says in f32.
void check_narrow_outputs(const exec::GlobalMemory& initial, const exec::GlobalMemory& final) {
  const auto bytes = narrow_values(initial, "bytes", 1);
  const auto shorts = narrow_values(initial, "shorts", 2);
  const auto halves = narrow_values(initial, "halves", 2);
  const auto brains = narrow_values(initial, "brains", 2);
  const auto scaled = narrow_values(final, "scaled", 2);
  const auto sums = values_of<float>(final, "sums");
  REQUIRE(bytes.size() == 256);
  REQUIRE(sums.size() == 256);
  for (std::size_t i = 0; i < 256; ++i) {
    CAPTURE(i);
    if (i >= 250) {  // past n: as the launch made them
      CHECK(scaled[i] == 0);
      CHECK(sums[i] == 0.0f);
      continue;
    }
    CHECK(bytes[i] == i);  // u8[256] iota
    const auto h = static_cast<float>(
        exec::decode_half(static_cast<std::uint16_t>(halves[i]), ir::HalfFormat::F16));
    const auto b = static_cast<float>(
        exec::decode_half(static_cast<std::uint16_t>(brains[i]), ir::HalfFormat::BF16));
    // h * 0.5 is exact, so a fused multiply-add rounds as the separate add does.
    CHECK(scaled[i] == exec::encode_half(h * 0.5f + b, ir::HalfFormat::F16, ir::Rounding::Nearest));
    const auto s = static_cast<float>(static_cast<std::int16_t>(shorts[i]));
    const float want = static_cast<float>(bytes[i]) + s + h + b;
    CHECK(std::bit_cast<std::uint32_t>(sums[i]) == std::bit_cast<std::uint32_t>(want));
  }
}

TEST_CASE(
    "a CUDA kernel reads u8, s16, f16 and bf16 buffers and writes an f16 one, on both frontends") {
  if (!have_nvcc()) return;
  const auto path = source_dir() / "kernels_cuda" / "coverage" / "narrow_buffers.cu";
  cli::InputOptions input;
  input.launch_file = (path.parent_path() / "narrow_buffers.launch").string();
  KernelRun on_ir = resolved({cli::load_kernel_file(path.string(), input), {}, {}});
  check_narrow_outputs(on_ir.initial, on_ir.run().memory);
  if (!have_sass_tools("the SASS run is not checked")) return;
  const SassOnlyRun on_sass = run_sass_file(path, true);
  check_narrow_outputs(on_sass.kernel.initial, on_sass.result.memory);
}

TEST_CASE("import's launch template gives narrow pointers narrow buffers, and runs uncommented") {
  if (!have_nvcc()) return;
  const auto path = source_dir() / "kernels_cuda" / "coverage" / "narrow_buffers.cu";
  const CommandResult imported = run_cli({"import", path.string()});
  REQUIRE(imported.exit_code == 0);
  // unsigned char*, short*, __half*, __nv_bfloat16*; float* keeps the IR's own f32.
  for (const char* line :
       {"#   bytes = u8[256]", "#   shorts = s16[256]", "#   halves = f16[256]",
        "#   brains = bf16[256]", "#   scaled = f16[256]", "#   sums = f32[256]"}) {
    CAPTURE(line);
    CHECK(imported.out.find(line) != std::string::npos);
  }
  // Uncommented, the template is a launch the module runs.
  std::string module = imported.out;
  const std::size_t start = module.find("# launch ");
  REQUIRE(start != std::string::npos);
  for (std::size_t at = start; at != std::string::npos; at = module.find("\n# ", at)) {
    if (at != start) ++at;  // past the newline
    module.erase(at, 2);
  }
  const auto kir = std::filesystem::temp_directory_path() / "warpsim_narrow_template.kir";
  std::ofstream(kir) << module;
  const CommandResult ran = run_cli({"run", kir.string(), "--frontend", "ir"});
  CHECK(ran.exit_code == 0);
  CHECK(ran.err.empty());
  std::filesystem::remove(kir);
}

}  // namespace
}  // namespace warpsim::test

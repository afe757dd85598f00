// The cubin's constant-bank-4 relocations (sim/sass/cubin_relocations.hpp): a file that is not
// an ELF64 cubin is an error, never a guess; where ptxas is found, a kernel reaching two global
// variables gives one 64-bit relocation per variable, each naming it; the text form the tool
// cache keeps reads back equal.
#include "sim/sass/cubin_relocations.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "sim/import/toolkit.hpp"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

TEST_CASE("bytes that are no ELF64 cubin give an error, not relocations") {
  std::string error;
  CHECK_FALSE(sass::constant_relocations({}, error).has_value());
  CHECK(error.find("not a 64-bit little-endian ELF") != std::string::npos);
  // An ELF header whose section table lies past the end of the file.
  std::vector<std::uint8_t> header(80, 0);
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F', header[4] = 2, header[5] = 1;
  header[0x28] = 0xff, header[0x3a] = 64, header[0x3c] = 3, header[0x3e] = 1;
  error.clear();
  CHECK_FALSE(sass::constant_relocations(header, error).has_value());
  CHECK(error.find("cut short") != std::string::npos);
}

TEST_CASE("ptxas's cubin names each global variable a kernel reaches in constant bank 4") {
  const auto ptxas = toolkit::find_program("ptxas");
  if (!ptxas) return;  // CUDA toolkit absent: nothing to assemble
  const fs::path dir =
      fs::temp_directory_path() / ("warpsim_reloc_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.ptx") << R"(.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 first;
.global .align 4 .b8 second[8] = {1, 0, 0, 0, 2, 0, 0, 0};
.visible .entry k(.param .u64 k_out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [k_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u64 %rd3, second;
  ld.global.u32 %r1, [%rd3+4];
  mov.u64 %rd4, first;
  atom.global.add.u32 %r2, [%rd4], %r1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";
  const toolkit::ProgramRun run = toolkit::run_program(
      {*ptxas, "-arch=sm_90", "-o", (dir / "k.cubin").string(), (dir / "k.ptx").string()});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  std::ifstream file(dir / "k.cubin", std::ios::binary);
  const std::vector<std::uint8_t> cubin((std::istreambuf_iterator<char>(file)),
                                        std::istreambuf_iterator<char>());
  std::string error;
  const auto relocations = sass::constant_relocations(cubin, error);
  REQUIRE_MESSAGE(relocations.has_value(), error);
  // Two variables reached, each one 8-byte slot of the bank: two relocations, at distinct
  // 8-byte-aligned offsets, naming the two.
  std::set<std::string> names;
  std::set<std::uint32_t> offsets;
  for (const sass::ConstantRelocation& r : *relocations) {
    names.insert(r.symbol);
    offsets.insert(r.offset);
    CHECK(r.offset % 8 == 0);
  }
  CHECK(names == std::set<std::string>{"first", "second"});
  CHECK(offsets.size() == 2);
  // The cache's text form keeps every field.
  const auto again = sass::parse_relocations_text(sass::relocations_text(*relocations));
  REQUIRE(again.size() == relocations->size());
  for (std::size_t i = 0; i < again.size(); ++i) {
    CHECK(again[i].offset == (*relocations)[i].offset);
    CHECK(again[i].symbol == (*relocations)[i].symbol);
    CHECK(again[i].addend == (*relocations)[i].addend);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace warpsim::test

// Launch buffers beyond zero/iota/constant/random: permutation(seed), sorted(seed, range),
// file("x.npy" or raw) and elements narrower than 32 bits, each checked against its definition,
// and every way a value or a file can fail to fit its buffer reported at the launch argument.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <type_traits>

#include "sim/core/exec/half_float.hpp"
#include "sim/core/ir/printer.hpp"
#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

// A kernel that leaves its buffer as the launch made it; `buffer` is the launch argument.
std::string module_with(const std::string& buffer, const std::string& element = "s32") {
  return "kernel keep(data: ptr global " + element +
         ") {\nentry:\n  ret\n}\n"
         "launch keep grid(1) block(32) {\n  data = " +
         buffer + "\n}\n";
}

ir::LoadedModule load(const std::string& buffer, const std::string& element = "s32") {
  return ir::load_module_text("buffers.kir", module_with(buffer, element));
}

std::string diagnostics(const ir::LoadedModule& m) {
  std::ostringstream out;
  m.diags.render(out);
  return out.str();
}

// The buffer's first `count` elements as the launch leaves them.
template <typename T>
std::vector<T> initial_values(const std::string& buffer, std::size_t count) {
  const KernelRun k = resolved({load(buffer, std::is_same_v<T, float> ? "f32" : "s32"), {}, {}});
  const exec::GlobalBuffer* b = k.initial.find("data");
  REQUIRE(b != nullptr);
  REQUIRE(b->bytes.size() == count * sizeof(T));
  std::vector<T> values(count);
  std::memcpy(values.data(), b->bytes.data(), b->bytes.size());
  return values;
}

// A temporary file holding `bytes`, removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  TempFile(const std::string& name, const std::string& bytes)
      : path(std::filesystem::temp_directory_path() / ("warpsim_test_" + name)) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove(path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

// A version-1 .npy file as NumPy writes one: magic, version 1.0, the header's length (little
// endian) and the header dict padded with spaces to end the header on a 64-byte boundary.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string bytes_of(const std::vector<std::int32_t>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(std::int32_t)};
}

TEST_CASE("permutation(seed) holds 0 .. count-1 once each, in an order its seed fixes") {
  const auto a = initial_values<std::int32_t>("s32[1000] permutation(seed = 7)", 1000);
  std::vector<std::int32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int32_t> identity(1000);
  std::iota(identity.begin(), identity.end(), 0);
  CHECK(sorted == identity);
  CHECK(a != identity);  // 1/1000! of the seeds would give the identity
  CHECK(a == initial_values<std::int32_t>("s32[1000] permutation(seed = 7)", 1000));
  CHECK(a != initial_values<std::int32_t>("s32[1000] permutation(seed = 8)", 1000));
}

TEST_CASE("sorted(seed, range) holds random(seed, range)'s values in ascending order") {
  const auto s = initial_values<std::int32_t>("s32[500] sorted(seed = 3, min = 10, max = 90)", 500);
  auto r = initial_values<std::int32_t>("s32[500] random(seed = 3, min = 10, max = 90)", 500);
  std::sort(r.begin(), r.end());
  CHECK(s == r);
  CHECK(s.front() >= 10);
  CHECK(s.back() < 90);
}

TEST_CASE("a random range may give either bound alone, the other the type's default") {
  // The defaults are [0, 100) for integers and [0, 1) for floats: max alone keeps min 0, min
  // alone keeps max 100 (1 for floats), each the same draws as the range written out.
  CHECK(initial_values<std::int32_t>("s32[64] random(seed = 4, max = 7)", 64) ==
        initial_values<std::int32_t>("s32[64] random(seed = 4, min = 0, max = 7)", 64));
  CHECK(initial_values<std::int32_t>("s32[64] random(seed = 4, min = 90)", 64) ==
        initial_values<std::int32_t>("s32[64] random(seed = 4, max = 100, min = 90)", 64));
  CHECK(initial_values<float>("f32[64] random(seed = 4, min = -1)", 64) ==
        initial_values<float>("f32[64] random(seed = 4, min = -1, max = 1)", 64));
  // A half drawn from the default range is the f32 draw rounded to nearest (below 1, it stays
  // there): the bound left out is 1, not 0.
  const auto halves = initial_values<std::uint16_t>("f16[256] random(seed = 6)", 256);
  const auto floats = initial_values<float>("f32[256] random(seed = 6)", 256);
  for (std::size_t i = 0; i < halves.size(); ++i) {
    CAPTURE(i);
    CHECK(halves[i] == exec::encode_half(floats[i], ir::HalfFormat::F16, ir::Rounding::Nearest));
  }
}

TEST_CASE("a random range's bounds are checked where they are written") {
  struct BoundCase {
    std::string buffer, says;
  };
  const BoundCase cases[] = {
      {"f32[4] random(seed = 1, min = 2)", "random range needs min < max"},  // max is 1
      {"s32[4] random(seed = 1, max = 5, max = 6)", "duplicate 'max' in the random range"},
      {"s32[4] random(seed = 1, low = 3)", "expected 'min = VALUE' or 'max = VALUE'"},
      {"s32[4] permutation(seed = 1, max = 3)", "a permutation takes a seed only"},
  };
  for (const BoundCase& c : cases) {
    CAPTURE(c.buffer);
    const ir::LoadedModule m = load(c.buffer);
    CHECK(m.diags.has_errors());
    CHECK(diagnostics(m).find(c.says) != std::string::npos);
  }
}

TEST_CASE("file() reads a .npy file's elements and a raw file's bytes") {
  const std::vector<std::int32_t> values = {5, -1, 7, 1 << 30, 0, 42};
  const TempFile numpy("six.npy", npy("<i4", "(2, 3)", bytes_of(values)));
  const TempFile raw("six.bin", bytes_of(values));
  CHECK(initial_values<std::int32_t>("s32[6] file(\"" + numpy.path.string() + "\")", 6) == values);
  CHECK(initial_values<std::int32_t>("s32[6] file(\"" + raw.path.string() + "\")", 6) == values);
}

TEST_CASE("a relative file path is relative to the file holding the launch block") {
  const std::vector<std::int32_t> values = {1, 2, 3};
  const TempFile raw("three.bin", bytes_of(values));
  const std::string launch_file = (raw.path.parent_path() / "launches.kir").string();
  const ir::LoadedModule m =
      ir::load_module_text(launch_file, module_with("s32[3] file(\"warpsim_test_three.bin\")"));
  CHECK_FALSE(m.diags.has_errors());
  REQUIRE(m.module.launches.size() == 1);
  const auto& spec = std::get<ir::BufferSpec>(m.module.launches[0].args[0].value);
  CHECK(std::filesystem::path(spec.file) == raw.path);
}

TEST_CASE("narrow buffers hold an integer's low bytes and a float rounded to nearest even") {
  // u8 iota: 0 .. 255, then 0 again (each element the low byte of its index).
  const auto bytes = initial_values<std::uint8_t>("u8[258] iota", 258);
  CHECK(bytes[255] == 255);
  CHECK(bytes[256] == 0);
  CHECK(bytes[257] == 1);
  // -2 as 16 bits: 0xfffe.
  CHECK(initial_values<std::uint16_t>("s16[2] constant(-2)", 2) ==
        std::vector<std::uint16_t>{0xfffe, 0xfffe});
  // 0.1 = 1.6 * 2^-4: exponent -4 + 15 = 0b01011, mantissa 0.6 * 1024 = 614.4 -> 614 = 0x266:
  // 0 01011 1001100110 = 0x2e66.
  CHECK(initial_values<std::uint16_t>("f16[1] constant(0.1)", 1)[0] == 0x2e66);
  // bfloat16 is f32's top half: 1.5f is 0x3fc00000.
  CHECK(initial_values<std::uint16_t>("bf16[1] constant(1.5)", 1)[0] == 0x3fc0);
  // Rounded to half, a random value stays below max: f16's values in [0.5, 1) are 2^-11 apart,
  // so the f32 draws in the last 2^-12 below 1.0 would round up to it.
  const auto halves =
      initial_values<std::uint16_t>("f16[4096] random(seed = 9, min = 0.5, max = 1)", 4096);
  CHECK(std::all_of(halves.begin(), halves.end(), [](std::uint16_t h) {
    return h >= 0x3800 && h < 0x3c00;  // 0.5 (0x3800) <= h < 1.0 (0x3c00)
  }));
  CHECK(std::count(halves.begin(), halves.end(), halves[0]) < 100);  // spread, not one value
}

TEST_CASE("a narrow buffer prints as it was written, and reads a .npy file of its dtype") {
  const ir::LoadedModule m = load("f16[3] constant(0.5)");
  REQUIRE_FALSE(m.diags.has_errors());
  CHECK(ir::to_string(m.module).find("data = f16[3] constant(0.5)") != std::string::npos);
  const std::string shorts = std::string("\x01\x00\xff\xff\x00\x80", 6);  // 1, -1, -32768
  const TempFile numpy("three.npy", npy("<i2", "(3,)", shorts));
  const auto values =
      initial_values<std::int16_t>("s16[3] file(\"" + numpy.path.string() + "\")", 3);
  CHECK(values == std::vector<std::int16_t>{1, -1, -32768});
}

TEST_CASE("a file that does not fit its buffer is an error at the argument, saying why") {
  const std::vector<std::int32_t> six = {1, 2, 3, 4, 5, 6};
  const TempFile floats("floats.npy", npy("<f4", "(6,)", bytes_of(six)));
  const TempFile fortran("fortran.npy", [&] {
    std::string f = npy("<i4", "(2, 3)", bytes_of(six));
    const auto at = f.find("False");
    return f.replace(at, 5, "True ");
  }());
  const TempFile raw("short.bin", bytes_of(six));
  struct Case {
    std::string buffer, says;
  };
  const Case cases[] = {
      {"s32[6] file(\"" + floats.path.string() + "\")", "holds dtype '<f4', not s32 ('<i4')"},
      {"s32[5] file(\"" + raw.path.string() + "\")", "holds 24 bytes; 5 raw s32 elements are 20"},
      {"s32[6] file(\"" + fortran.path.string() + "\")", "Fortran order"},
      {"s32[4] file(\"/nonexistent/x.npy\")", "cannot be read"},
      {"f32[4] permutation(seed = 1)", "a permutation is of integers"},
      // 256 is one past u8's largest; 65504 is f16's largest finite value.
      {"u8[4] constant(256)", "constant 256 does not fit u8"},
      {"s8[4] random(seed = 1, min = -129, max = 0)", "random range does not fit s8"},
      {"f16[4] random(seed = 1, min = 0, max = 70000)", "random range does not fit f16"},
      // s16 holds 0 .. 32767 but not 0 .. 32768.
      {"s16[32769] permutation(seed = 1)", "a permutation of 32769 does not fit s16"},
      {"f16[2] file(\"" + floats.path.string() + "\")", "holds dtype '<f4', not f16 ('<f2')"},
      {"bf16[2] file(\"" + floats.path.string() + "\")", "NumPy has no such dtype"},
      {"u16[7] file(\"" + raw.path.string() + "\")", "holds 24 bytes; 7 raw u16 elements are 14"},
      {"f16[4] sorted(seed = 1, min = 0.5, max = 0.25)", "random range needs min < max"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.buffer);
    const ir::LoadedModule m = load(c.buffer);
    const std::string text = diagnostics(m);
    CHECK(m.diags.has_errors());
    CHECK(text.find(c.says) != std::string::npos);
    CHECK(text.find("buffers.kir:6:3: error") != std::string::npos);  // the argument's line
  }
}

}  // namespace
}  // namespace warpsim::test

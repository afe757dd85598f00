// NaN results as the H200 gives them (sim/core/exec/gpu_nan.hpp): the special-values kernel
// (kernels_cuda/specials/float_specials.cu) run by warpsim against the bits the H200 gave for
// it (validation/h200/results/nan_bits/nan_bits.txt, from validation/h200/nan_probe.cu).
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

// "f32 3 7fffffff" lines: (kind, index) -> bits.
std::map<std::pair<std::string, unsigned>, std::uint64_t> measured_bits() {
  std::ifstream in(source_dir() / "validation/h200/results/nan_bits/nan_bits.txt");
  std::map<std::pair<std::string, unsigned>, std::uint64_t> bits;
  std::string kind, hex;
  unsigned index = 0;
  while (in >> kind >> index >> hex) bits[{kind, index}] = std::stoull(hex, nullptr, 16);
  return bits;
}

template <typename T>
std::vector<T> read_words(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<T> words;
  T w{};
  while (in.read(reinterpret_cast<char*>(&w), sizeof w)) words.push_back(w);
  return words;
}

// The results that differ from the H200's when run by `frontend`: "f32 3", ...
std::vector<std::string> differences(const std::string& frontend) {
  const auto dir = std::filesystem::temp_directory_path() / ("warpsim_nan_" + frontend);
  std::filesystem::create_directories(dir);
  const auto kernel = source_dir() / "kernels_cuda/specials/float_specials.cu";
  const auto r = run_cli({"run", kernel.string(), "--launch-file",
                          (source_dir() / "kernels_cuda/specials/float_specials.launch").string(),
                          "--frontend", frontend, "--dump", "out=" + (dir / "out").string(),
                          "--dump", "dout=" + (dir / "dout").string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto out = read_words<std::uint32_t>(dir / "out");
  const auto dout = read_words<std::uint64_t>(dir / "dout");
  REQUIRE(out.size() == 64);
  REQUIRE(dout.size() == 48);
  const auto gpu = measured_bits();
  std::vector<std::string> differ;
  std::size_t compared = 0;
  for (const auto& [key, bits] : gpu) {
    const bool f32 = key.first == "f32";
    REQUIRE(key.second < (f32 ? out[63] : dout[47]));
    const std::uint64_t got = f32 ? out[key.second] : dout[key.second];
    if (got != bits) differ.push_back(key.first + " " + std::to_string(key.second));
    ++compared;
  }
  CHECK(compared == out[63] + dout[47]);  // every result the kernel wrote was measured
  return differ;
}

TEST_CASE("NaN, infinity and signed-zero results equal the H200's on the IR") {
  if (!toolkit::find_program("nvcc")) return;
  // All 78 but one: f64 result 21, __fma_rn(dp2, dp, 1) with two NaN payloads, where the GPU
  // gives the one ptxas placed second in its DFMA and the IR the first in PTX order.
  CHECK(differences("ir") == std::vector<std::string>{"f64 21"});
}

TEST_CASE("NaN, infinity and signed-zero results equal the H200's on the SASS frontend") {
  if (!toolkit::find_program("nvcc") || !have_sass_tools("the NaN bits are not compared")) return;
  CHECK(differences("sass").empty());
}

}  // namespace
}  // namespace warpsim::test

// Shared-memory banks: the seed's figure 15 and 16 patterns through `warpsim banks`, wider
// accesses, and the wavefront rule on its own.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <regex>

#include "sim/memory/shared_banks.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

struct BankResult {
  unsigned wavefronts, ideal, conflicts;
};

BankResult banks(std::vector<std::string> args) {
  args.insert(args.begin(), "banks");
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::smatch m;
  const std::regex summary(R"(wavefronts (\d+) \(ideal (\d+)\), bank conflicts (\d+))");
  REQUIRE(std::regex_search(r.out, m, summary));
  return {static_cast<unsigned>(std::stoul(m[1])), static_cast<unsigned>(std::stoul(m[2])),
          static_cast<unsigned>(std::stoul(m[3]))};
}

TEST_CASE("figure 15: stride 1 and 3 are conflict-free, stride 2 is a 2-way conflict") {
  // Stride s puts lane l at word s*l, bank (s*l) % 32; s = 1 and 3 are odd, so the 32 lanes
  // cover all 32 banks; s = 2 puts lanes l and l+16 in the same bank.
  CHECK(banks({"--array", "f32[32]", "--index", "[lane]"}).conflicts == 0);
  const auto two = banks({"--array", "f32[64]", "--index", "[lane*2]"});
  CHECK(two.wavefronts == 2);
  CHECK(two.conflicts == 1);
  CHECK(banks({"--array", "f32[96]", "--index", "[lane*3]"}).conflicts == 0);
}

TEST_CASE("figure 16: a permutation, a partial broadcast and a full broadcast are conflict-free") {
  // (7 * lane) % 32 is a permutation of 0..31, since 7 is odd: one word per bank.
  CHECK(banks({"--array", "f32[32]", "--index", "[(lane*7)%32]"}).conflicts == 0);
  // Lanes 3, 4, 6, 7, 9 reading one word of bank 5, the rest their own banks: the figure's
  // middle panel. Lanes in that set read word 5; lane l otherwise reads word l.
  CHECK(banks({"--array", "f32[32]", "--index",
               "[lane + (5 - lane) * ((lane==3)+(lane==4)+(lane==6)+(lane==7)+(lane==9))]"})
            .conflicts == 0);
  // Groups of four lanes share a word (lane / 4): eight words in eight banks.
  CHECK(banks({"--array", "f32[32]", "--index", "[lane/4]"}).conflicts == 0);
  // Every lane reads word 5: one broadcast.
  const auto all = banks({"--array", "f32[32]", "--index", "[5]"});
  CHECK(all.wavefronts == 1);
  CHECK(all.conflicts == 0);
}

TEST_CASE("figure 17: a 32x32 tile read down a column is 32-way; padded to 33 it is free") {
  const auto column = banks({"--array", "f32[32][32]", "--index", "[lane][0]"});
  CHECK(column.wavefronts == 32);
  CHECK(column.conflicts == 31);
  CHECK(banks({"--array", "f32[32][33]", "--index", "[lane][0]"}).conflicts == 0);
  // The transpose's store in a 32x32 block: warp w has tid.y = w, tid.x = lane.
  CHECK(banks({"--array", "f32[32][32]", "--index", "[tid.x][tid.y]", "--block", "32,32", "--warp",
               "5"})
            .conflicts == 31);
}

TEST_CASE("conflict-free 64- and 128-bit accesses take 2 and 4 wavefronts, 0 conflicts") {
  // 64-bit: each half-warp's 16 lanes cover 32 consecutive words, every bank once.
  const auto w64 = banks({"--array", "f64[32]", "--index", "[lane]"});
  CHECK(w64.wavefronts == 2);
  CHECK(w64.ideal == 2);
  CHECK(w64.conflicts == 0);
  // 128-bit (float4): each quarter-warp's 8 lanes cover 32 consecutive words.
  const auto w128 = banks({"--array", "f32[128]", "--index", "[lane*4]", "--vector", "4"});
  CHECK(w128.wavefronts == 4);
  CHECK(w128.conflicts == 0);
}

TEST_CASE("random permutations of 32 words are conflict-free") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::uint64_t> words(32);
    std::iota(words.begin(), words.end(), 0);
    std::shuffle(words.begin(), words.end(), rng);
    std::uint64_t offsets[32];
    for (unsigned l = 0; l < 32; ++l) offsets[l] = words[l] * 4;
    CHECK(memory::shared_wavefronts(offsets, 0xffffffffu, 4).conflicts() == 0);
  }
}

TEST_CASE("a 64-bit access with stride 2 conflicts") {
  // Lane l reads words 4l and 4l+1; in a half-warp lanes l and l+8 share banks: 2 wavefronts
  // per half-warp, 4 in all against an ideal of 2.
  const auto r = banks({"--array", "f64[64]", "--index", "[lane*2]"});
  CHECK(r.wavefronts == 4);
  CHECK(r.conflicts == 2);
}

TEST_CASE("the wavefront rule counts distinct words, and only active lanes") {
  std::uint64_t offsets[32];
  for (unsigned l = 0; l < 32; ++l) offsets[l] = l * 128;  // every lane in bank 0
  CHECK(memory::shared_wavefronts(offsets, 0xffffffffu, 4).wavefronts == 32);
  CHECK(memory::shared_wavefronts(offsets, 0x0000000fu, 4).wavefronts == 4);
  CHECK(memory::shared_wavefronts(offsets, 0x00000001u, 4).conflicts() == 0);
  // A 64-bit access from the first half-warp only: one phase, ideal 1.
  for (unsigned l = 0; l < 32; ++l) offsets[l] = l * 8;
  const auto half = memory::shared_wavefronts(offsets, 0x0000ffffu, 8);
  CHECK(half.wavefronts == 1);
  CHECK(half.ideal == 1);
}

TEST_CASE("banks --svg draws one row per wavefront and one column per bank") {
  const auto path = std::filesystem::temp_directory_path() / "warpsim_banks.svg";
  const auto r =
      run_cli({"banks", "--array", "f32[32][32]", "--index", "[lane][0]", "--svg", path.string()});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(path);
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("wavefront 32<") != std::string::npos);
  CHECK(svg.find("wavefront 33<") == std::string::npos);
  CHECK(svg.find(">L31<") != std::string::npos);
}

TEST_CASE("banks rejects bad arrays, indices and shapes with exit 2") {
  CHECK(run_cli({"banks", "--array", "f16[32]", "--index", "[lane]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[0]", "--index", "[lane]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[lane][0]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[lane+1]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[lane/0]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[foo]"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[lane"}).exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]", "--index", "[lane*99999999999*99999999999]"})
            .exit_code == 2);
  CHECK(run_cli({"banks", "--array", "f32[32]"}).exit_code == 2);
}

}  // namespace
}  // namespace warpsim::test

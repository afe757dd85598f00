// The memory counting rules the H200 follows where lanes share addresses (docs/memory.md), each
// expected count derived from the rule, and the calibration launches that measured them
// (kernels_ir/calibration/memory_rules.kir) reproduced counter for counter.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/memory/coalescing.hpp"
#include "sim/memory/shared_banks.hpp"
#include "tests/unit/sass_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

using memory::SharedAccess;

// Byte offsets of 32 lanes, lane l at element index(l) of `bytes`-byte elements.
template <typename F>
std::array<std::uint64_t, 32> offsets(unsigned bytes, F index) {
  std::array<std::uint64_t, 32> o{};
  for (unsigned l = 0; l < 32; ++l) o[l] = static_cast<std::uint64_t>(index(l)) * bytes;
  return o;
}

unsigned wavefronts(const std::array<std::uint64_t, 32>& o, unsigned bytes,
                    SharedAccess access = SharedAccess::Load) {
  const auto r = memory::shared_wavefronts(o.data(), 0xffffffffu, bytes, access);
  // The picture's map says the same as the counter.
  const auto map = memory::bank_map(o.data(), 0xffffffffu, bytes, access);
  CHECK(map.wavefronts == r.wavefronts);
  CHECK(map.passes == r.ideal);
  return r.wavefronts;
}

TEST_CASE("64-bit loads: the two halves share a wavefront when their banks or addresses allow") {
  // All lanes on one f64: each half asks banks 0-1 for words 0-1, one address both ask for:
  // one wavefront (a store of the same takes one per half).
  const auto same = offsets(8, [](unsigned) { return 0u; });
  CHECK(wavefronts(same, 8) == 1);
  CHECK(wavefronts(same, 8, SharedAccess::Store) == 2);
  // Lane l at element l / 2: half 0 reads elements 0-7 (banks 0-15), half 1 elements 8-15
  // (banks 16-31): no bank asked by both, one wavefront.
  CHECK(wavefronts(offsets(8, [](unsigned l) { return l / 2; }), 8) == 1);
  // Lane l at element l % 16: both halves read the same 16 elements, all 32 banks; 16
  // addresses asked by both is more than two, so the halves take one wavefront each.
  CHECK(wavefronts(offsets(8, [](unsigned l) { return l % 16; }), 8) == 2);
  // Lane l at element l % 2: two addresses asked by both halves, in different banks: one.
  CHECK(wavefronts(offsets(8, [](unsigned l) { return l % 2; }), 8) == 1);
  // Elements 0 and 16 alternating: both in banks 0-1, so each half takes 2 and nothing merges.
  CHECK(wavefronts(offsets(8, [](unsigned l) { return (l % 2) * 16; }), 8) == 4);
  // Stride 1: half 1's words 32-63 sit in half 0's banks: 2, as without sharing.
  CHECK(wavefronts(offsets(8, [](unsigned l) { return l; }), 8) == 2);
}

TEST_CASE("128-bit loads: quarters 0-1 and 2-3 pair up the same way, the halves never") {
  // One address: each quarter takes 1, each pair shares one: 2.
  CHECK(wavefronts(offsets(16, [](unsigned) { return 0u; }), 16) == 2);
  // Lane l at element l % 4: the quarters of a pair ask for the same 4 addresses (more than
  // two): 4.
  CHECK(wavefronts(offsets(16, [](unsigned l) { return l % 4; }), 16) == 4);
  // Half 0 on element 0, half 1 on element 8 (the same banks): each pair merges, 2.
  CHECK(wavefronts(offsets(16, [](unsigned l) { return l < 16 ? 0u : 8u; }), 16) == 2);
  // Stride 1: each quarter covers all 32 banks, quarter 1 with other words: 4.
  CHECK(wavefronts(offsets(16, [](unsigned l) { return l; }), 16) == 4);
}

TEST_CASE("shared atomics serve every lane apart, compare-and-swap twice, an increment merges") {
  const auto one_word = offsets(4, [](unsigned) { return 0u; });
  CHECK(wavefronts(one_word, 4, SharedAccess::Atomic) == 32);  // 32 lanes in bank 0
  CHECK(wavefronts(one_word, 4, SharedAccess::CompareSwap) == 64);
  CHECK(wavefronts(one_word, 4, SharedAccess::CountingIncrement) == 1);  // one word
  // Lanes 2k and 2k+1 on word k (bank k): 2 lanes per bank.
  const auto pairs = offsets(4, [](unsigned l) { return l / 2; });
  CHECK(wavefronts(pairs, 4, SharedAccess::Atomic) == 2);
  CHECK(wavefronts(pairs, 4, SharedAccess::CountingIncrement) == 1);
  // 8 words of bank 0, 4 lanes each: 32 lanes, or 8 distinct words for the increment.
  const auto quads = offsets(4, [](unsigned l) { return (l / 4) * 32; });
  CHECK(wavefronts(quads, 4, SharedAccess::Atomic) == 32);
  CHECK(wavefronts(quads, 4, SharedAccess::CountingIncrement) == 8);
  // Distinct words in distinct banks: one wavefront whatever the operation.
  CHECK(wavefronts(offsets(4, [](unsigned l) { return l; }), 4, SharedAccess::Atomic) == 1);
}

TEST_CASE("a global atomic counts each sector once per lane on its most contended word") {
  const auto sectors = [](auto index) {
    const auto o = offsets(4, index);
    return memory::atomic_sectors(o.data(), 0xffffffffu);
  };
  CHECK(sectors([](unsigned) { return 0u; }) == 32);                  // 32 lanes on one word
  CHECK(sectors([](unsigned l) { return l % 8; }) == 4);              // one sector, 4 lanes a word
  CHECK(sectors([](unsigned l) { return l / 2; }) == 4);              // 2 sectors, 2 lanes a word
  CHECK(sectors([](unsigned l) { return l; }) == 4);                  // 4 sectors, as coalesced
  CHECK(sectors([](unsigned l) { return l * 8; }) == 32);             // a sector per lane
  CHECK(sectors([](unsigned l) { return l < 16 ? 0u : 1u; }) == 16);  // 16 lanes a word
}

// The committed H200 run: launch -> metric -> measured value.
std::map<std::string, std::map<std::string, std::string>> measured_memory_rules() {
  std::map<std::string, std::map<std::string, std::string>> m;
  std::ifstream in(source_dir() / "validation/h200/memory_rules/memory_rules.csv");
  std::string line;
  std::getline(in, line);  // header: kernel,launch,metric,simulated,measured,verdict
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = csv_fields(line);
    if (cells.size() >= 5) m[cells[1]][cells[2]] = cells[4];
  }
  return m;
}

// The GPU ran the SASS ptxas made of the lowered kernel: the IR executor's rules and the SASS
// executor's must both give its counts.
void check_memory_rules(const std::string& frontend) {
  CAPTURE(frontend);
  const auto measured = measured_memory_rules();
  REQUIRE(measured.size() == 120);
  const std::string file = (source_dir() / "kernels_ir/calibration/memory_rules.kir").string();
  const char* metrics[] = {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum",
                           "smsp__sass_inst_executed_op_shared_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"};
  std::size_t compared = 0;
  for (const auto& [launch, values] : measured) {
    // ptxas compiles 64-bit shared atomics to compare-and-swap loops whose trips depend on
    // contention: not one IR instruction's count (docs/memory.md), but the SASS run's.
    const bool spin_loop = launch.find("_u64_") != std::string::npos && launch[0] == 's';
    if (spin_loop && frontend == "ir") continue;
    const auto r =
        run_cli({"run", file, "--launch", launch, "--frontend", frontend, "--json", "-"});
    REQUIRE(r.exit_code == 0);
    const auto sim = nlohmann::json::parse(r.out)["metrics"];
    for (const char* metric : metrics) {
      const auto it = values.find(metric);
      if (it == values.end()) continue;
      CAPTURE(launch);
      CAPTURE(metric);
      CHECK(std::to_string(sim[metric].get<std::uint64_t>()) == it->second);
      ++compared;
    }
  }
  // 112 launches without 64-bit shared atomics, each with all six metrics in the table; on the
  // SASS also the 8 with them.
  CHECK(compared == (frontend == "ir" ? 672 : 720));
}

TEST_CASE("the memory-rule calibration launches give the H200's counters") {
  check_memory_rules("ir");
}

TEST_CASE("the memory-rule calibration launches give the H200's counters on their SASS") {
  if (!have_sass_tools("the SASS run's memory counters are not compared")) return;
  check_memory_rules("sass");
}

}  // namespace
}  // namespace warpsim::test

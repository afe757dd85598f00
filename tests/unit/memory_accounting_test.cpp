// Sectors per request and shared-memory wavefronts for the seed kernels (seed §2.3.4), at the
// seed's sizes, and for strided and misaligned global loads.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/unit/run_support.hpp"

namespace warpsim::test {
namespace {

// Each seed kernel runs once, whatever number of test cases look at it.
const exec::LaunchStats& stats_of(const std::string& file) {
  static std::map<std::string, exec::LaunchStats> cache;
  auto it = cache.find(file);
  if (it == cache.end()) it = cache.emplace(file, load_kernel(file).run().stats).first;
  return it->second;
}

// The per-line stats of the memory instruction on IR line `line` of `file`.
exec::MemoryLineStats line_stats(const std::string& file, std::uint32_t line) {
  const auto k = load_kernel(file);
  const auto& stats = stats_of(file);
  std::size_t i = 0;
  for (const ir::BasicBlock& b : k.spec.kernel->blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      if (inst.loc.line == line) return stats.per_memory[i];
      ++i;
    }
  }
  FAIL("no instruction on line " << line);
  return {};
}

double per_request(const exec::GlobalOpStats& g) {
  return static_cast<double>(g.sectors) / static_cast<double>(g.requests);
}

constexpr auto kLoad = static_cast<std::size_t>(exec::GlobalOp::Load);
constexpr auto kStore = static_cast<std::size_t>(exec::GlobalOp::Store);

TEST_CASE("vecAdd: every global load and store takes 4 sectors per request") {
  // 32 consecutive floats = 128 bytes = 4 sectors of 32 bytes (seed figure 12).
  const auto& m = stats_of("vecAdd.kir").memory;
  CHECK(per_request(m.global[kLoad]) == 4.0);
  CHECK(per_request(m.global[kStore]) == 4.0);
  for (std::uint32_t line : {16u, 17u, 19u}) {  // the loads of A and B, the store of C
    const auto s = line_stats("vecAdd.kir", line);
    CHECK(s.sectors == 4 * s.requests);
  }
}

TEST_CASE("naive transpose: loads take 4 sectors per request, stores 32") {
  // The store's consecutive lanes are m = 2048 floats apart: one sector each (seed figure 13).
  const auto& m = stats_of("cuda_transpose.kir").memory;
  CHECK(per_request(m.global[kLoad]) == 4.0);
  CHECK(per_request(m.global[kStore]) == 32.0);
}

TEST_CASE("smem_transpose 32x32: coalesced global accesses, a 32-way conflicting shared store") {
  const auto& m = stats_of("smem_transpose.kir").memory;
  CHECK(per_request(m.global[kLoad]) == 4.0);
  CHECK(per_request(m.global[kStore]) == 4.0);
  const auto& st = m.shared[static_cast<std::size_t>(exec::SharedOp::Store)];
  const auto& ld = m.shared[static_cast<std::size_t>(exec::SharedOp::Load)];
  // smemArray[tid.x][tid.y]: lanes 32 words apart, all in one bank: 32 wavefronts, 31 extra.
  CHECK(st.wavefronts == 32 * st.instructions);
  CHECK(st.conflicts() == 31 * st.instructions);
  // smemArray[tid.y][tid.x]: consecutive words, 32 banks: 1 wavefront.
  CHECK(ld.wavefronts == ld.instructions);
  CHECK(ld.conflicts() == 0);
}

TEST_CASE("the per-line table names the shared store as the conflicting line") {
  // smem_transpose.kir line 30: st.shared.f32 smemArray[%tid.x][%tid.y], %v
  const auto store = line_stats("smem_transpose.kir", 30);
  CHECK(store.wavefronts - store.ideal_wavefronts == 31 * store.executions);
  const auto load = line_stats("smem_transpose.kir", 37);  // ld.shared ... [%tid.y][%tid.x]
  CHECK(load.wavefronts == load.ideal_wavefronts);
  const auto r = run_cli({"run", (source_dir() / "kernels_ir/smem_transpose.kir").string(),
                          "--per-line", "--arg", "m=64"});
  REQUIRE(r.exit_code == 0);
  const auto row = r.out.find("\n     30  st.shared.f32 smemArray[%tid.x][%tid.y]");
  REQUIRE(row != std::string::npos);
  // m = 64: 2 x 2 blocks of 32 warps = 128 executions, 32 wavefronts each, 31 of them conflicts.
  CHECK(r.out.substr(row, 140).find("4096        128      3968") != std::string::npos);
}

TEST_CASE("the JSON report carries the memory metrics under Nsight Compute's names") {
  // smem_transpose with m = 64: 4 blocks in bounds, 32 warps each, so 128 executions of each
  // memory instruction. Global: 4 sectors per request. Shared store: 32 wavefronts, 31 conflicts.
  const auto path = std::filesystem::temp_directory_path() / "warpsim_memory.json";
  const auto r = run_cli({"run", (source_dir() / "kernels_ir/smem_transpose.kir").string(), "--arg",
                          "m=64", "--json", path.string()});
  REQUIRE(r.exit_code == 0);
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  const auto& m = j["metrics"];
  CHECK(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 128);
  CHECK(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 512);
  CHECK(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == 512);
  CHECK(m["smsp__sass_inst_executed_op_shared_st.sum"] == 128);
  CHECK(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 4096);
  CHECK(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] == 3968);
  CHECK(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0);
  CHECK(m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] == 4096 + 128);
  bool store_row = false;
  for (const auto& row : j["lines"]) {
    if (row["line"] == 30) {
      store_row = true;
      CHECK(row["bank_conflicts"] == 3968);
    }
  }
  CHECK(store_row);
}

TEST_CASE("smem_transpose 32x33: both shared accesses are conflict-free") {
  const auto& m = stats_of("smem_transpose_padded.kir").memory;
  for (const auto& op : m.shared) CHECK(op.conflicts() == 0);
  CHECK(m.shared[static_cast<std::size_t>(exec::SharedOp::Store)].wavefronts ==
        m.shared[static_cast<std::size_t>(exec::SharedOp::Store)].instructions);
}

// One warp loads floats at element lane * stride + offset; returns sectors per request.
unsigned sectors_for(unsigned stride, unsigned offset) {
  const std::string text =
      "kernel k(a: ptr global f32, stride: u32, offset: u32) {\nentry:\n"
      "  %i = mad.u32 %laneid, stride, offset\n  %v = ld.global.f32 a[%i]\n  ret\n}\n"
      "launch k grid(1) block(32) {\n  a = f32[2048] zero\n  stride = " +
      std::to_string(stride) + "\n  offset = " + std::to_string(offset) + "\n}\n";
  const auto loaded = ir::load_module_text("strided", text);
  REQUIRE(loaded.ok());
  std::ostringstream err;
  const auto spec = cli::resolve_launch(loaded, {}, err);
  REQUIRE(spec.has_value());
  const auto g = exec::execute(loaded.module, *spec, {}).stats.memory.global[kLoad];
  REQUIRE(g.requests == 1);
  return static_cast<unsigned>(g.sectors);
}

TEST_CASE("strided and misaligned float loads need the sectors their bytes span") {
  // The buffer starts on a 512-byte boundary, so element e is in sector floor(4e / 32).
  // Aligned, stride 1: bytes 0-127, sectors 0-3.
  CHECK(sectors_for(1, 0) == 4);
  // Offset by one element: bytes 4-131 reach into a fifth sector.
  CHECK(sectors_for(1, 1) == 5);
  // Stride 2: elements 0, 2, ..., 62 span bytes 0-251: 8 sectors, half of each used.
  CHECK(sectors_for(2, 0) == 8);
  // Stride 4: 16 bytes apart, two lanes per sector: 16 sectors.
  CHECK(sectors_for(4, 0) == 16);
  // Stride 8: 32 bytes apart, one lane per sector: 32 sectors.
  CHECK(sectors_for(8, 0) == 32);
  // Stride 32: 128 bytes apart: still one sector per lane, 32.
  CHECK(sectors_for(32, 0) == 32);
}

}  // namespace
}  // namespace warpsim::test

// The seed kernels as CUDA C++ (kernels_cuda/), compiled by nvcc and imported, against their
// hand-written IR (kernels_ir/) under the same launches: the same output buffers bit for bit,
// and the same memory counters. Skipped, with a message, where nvcc is not installed.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/import/toolkit.hpp"
#include "tests/unit/cuda_support.hpp"
#include "tests/unit/run_support.hpp"
#include "tools/warpsim/kernel_input.hpp"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

// The launch blocks of a .kir file, as a launch file for the imported kernel.
std::string launch_blocks(const fs::path& kir) {
  std::ifstream in(kir);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("launch ", 0) == 0) inside = true;
    if (inside) out += line + "\n";
    if (inside && line == "}") inside = false;
  }
  return out;
}

TEST_CASE("every seed kernel written in CUDA gives its IR twin's outputs and memory counters") {
  if (!have_nvcc("the CUDA seed kernels are not compiled here")) return;
  const fs::path cuda_dir = source_dir() / "kernels_cuda";
  const fs::path scratch = fs::temp_directory_path() / "warpsim_cuda_import_test";
  fs::create_directories(scratch);
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(cuda_dir)) {
    if (entry.path().extension() != ".cu") continue;
    const fs::path kir = source_dir() / "kernels_ir" / (entry.path().stem().string() + ".kir");
    if (!fs::exists(kir)) continue;
    CAPTURE(entry.path().string());
    const fs::path launches = scratch / (entry.path().stem().string() + ".launch");
    std::ofstream(launches) << launch_blocks(kir);
    cli::InputOptions options;
    options.launch_file = launches.string();
    const ir::LoadedModule imported = cli::load_kernel_file(entry.path().string(), options);
    std::ostringstream diags;
    imported.diags.render(diags);
    INFO(diags.str());
    REQUIRE(imported.ok());
    const ir::LoadedModule reference = ir::load_module_file(kir.string());
    REQUIRE(reference.ok());
    for (const ir::Launch& l : reference.module.launches) {
      CAPTURE(l.name);
      cli::LaunchOverrides o;
      o.launch_name = l.name;
      const KernelRun a = resolved({imported, {}, {}}, o);
      const KernelRun b = resolved({reference, {}, {}}, o);
      const exec::LaunchResult ra = a.run(), rb = b.run();
      REQUIRE(ra.memory.buffers.size() == rb.memory.buffers.size());
      for (std::size_t i = 0; i < ra.memory.buffers.size(); ++i) {
        CAPTURE(ra.memory.buffers[i].name);
        CHECK(ra.memory.buffers[i].bytes == rb.memory.buffers[i].bytes);
      }
      const exec::MemoryStats& ma = ra.stats.memory;
      const exec::MemoryStats& mb = rb.stats.memory;
      for (std::size_t op = 0; op < ma.global.size(); ++op) {
        CAPTURE(op);
        CHECK(ma.global[op].requests == mb.global[op].requests);
        CHECK(ma.global[op].sectors == mb.global[op].sectors);
      }
      for (std::size_t op = 0; op < ma.shared.size(); ++op) {
        CAPTURE(op);
        CHECK(ma.shared[op].instructions == mb.shared[op].instructions);
        CHECK(ma.shared[op].wavefronts == mb.shared[op].wavefronts);
        CHECK(ma.dsmem[op].instructions == mb.dsmem[op].instructions);
        CHECK(ma.dsmem[op].wavefronts == mb.dsmem[op].wavefronts);
      }
      ++compared;
    }
  }
  CHECK(compared >= 11);  // every seed kernel's launches, clusterHist_kernel's among them
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

TEST_CASE("occupancy FILE takes the kernel's shared memory and its first launch's block") {
  // smem_transpose: a 32 x 32 f32 tile = 4096 bytes; its launch's blocks of 32 x 32 = 1024
  // threads, 32 warps, so 2 blocks fill the 64 warps of an H200 SM.
  const auto r = run_cli({"occupancy", (source_dir() / "kernels_ir/smem_transpose.kir").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("4096 B of shared memory per block") != std::string::npos);
  CHECK(r.out.find("1024 threads per block") != std::string::npos);
  CHECK(r.out.find("2 blocks per SM") != std::string::npos);
  const auto bad =
      run_cli({"occupancy", (source_dir() / "kernels_ir/vecAdd.kir").string(), "--regs", "40"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("leave out --regs and --smem") != std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("CUDA's float roundings give IEEE's integral values, signed zeros and canonical NaNs") {
  if (!have_nvcc("rounding.cu is not compiled here")) return;
  const fs::path dir = source_dir() / "kernels_cuda" / "textbook";
  cli::InputOptions options;
  options.launch_file = (dir / "rounding.launch").string();
  const ir::LoadedModule m = cli::load_kernel_file((dir / "rounding.cu").string(), options);
  REQUIRE(m.ok());
  const KernelRun run = resolved(KernelRun{m, {}, {}});
  const exec::LaunchResult r = run.run();
  const auto f = [&](int i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, r.memory.find("f")->bytes.data() + 4 * static_cast<std::size_t>(i), 4);
    return bits;
  };
  const auto i32 = [&](int i) {
    std::int32_t v = 0;
    std::memcpy(&v, r.memory.find("i")->bytes.data() + 4 * static_cast<std::size_t>(i), 4);
    return v;
  };
  const auto bits = [](float v) { return std::bit_cast<std::uint32_t>(v); };
  // kFloats[t] for thread t; f[4t..4t+3] = rintf, floorf, ceilf, truncf; i[3t..] = rn, rd, ru.
  // Ties go to even: rint(2.5) = 2, rint(3.5) = 4, rint(-2.5) = -2.
  CHECK(f(0) == bits(2.0f));
  CHECK(f(4) == bits(4.0f));
  CHECK(f(8) == bits(-2.0f));
  // -0.5: rint -0, floor -1, ceil -0, trunc -0 (the sign kept, bit 31 set).
  CHECK(f(12) == 0x80000000u);
  CHECK(f(13) == bits(-1.0f));
  CHECK(f(14) == 0x80000000u);
  CHECK(f(15) == 0x80000000u);
  // -1e-40 (subnormal): floor -1, ceil -0; 8388607.5 rounds to even 8388608; 2^24 stays.
  CHECK(f(4 * 9 + 1) == bits(-1.0f));
  CHECK(f(4 * 9 + 2) == 0x80000000u);
  CHECK(f(4 * 10) == bits(8388608.0f));
  CHECK(f(4 * 13) == bits(16777216.0f));
  // A NaN in (0/0, computed by the compiler) comes out as the canonical NaN from every rounding.
  for (int k = 0; k < 4; ++k) CHECK(f(4 * 18 + k) == 0x7fffffffu);
  // To int: -2.5 rn -2, rd -3, ru -2; 1e30 and 2147483647.0f (2^31 as a float) saturate; NaN 0.
  CHECK(i32(3 * 2) == -2);
  CHECK(i32(3 * 2 + 1) == -3);
  CHECK(i32(3 * 2 + 2) == -2);
  CHECK(i32(3 * 14) == 2147483647);
  CHECK(i32(3 * 30) == 2147483647);
  CHECK(i32(3 * 18) == 0);
  // __double2ll_rn of a NaN: the most negative 64-bit integer (kDoubles[6]), as the H200 gives.
  std::int64_t nan_ll = 0;
  std::memcpy(&nan_ll, r.memory.find("l")->bytes.data() + std::size_t{8} * 6, 8);
  CHECK(nan_ll == std::numeric_limits<std::int64_t>::min());
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("ceil and trunc of a negative fraction nearer -1 are -0.0 in both precisions") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // x = -0.75, a fraction whose nearest integer is -1, from which ceil and trunc step up: IEEE's
  // ceil and trunc keep the sign, -0.0 (bit 31 set; -1 + 1 would be +0.0), and floor is -1.
  const exec::LaunchResult r = run_cuda(
      "negative_fraction",
      "__global__ void negative_fraction(const float* x, float* f, double* d) {\n"
      "  int i = threadIdx.x;\n"
      "  f[3 * i] = ceilf(x[i]); f[3 * i + 1] = truncf(x[i]); f[3 * i + 2] = floorf(x[i]);\n"
      "  double v = x[i];\n"
      "  d[3 * i] = ceil(v); d[3 * i + 1] = trunc(v); d[3 * i + 2] = floor(v);\n}\n",
      "launch negative_fraction grid(1) block(2) {\n"
      "  x = f32[2] constant(-0.75)\n  f = f32[6] zero\n  d = f64[6] zero\n}\n");
  const auto* f = reinterpret_cast<const std::uint32_t*>(r.memory.find("f")->bytes.data());
  const auto* d = reinterpret_cast<const std::uint64_t*>(r.memory.find("d")->bytes.data());
  CHECK(f[0] == 0x80000000u);
  CHECK(f[1] == 0x80000000u);
  CHECK(f[2] == std::bit_cast<std::uint32_t>(-1.0f));
  CHECK(d[0] == 0x8000000000000000ull);
  CHECK(d[1] == 0x8000000000000000ull);
  CHECK(d[2] == std::bit_cast<std::uint64_t>(-1.0));
}

TEST_CASE("a double split into its 32-bit halves and joined again keeps its bits") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // __double2hiint and __double2loint unpack with mov.b64 {lo, hi}; __hiloint2double packs.
  // Flipping the low word's bit 0 on the way changes exactly bit 0 of the double.
  const exec::LaunchResult r = run_cuda(
      "halves",
      "__global__ void halves(const double* a, double* out, int* hi) {\n"
      "  const double x = a[threadIdx.x];\n"
      "  out[threadIdx.x] = __hiloint2double(__double2hiint(x), __double2loint(x) ^ 1);\n"
      "  hi[threadIdx.x] = __double2hiint(x);\n}\n",
      "launch halves grid(1) block(32) {\n  a = f64[32] random(seed = 5, min = -1e6, max = "
      "1e6)\n  out = f64[32] zero\n  hi = s32[32] zero\n}\n");
  for (std::size_t t = 0; t < 32; ++t) {
    std::uint64_t in = 0, out = 0;
    std::int32_t hi = 0;
    std::memcpy(&in, r.memory.find("a")->bytes.data() + 8 * t, 8);
    std::memcpy(&out, r.memory.find("out")->bytes.data() + 8 * t, 8);
    std::memcpy(&hi, r.memory.find("hi")->bytes.data() + 4 * t, 4);
    CHECK(out == (in ^ 1u));
    CHECK(static_cast<std::uint32_t>(hi) == static_cast<std::uint32_t>(in >> 32));
  }
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("__ffs and the highest set bit come through bfind exactly, zero and negatives too") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // v: 0 for thread 0, else t * 0x01010101 shifted by t % 7, negated for odd t.
  const exec::LaunchResult r =
      run_cuda("bits",
               "__global__ void bits(int* out) {\n"
               "  const int t = threadIdx.x;\n"
               "  int v = t == 0 ? 0 : (t * 0x01010101) << (t % 7);\n"
               "  if (t % 2) v = -v;\n"
               "  out[2 * t] = __ffs(v);\n"
               "  out[2 * t + 1] = 31 - __clz(v);\n}\n",
               "launch bits grid(1) block(32) {\n  out = s32[64] zero\n}\n");
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    std::uint32_t v = t == 0 ? 0u : static_cast<std::uint32_t>(t) * 0x01010101u << (t % 7);
    if (t % 2 != 0) v = 0u - v;
    std::int32_t got[2];
    std::memcpy(
        got, r.memory.find("out")->bytes.data() + std::size_t{8} * static_cast<std::size_t>(t), 8);
    // __ffs: 1 + the lowest set bit's index, 0 for 0; 31 - clz: the highest set bit's, -1 for 0.
    CHECK(got[0] == (v == 0 ? 0 : std::countr_zero(v) + 1));
    CHECK(got[1] == 31 - std::countl_zero(v));
  }
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("__byte_perm and prmt's sign-copying selectors pick the bytes PTX says") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  const exec::LaunchResult r =
      run_cuda("perm",
               "__global__ void perm(const unsigned* a, const unsigned* b, unsigned* out) {\n"
               "  const unsigned x = a[threadIdx.x], y = b[threadIdx.x];\n"
               "  unsigned s;\n"
               "  asm(\"prmt.b32 %0, %1, %2, 0x8f40;\" : \"=r\"(s) : \"r\"(x), \"r\"(y));\n"
               "  out[3 * threadIdx.x] = __byte_perm(x, y, 0x0123);\n"
               "  out[3 * threadIdx.x + 1] = __byte_perm(x, y, 0x7654);\n"
               "  out[3 * threadIdx.x + 2] = s;\n}\n",
               "launch perm grid(1) block(32) {\n  a = u32[32] random(seed "
               "= 1)\n  b = u32[32] random(seed = 2)\n  out = u32[96] "
               "zero\n}\n");
  const auto word = [&](const char* buffer, std::size_t i) {
    std::uint32_t v = 0;
    std::memcpy(&v, r.memory.find(buffer)->bytes.data() + 4 * i, 4);
    return v;
  };
  for (std::size_t t = 0; t < 32; ++t) {
    const std::uint64_t bytes = word("a", t) | std::uint64_t{word("b", t)} << 32;
    const auto pick = [&](unsigned selector) {
      std::uint32_t v = 0;
      for (unsigned k = 0; k < 4; ++k) {
        const unsigned n = (selector >> (4 * k)) & 0xfu;
        std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (n & 7u))) & 0xffu;
        if ((n & 8u) != 0) byte = (byte & 0x80u) != 0 ? 0xffu : 0u;  // the byte's sign, copied
        v |= byte << (8 * k);
      }
      return v;
    };
    CHECK(word("out", 3 * t) == pick(0x0123));  // __byte_perm: bit 3 of each nibble unused
    CHECK(word("out", 3 * t + 1) == pick(0x7654));
    CHECK(word("out", 3 * t + 2) == pick(0x8f40));
  }
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("__sad and __usad: the absolute difference in the operands' signedness, plus c") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  const exec::LaunchResult r = run_cuda(
      "sad",
      "__global__ void sadk(const int* a, const int* b, const unsigned* c, int* s, "
      "unsigned* u) {\n  const unsigned t = threadIdx.x;\n  s[t] = __sad(a[t], b[t], c[t]);\n"
      "  u[t] = __usad((unsigned)a[t], (unsigned)b[t], c[t]);\n}\n",
      "launch sadk grid(1) block(32) {\n  a = s32[32] random(seed = 1)\n  b = s32[32] "
      "random(seed = 2)\n  c = u32[32] random(seed = 3)\n  s = s32[32] zero\n  u = u32[32] "
      "zero\n}\n");
  const auto word = [&](const char* buffer, std::size_t i) {
    std::uint32_t v = 0;
    std::memcpy(&v, r.memory.find(buffer)->bytes.data() + 4 * i, 4);
    return v;
  };
  for (std::size_t t = 0; t < 32; ++t) {
    const std::uint32_t a = word("a", t), b = word("b", t), c = word("c", t);
    const auto sa = static_cast<std::int64_t>(static_cast<std::int32_t>(a));
    const auto sb = static_cast<std::int64_t>(static_cast<std::int32_t>(b));
    // The difference is taken exactly (in 64 bits here), the sum wraps at 32.
    CHECK(word("s", t) == static_cast<std::uint32_t>((sa > sb ? sa - sb : sb - sa) + c));
    CHECK(word("u", t) == (a > b ? a - b : b - a) + c);
  }
}

}  // namespace warpsim::test

namespace warpsim::test {

TEST_CASE("a 32-bit load into a 64-bit register sign-extends .s32 and zero-extends .u32") {
  if (!have_nvcc("the kernel is not compiled here")) return;
  // nvcc -O3 loads the summands of 64-bit sums straight into 64-bit registers
  // (`ld.global.s32 %rd42` and `ld.global.u32 %rd44`), which PTX defines as extending loads.
  const exec::LaunchResult r =
      run_cuda("widening",
               "__global__ void widening(const int* s, const unsigned* u, long long* sw,\n"
               "                         unsigned long long* uw, int n) {\n"
               "  long long a = 0;\n  unsigned long long b = 0;\n"
               "  for (int i = threadIdx.x; i < n; i += 32) { a += s[i]; b += u[i]; }\n"
               "  sw[threadIdx.x] = a;\n  uw[threadIdx.x] = b;\n}\n",
               "launch widening grid(1) block(32) {\n"
               "  s = s32[256] random(seed = 7, min = -2000000000, max = 2000000000)\n"
               "  u = u32[256] random(seed = 8, min = 2000000000, max = 4000000000)\n"
               "  sw = s64[32] zero\n  uw = u64[32] zero\n  n = 256\n}\n");
  const auto word = [&](const char* name, std::size_t i, std::size_t size) {
    std::uint64_t v = 0;
    std::memcpy(&v, r.memory.find(name)->bytes.data() + size * i, size);
    return v;
  };
  for (std::size_t t = 0; t < 32; ++t) {
    // Thread t sums elements t, t + 32, ..., t + 224: eight of each, extended before adding
    // (the unsigned ones are all above 2^31, so a sign extension would make them negative).
    std::int64_t signed_sum = 0;
    std::uint64_t unsigned_sum = 0;
    for (std::size_t i = t; i < 256; i += 32) {
      signed_sum += static_cast<std::int32_t>(static_cast<std::uint32_t>(word("s", i, 4)));
      unsigned_sum += word("u", i, 4);
    }
    CHECK(static_cast<std::int64_t>(word("sw", t, 8)) == signed_sum);
    CHECK(word("uw", t, 8) == unsigned_sum);
  }
}

}  // namespace warpsim::test

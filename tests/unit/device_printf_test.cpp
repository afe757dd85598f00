// A kernel's printf: the argument buffer as nvcc packs it (each argument aligned to its size),
// formatted as the C library formats it; warpsim's fixed order of a launch's lines; the
// comparison with the GPU's lines; and catching what the driver prints on standard output.
#include "sim/core/exec/device_printf.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cuda_backend/stdout_capture.hpp"
#include "tools/warpsim/buffer_compare.hpp"

namespace warpsim::test {
namespace {

// An argument buffer built as nvcc builds one: each value at the next offset aligned to its
// size; strings live at the addresses of `strings`.
struct Arguments {
  std::vector<std::uint8_t> bytes;
  std::map<std::uint64_t, std::string> strings;
  template <typename T>
  Arguments& add(T v) {
    bytes.resize((bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
    const std::size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &v, sizeof(T));
    return *this;
  }
  Arguments& add_string(std::uint64_t address, std::string s) {
    strings[address] = std::move(s);
    return add(address);
  }
  exec::PrintfResult format(std::string_view f) const {
    exec::PrintfMemory m;
    m.argument = [this](std::uint64_t offset, void* out, std::size_t n) {
      if (offset + n > bytes.size()) return false;
      std::memcpy(out, bytes.data() + offset, n);
      return true;
    };
    m.string = [this](std::uint64_t address) -> std::optional<std::string> {
      const auto it = strings.find(address);
      if (it == strings.end()) return std::nullopt;
      return it->second;
    };
    return exec::format_device_printf(f, m);
  }
};

TEST_CASE("printf reads each argument at its own alignment and formats it as C does") {
  // block 3, thread 7 (4 bytes each: offsets 0, 4), 0.5f promoted to double (offset 8), a string
  // pointer (16), 3 << 40 as long long (24), 'Z' promoted to int (32).
  Arguments a;
  a.add(std::int32_t{3}).add(std::int32_t{7}).add(0.5).add_string(0x1000, "ok");
  a.add(std::int64_t{3} << 40).add(std::int32_t{'Z'});
  const auto r = a.format("b%d t%d: %5.2f|%-4s|%lld|%c\n");
  CHECK(r.error.empty());
  // %5.2f of 0.5: " 0.50"; %-4s of "ok": "ok  "; 3 * 2^40 = 3298534883328.
  CHECK(r.text == "b3 t7:  0.50|ok  |3298534883328|Z\n");
  CHECK(r.arguments == 6);  // vprintf returns the number of arguments it read
}

TEST_CASE("printf's star widths, narrowed integers, %% and a null string") {
  Arguments a;
  // %*d: width 4 then 42; %.*f: precision 1 then 2.25 (to even: 2.2); %hhd of 300 is 300 - 256;
  // %x of 255; %s of a null pointer prints (null), as glibc does.
  a.add(std::int32_t{4}).add(std::int32_t{42}).add(std::int32_t{1}).add(2.25);
  a.add(std::int32_t{300}).add(std::uint32_t{255}).add(std::uint64_t{0});
  const auto r = a.format("%*d|%.*f|%hhd|%x|%s|100%%");
  CHECK(r.error.empty());
  CHECK(r.text == "  42|2.2|44|ff|(null)|100%");
  CHECK(r.arguments == 7);
}

TEST_CASE("printf's %p prints the address in hexadecimal, a null one as (nil), as glibc does") {
  Arguments a;
  a.add(std::uint64_t{0x7f00}).add(std::uint64_t{0});
  CHECK(a.format("%p %8p").text == "0x7f00    (nil)");
}

TEST_CASE("a printf whose arguments cannot be read, or that names no string, says why") {
  Arguments none;
  const auto missing = none.format("x=%d\n");
  CHECK(missing.error.find("'%d'") != std::string::npos);
  CHECK(missing.error.find("cannot be read") != std::string::npos);
  Arguments bad;
  bad.add(std::uint64_t{0x2000});  // no string there
  CHECK(bad.format("%s").error.find("0x2000") != std::string::npos);
  Arguments wide;
  wide.add(std::int32_t{1});
  CHECK(wide.format("%99999d").error.find("width or precision") != std::string::npos);
  CHECK(wide.format("%Lf").error.find("not modelled") != std::string::npos);
}

TEST_CASE("a format without conversions prints as it stands and reads no argument") {
  const Arguments a;
  const auto r = a.format("hello, world\n");
  CHECK(r.text == "hello, world\n");
  CHECK(r.arguments == 0);
}

TEST_CASE("a launch's lines sort by block, warp, call and lane") {
  std::vector<exec::PrintedLine> lines = {{1, 0, 0, 3, "d"},
                                          {0, 1, 0, 0, "c"},
                                          {0, 0, 1, 0, "b"},
                                          {0, 0, 0, 5, "a2"},
                                          {0, 0, 0, 2, "a1"}};
  exec::sort_printed(lines);
  std::string order;
  for (const auto& l : lines) order += l.text + " ";
  CHECK(order == "a1 a2 b c d ");
}

TEST_CASE("printf output compares with the GPU's as sorted lines") {
  bool mismatch = false;
  // The GPU printed the same lines in another order: identical.
  CHECK(cli::compare_printed("a\nb\nc\n", "c\na\nb\n", mismatch) ==
        "identical (3 lines, compared sorted)");
  CHECK_FALSE(mismatch);
  const std::string verdict = cli::compare_printed("a\nb\n", "a\nx\n", mismatch);
  CHECK(mismatch);
  CHECK(verdict.starts_with("MISMATCH: 2 lines simulated, 2 printed by the GPU"));
  CHECK(verdict.find("\"b\" (simulated)") != std::string::npos);
}

TEST_CASE("what is written to standard output is caught, by stdio and by descriptor 1") {
  cuda::StdoutCapture capture;
  std::printf("from stdio ");
  std::fflush(stdout);  // stdio's buffer first, then the descriptor: the order they reach it
  const char raw[] = "from write\n";
  CHECK(write(STDOUT_FILENO, raw, sizeof raw - 1) == static_cast<ssize_t>(sizeof raw - 1));
  CHECK(capture.finish() == "from stdio from write\n");
  CHECK(capture.finish().empty());  // ended once
}

}  // namespace
}  // namespace warpsim::test

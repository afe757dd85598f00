// The toolkit's run cache (sim/import/tool_cache.hpp): an entry returns what was stored under
// exactly its key, a key that differs in one byte misses, a damaged entry misses, and
// WARPSIM_CACHE_DIR picks or turns off the folder. Then, where ptxas and nvdisasm are found, a
// kernel built twice gives the same SASS, the second time without running the tools.
#include "sim/import/tool_cache.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "cuda_backend/ptx.hpp"
#include "sim/import/toolkit.hpp"
#include "sim/sass/disassembler.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/test_support.hpp"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

// A fresh folder of this test's own, removed afterwards.
struct CacheFolder {
  fs::path path = fs::temp_directory_path() / ("warpsim_cache_test_" + std::to_string(getpid()));
  CacheFolder() { fs::remove_all(path); }
  ~CacheFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  CacheFolder(const CacheFolder&) = delete;
  CacheFolder& operator=(const CacheFolder&) = delete;
};

// Sets an environment variable for the scope, restoring what it was.
struct ScopedEnvironment {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnvironment(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) saved = v;
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (saved) {
      setenv(name.c_str(), saved->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
};

TEST_CASE("a cached run is found under exactly its key") {
  const CacheFolder folder;
  CHECK_FALSE(toolkit::cached_outputs(folder.path, "ptxas\nkernel A").has_value());
  toolkit::store_outputs(folder.path, "ptxas\nkernel A", {"report A", std::string("bin\0ary", 7)});
  const auto hit = toolkit::cached_outputs(folder.path, "ptxas\nkernel A");
  REQUIRE(hit.has_value());
  REQUIRE(hit->size() == 2);
  CHECK((*hit)[0] == "report A");
  CHECK((*hit)[1] == std::string("bin\0ary", 7));  // outputs kept byte for byte
  CHECK_FALSE(toolkit::cached_outputs(folder.path, "ptxas\nkernel B").has_value());
  CHECK_FALSE(toolkit::cached_outputs(folder.path, "ptxas\nkernel A ").has_value());
  // Storing again under the same key leaves one entry and no partial folders behind.
  toolkit::store_outputs(folder.path, "ptxas\nkernel A", {"report A", "again"});
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(folder.path)) {
    CHECK(e.path().filename().string().find("partial") == std::string::npos);
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("a damaged cache entry misses rather than answers") {
  const CacheFolder folder;
  toolkit::store_outputs(folder.path, "key", {"output"});
  const fs::path entry = fs::directory_iterator(folder.path)->path();
  SUBCASE("its key rewritten") {
    std::ofstream(entry / "key") << "another key";
  }
  SUBCASE("an output missing") {
    fs::remove(entry / "0");
  }
  CHECK_FALSE(toolkit::cached_outputs(folder.path, "key").has_value());
}

TEST_CASE("WARPSIM_CACHE_DIR names the cache's folder or turns it off") {
  {
    const ScopedEnvironment env("WARPSIM_CACHE_DIR", "/some/where");
    CHECK(toolkit::tool_cache_directory() == fs::path("/some/where/tools"));
  }
  {
    const ScopedEnvironment env("WARPSIM_CACHE_DIR", "off");
    CHECK_FALSE(toolkit::tool_cache_directory().has_value());
  }
  const ScopedEnvironment unset("WARPSIM_CACHE_DIR", "");
  const ScopedEnvironment xdg("XDG_CACHE_HOME", "/xdg");
  CHECK(toolkit::tool_cache_directory() == fs::path("/xdg/warpsim/tools"));
}

TEST_CASE("a kernel built twice through the cache gives the same SASS") {
  if (!toolkit::find_program("ptxas") || !sass::find_disassembler()) {
    MESSAGE("skipped: ptxas or nvdisasm not found");
    return;
  }
  const CacheFolder folder;
  const ScopedEnvironment env("WARPSIM_CACHE_DIR", folder.path.string());
  const KernelRun k = load_kernel("vecAdd.kir");
  const std::string ptx = cuda::lower_to_ptx(k.loaded.module);
  const sass::SassBuild first = sass::build_sass(ptx, "sm_90");
  REQUIRE(first.listing.has_value());
  // One entry for the SASS build (ptxas and nvdisasm), holding their two outputs.
  REQUIRE(fs::exists(folder.path / "tools"));
  CHECK(std::distance(fs::directory_iterator(folder.path / "tools"), fs::directory_iterator{}) ==
        1);
  const sass::SassBuild second = sass::build_sass(ptx, "sm_90");
  REQUIRE(second.listing.has_value());
  REQUIRE(second.listing->functions.size() == first.listing->functions.size());
  CHECK(second.listing->functions[0].instructions.size() ==
        first.listing->functions[0].instructions.size());
  CHECK(second.resources.at("vecAdd").registers == first.resources.at("vecAdd").registers);
  CHECK(first.resources.at("vecAdd").registers > 0);
}

}  // namespace
}  // namespace warpsim::test

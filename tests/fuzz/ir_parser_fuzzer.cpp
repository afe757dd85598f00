// libFuzzer target: any bytes through the parser, verifier and printer. What must hold: no
// crash, no sanitizer report, no hang; and a module that verifies prints to text that parses
// and verifies back to the same module.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const auto loaded = warpsim::ir::load_module_text("fuzz", std::move(text));
  if (!loaded.ok()) return 0;
  const auto again =
      warpsim::ir::load_module_text("printed", warpsim::ir::to_string(loaded.module));
  if (!again.ok() || !(again.module == loaded.module)) std::abort();
  return 0;
}

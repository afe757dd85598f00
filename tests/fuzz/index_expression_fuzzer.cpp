// libFuzzer target: any bytes as a `warpsim banks --index` expression, evaluated for every lane
// of a 1024-thread block. What must hold: no crash (a deep expression is refused, never a stack
// overflow), no sanitizer report (overflow and bad shifts are errors, not undefined behaviour).
#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/warpsim/index_expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto e = warpsim::cli::IndexExpression::parse(text, error);
  if (!e) return 0;
  for (std::int64_t t = 0; t < 1024; t += 31) {
    const warpsim::cli::LaneCoordinates at{t % 32, t / 32, t % 32, t / 32, 0};
    (void)e->evaluate(at, error);
  }
  return 0;
}

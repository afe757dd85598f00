#include "tools/warpsim/buffer_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <set>
#include <vector>

#include "sim/core/exec/half_float.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::cli {

std::string approximations(const ir::Kernel& k) {
  std::set<std::string> used;
  for (const ir::BasicBlock& b : k.blocks) {
    for (const ir::Instruction& inst : b.instructions) {
      const std::string text = ir::opcode_text(inst);
      // The approximations: every `.approx` opcode and div.full (PTX's 2-ulp division).
      if (text.find(".approx") != std::string::npos || text.starts_with("div.full")) {
        used.insert(text);
      }
    }
  }
  std::string list;
  for (const std::string& u : used) list += (list.empty() ? "" : ", ") + u;
  return list;
}

namespace {

// Element `i` of a float buffer (f64, f32, f16 or bf16) as a double.
double float_element(const exec::GlobalBuffer& b, std::uint64_t i) {
  const std::uint8_t* at = b.bytes.data() + i * ir::storage_bytes(b.type());
  if (const ir::HalfFormat format = ir::half_format(b.storage); format != ir::HalfFormat::None) {
    std::uint16_t bits = 0;
    std::memcpy(&bits, at, 2);
    return exec::decode_half(bits, format);
  }
  if (b.element == ir::ScalarType::F32) {
    float f = 0;
    std::memcpy(&f, at, 4);
    return f;
  }
  double d = 0;
  std::memcpy(&d, at, 8);
  return d;
}

}  // namespace

std::string compare_buffer(const exec::GlobalBuffer& sim, const exec::GlobalBuffer& gpu,
                           const std::string& approximated, bool& mismatch) {
  const unsigned size = ir::storage_bytes(sim.type());
  std::uint64_t differing = 0, first = 0;
  double worst = 0;
  for (std::uint64_t i = 0; i < sim.count(); ++i) {
    if (std::memcmp(sim.bytes.data() + i * size, gpu.bytes.data() + i * size, size) != 0) {
      if (differing++ == 0) first = i;
      if (ir::is_float(sim.element)) {
        const double a = float_element(sim, i), b = float_element(gpu, i);
        const double relative = std::fabs(a - b) / std::max(std::fabs(b), 1e-30);
        worst = std::isnan(relative) ? INFINITY : std::max(worst, relative);
      }
    }
  }
  if (differing == 0) return "identical";
  if (!approximated.empty() && ir::is_float(sim.element) && worst <= kApproximationTolerance) {
    return fmt::format("{} elements differ, by at most {:.2g} relative: the kernel uses {}",
                       differing, worst, approximated);
  }
  mismatch = true;
  return fmt::format("MISMATCH: {} elements differ, the first at {}", differing, first);
}

namespace {

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

std::string compare_printed(const std::string& sim, const std::string& gpu, bool& mismatch) {
  const std::vector<std::string> a = sorted_lines(sim), b = sorted_lines(gpu);
  if (a == b) return fmt::format("identical ({} lines, compared sorted)", a.size());
  mismatch = true;
  std::vector<std::string> only_sim, only_gpu;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_sim));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_gpu));
  const bool simulated = !only_sim.empty();
  const std::string& first = simulated ? only_sim.front() : only_gpu.front();
  return fmt::format(
      "MISMATCH: {} lines simulated, {} printed by the GPU; {} lines only in the "
      "simulation, {} only on the GPU, e.g. \"{}\" ({})",
      a.size(), b.size(), only_sim.size(), only_gpu.size(), first.substr(0, 80),
      simulated ? "simulated" : "the GPU's");
}

}  // namespace warpsim::cli

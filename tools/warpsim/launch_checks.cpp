#include "tools/warpsim/launch_checks.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <ostream>
#include <variant>

namespace warpsim::cli {
namespace {

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30));
}

// The host's physical memory; 0 when the system does not say.
std::uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : 0;
}

}  // namespace

bool launch_can_run(const config::GpuConfig& gpu, const exec::LaunchSpec& spec,
                    const LaunchOccupancy& occupancy, const std::string& command,
                    std::ostream& err) {
  if (occupancy.occupancy.blocks_per_sm == 0) {
    err << "warpsim " << command << ": error: the launch cannot run on " << gpu.name << ": "
        << occupancy.occupancy.reason << '\n';
    return false;
  }
  std::uint64_t total = 0;
  std::string largest;
  std::uint64_t largest_bytes = 0;
  for (const auto& [name, value] : spec.args) {
    const auto* buffer = std::get_if<ir::BufferSpec>(&value);
    if (buffer == nullptr) continue;
    const std::uint64_t bytes = buffer->count * ir::storage_bytes(buffer->type());
    total += bytes;
    if (bytes > largest_bytes) {
      largest_bytes = bytes;
      largest = name;
    }
  }
  // The simulator holds every buffer once (and the GPU side a copy of each on the host).
  const std::uint64_t host = host_memory_bytes();
  if (host != 0 && total > host) {
    err << "warpsim " << command << ": error: the launch's buffers take " << gib(total)
        << " together (the largest, '" << largest << "', " << gib(largest_bytes)
        << "); this machine has " << gib(host) << " of memory\n";
    return false;
  }
  return true;
}

}  // namespace warpsim::cli

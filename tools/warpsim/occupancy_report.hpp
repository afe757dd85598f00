// Occupancy as text (Nsight Compute's occupancy section), JSON, and a block-size sweep with an
// SVG graph.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/scheduler/occupancy.hpp"

namespace warpsim::cli {

void write_occupancy_text(std::ostream& out, const config::GpuConfig& gpu,
                          const scheduler::KernelResources& k, const scheduler::Occupancy& o);
nlohmann::json occupancy_json(const config::GpuConfig& gpu, const scheduler::KernelResources& k,
                              const scheduler::Occupancy& o);

struct BlockSizePoint {
  std::uint64_t block_threads;
  scheduler::Occupancy occupancy;
};
std::vector<BlockSizePoint> occupancy_sweep(const config::GpuConfig& gpu,
                                            scheduler::KernelResources k);
void write_sweep_text(std::ostream& out, const config::GpuConfig& gpu,
                      const scheduler::KernelResources& k,
                      const std::vector<BlockSizePoint>& points);
void write_sweep_svg(std::ostream& out, const config::GpuConfig& gpu,
                     const scheduler::KernelResources& k,
                     const std::vector<BlockSizePoint>& points);

}  // namespace warpsim::cli

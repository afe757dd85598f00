#include "tools/warpsim/occupancy_report.hpp"

#include <fmt/format.h>

#include <array>
#include <limits>
#include <ostream>
#include <string>

#include "tools/warpsim/picture_style.hpp"

namespace warpsim::cli {
namespace {

std::string limit_text(std::uint64_t v) {
  return v == std::numeric_limits<std::uint64_t>::max() ? "unlimited" : std::to_string(v);
}

// Per limiter, in Limiter's order (warps, blocks, registers, shared memory): Paul Tol's bright
// blue, yellow, purple and cyan, distinct also for colour-blind readers.
const char* const kColors[] = {"#4477AA", "#CCBB44", "#AA3377", "#66CCEE"};
const char* const kNoFit = "#000000";

}  // namespace

void write_occupancy_text(std::ostream& out, const config::GpuConfig& gpu,
                          const scheduler::KernelResources& k, const scheduler::Occupancy& o) {
  out << fmt::format("{} ({})\n", gpu.name, gpu.source);
  out << fmt::format(
      "kernel: {} threads per block ({} warps), {} registers per thread, {} bytes "
      "of shared memory per block\n",
      k.block_threads, o.warps_per_block, k.registers_per_thread,
      k.static_shared_bytes + k.dynamic_shared_bytes);
  out << "  limit              blocks per SM\n";
  out << fmt::format("  warps (threads)    {:>9}   ({} warps per SM / {} per block)\n",
                     limit_text(o.limit_warps), o.max_warps_per_sm, o.warps_per_block);
  out << fmt::format("  blocks             {:>9}\n", limit_text(o.limit_blocks));
  out << fmt::format(
      "  registers          {:>9}   ({} registers per block as allocated, {} per "
      "SM in {} partitions)\n",
      limit_text(o.limit_registers), o.registers_per_block, gpu.registers_per_sm,
      gpu.sub_partitions);
  out << fmt::format(
      "  shared memory      {:>9}   ({} bytes per block with the reserved {} and "
      "rounding, {} per SM)\n",
      limit_text(o.limit_shared), o.shared_bytes_per_block, gpu.reserved_shared_memory_per_block,
      o.shared_bytes_per_sm);
  if (o.blocks_per_sm == 0) {
    out << "no block fits: " << o.reason << '\n';
    return;
  }
  out << fmt::format(
      "limited by {}: {} blocks per SM, {} of {} warps: theoretical occupancy "
      "{:.2f} %\n",
      scheduler::limiter_name(o.binding), o.blocks_per_sm, o.warps_per_sm, o.max_warps_per_sm,
      100.0 * o.occupancy());
}

nlohmann::json occupancy_json(const config::GpuConfig& gpu, const scheduler::KernelResources& k,
                              const scheduler::Occupancy& o) {
  auto clamp = [](std::uint64_t v) {
    return v == std::numeric_limits<std::uint64_t>::max() ? nlohmann::json(nullptr)
                                                          : nlohmann::json(v);
  };
  return {{"config", gpu.name},
          {"kernel",
           {{"block", k.block_threads},
            {"registers_per_thread", k.registers_per_thread},
            {"shared_bytes", k.static_shared_bytes + k.dynamic_shared_bytes}}},
          {"metrics",
           {{"launch__occupancy_limit_warps", clamp(o.limit_warps)},
            {"launch__occupancy_limit_blocks", clamp(o.limit_blocks)},
            {"launch__occupancy_limit_registers", clamp(o.limit_registers)},
            {"launch__occupancy_limit_shared_mem", clamp(o.limit_shared)},
            {"sm__maximum_warps_per_active_cycle_pct", 100.0 * o.occupancy()},
            {"blocks_per_sm", o.blocks_per_sm}}},
          {"limited_by", o.blocks_per_sm == 0 ? o.reason : scheduler::limiter_name(o.binding)}};
}

std::vector<BlockSizePoint> occupancy_sweep(const config::GpuConfig& gpu,
                                            scheduler::KernelResources k) {
  std::vector<BlockSizePoint> points;
  for (std::uint64_t b = 32; b <= gpu.max_threads_per_block; b += 32) {
    k.block_threads = b;
    points.push_back({b, scheduler::compute_occupancy(gpu, k)});
  }
  return points;
}

void write_sweep_text(std::ostream& out, const config::GpuConfig& gpu,
                      const scheduler::KernelResources& k,
                      const std::vector<BlockSizePoint>& points) {
  out << fmt::format("{}: {} registers per thread, {} bytes of shared memory per block\n", gpu.name,
                     k.registers_per_thread, k.static_shared_bytes);
  out << "  block  blocks/SM  warps/SM  occupancy  limited by\n";
  for (const BlockSizePoint& p : points) {
    const scheduler::Occupancy& o = p.occupancy;
    out << fmt::format("  {:>5}  {:>9}  {:>8}  {:>8.2f} %  {}\n", p.block_threads, o.blocks_per_sm,
                       o.warps_per_sm, 100.0 * o.occupancy(),
                       o.blocks_per_sm == 0 ? o.reason : scheduler::limiter_name(o.binding));
  }
}

void write_sweep_svg(std::ostream& out, const config::GpuConfig& gpu,
                     const scheduler::KernelResources& k,
                     const std::vector<BlockSizePoint>& points) {
  constexpr int kW = 800, kH = 400, kLeft = 76, kRight = 200, kTop = 50, kBottom = 50;
  const int plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
  const double max_block = static_cast<double>(gpu.max_threads_per_block);
  auto x = [&](std::uint64_t b) {
    return kLeft + static_cast<int>(static_cast<double>(b) / max_block * plot_w);
  };
  auto y = [&](double occ) { return kTop + static_cast<int>((1.0 - occ) * plot_h); };
  out << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{}\" "
      "height=\"{}\" fill=\"white\"/>\n",
      kW, kH, kW, kH);
  out << fmt::format(
      "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Occupancy on "
      "{}: {} registers/thread, {} B shared/block</text>\n",
      svg_escape(gpu.name), k.registers_per_thread, k.static_shared_bytes);
  for (int pct = 0; pct <= 100; pct += 25) {
    out << fmt::format(
        "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} %</text>\n",
        kLeft, kLeft + plot_w, y(pct / 100.0), y(pct / 100.0), kLeft - 6, y(pct / 100.0) + 4, pct);
  }
  out << fmt::format(
      "<text transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">theoretical "
      "occupancy (% of {} warps per SM)</text>\n",
      kTop + plot_h / 2, gpu.max_warps_per_sm());
  // The sweep's first block size, then every 128 threads.
  std::vector<std::uint64_t> ticks;
  if (!points.empty()) ticks.push_back(points.front().block_threads);
  for (std::uint64_t b = 128; b <= gpu.max_threads_per_block; b += 128) {
    if (ticks.empty() || b > ticks.back()) ticks.push_back(b);
  }
  for (const std::uint64_t b : ticks) {
    out << fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#888\"/>"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x(b), kTop + plot_h, kTop + plot_h + 4, kTop + plot_h + 16, b);
  }
  out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">threads per block</text>\n",
                     kLeft + plot_w / 2, kH - 12);
  std::string path;
  for (const BlockSizePoint& p : points) {
    path += fmt::format("{}{},{} ", path.empty() ? "M" : "L", x(p.block_threads),
                        y(p.occupancy.occupancy()));
  }
  out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\"/>\n";
  std::array<bool, 4> limits{};
  bool none_fits = false;
  for (const BlockSizePoint& p : points) {
    const auto which = static_cast<std::size_t>(p.occupancy.binding);
    const bool fits = p.occupancy.blocks_per_sm != 0;
    if (fits && which < limits.size()) limits[which] = true;
    none_fits = none_fits || !fits;
    out << fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"><title>{} threads: {:.1f} "
        "%, {}</title></circle>\n",
        x(p.block_threads), y(p.occupancy.occupancy()), fits ? kColors[which] : kNoFit,
        p.block_threads, 100.0 * p.occupancy.occupancy(),
        fits ? "limited by " + std::string(scheduler::limiter_name(p.occupancy.binding))
             : p.occupancy.reason);
  }
  // The legend lists what the points show: the limits that bind somewhere, and "no block fits".
  int ly = kTop + 10;
  for (std::size_t i = 0; i < limits.size(); ++i) {
    if (!limits[i]) continue;
    out << fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">"
        "limited by {}</text>\n",
        kLeft + plot_w + 16, ly, kColors[i], kLeft + plot_w + 26, ly + 4,
        scheduler::limiter_name(static_cast<scheduler::Limiter>(i)));
    ly += 18;
  }
  if (none_fits) {
    out << fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">"
        "no block fits (0 %)</text>\n",
        kLeft + plot_w + 16, ly, kNoFit, kLeft + plot_w + 26, ly + 4);
  }
  out << "</svg>\n";
}

}  // namespace warpsim::cli

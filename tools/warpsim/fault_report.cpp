#include "tools/warpsim/fault_report.hpp"

#include <fmt/format.h>

#include <ostream>

namespace warpsim::cli {

void write_fault(std::ostream& err, const std::string& file, const ir::Module& module,
                 const exec::KernelFault& fault) {
  const exec::FaultSite& s = fault.site();
  const std::string origin = module.origin_text(s.origin);
  if (origin.empty()) {
    err << fmt::format("{}:{}: kernel fault in {}: {}\n", file, s.line, s.kernel, fault.what());
    err << fmt::format("  {}\n", s.instruction);
  } else {
    err << fmt::format("{}: kernel fault in {}: {}\n", origin, s.kernel, fault.what());
    err << fmt::format("  PTX line {}, IR line {}: {}\n", s.origin.ptx_line, s.line, s.instruction);
  }
  err << fmt::format("  block ({}, {}, {})", s.block.x, s.block.y, s.block.z);
  if (s.thread >= 0) {
    err << fmt::format(", thread ({}, {}, {}) (linear {}, warp {}, lane {})", s.thread_index.x,
                       s.thread_index.y, s.thread_index.z, s.thread, s.thread / 32, s.thread % 32);
  }
  err << '\n';
}

}  // namespace warpsim::cli

// Registers per thread as ptxas allocates them: `ptxas -arch=ARCH -v` over a PTX module, its
// "Used N registers" line for each entry function. This is the number the driver reports and
// the occupancy calculator takes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace warpsim::toolkit {

struct PtxasRegisters {
  std::map<std::string, std::uint32_t> registers;  // entry function -> registers per thread
  std::string error;                               // why there are none (ptxas missing, failed)
};

PtxasRegisters ptxas_registers(const std::string& ptx_text, const std::string& arch);

// Parses ptxas -v output: each "Compiling entry function 'NAME'" followed by "Used N registers".
std::map<std::string, std::uint32_t> parse_ptxas_registers(const std::string& output);

}  // namespace warpsim::toolkit

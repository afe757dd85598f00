// Pictures of one warp's shared-memory access: a text grid and an SVG, banks as columns,
// wavefronts as rows, each cell naming the lane(s) that touch the word the bank serves.
#pragma once

#include <iosfwd>
#include <string>

#include "sim/memory/shared_banks.hpp"

namespace warpsim::cli {

void write_bank_grid(std::ostream& out, const memory::BankMap& map);
void write_bank_svg(std::ostream& out, const memory::BankMap& map, const std::string& title);

}  // namespace warpsim::cli

// The timeline of one SM as SVG (or HTML around it): a cycle axis, each block slot's blocks as
// labelled spans with their barrier releases, the slot's warps below coloured by state, and
// bars of the states' shares on this SM and on all SMs (the text report's numbers).
#pragma once

#include <string>

#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::cli {

std::string timeline_picture(const scheduler::TimingStats& t, const scheduler::SmActivity& sm,
                             const std::string& kernel, bool html);

}  // namespace warpsim::cli

// The SASS tests need ptxas and nvdisasm; without them they say so and compare nothing.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "sim/import/toolkit.hpp"
#include "sim/sass/disassembler.hpp"

namespace warpsim::test {

// Whether ptxas and nvdisasm are found; if not, a message that `what` (what the test skips).
inline bool have_sass_tools(const std::string& what) {
  static const bool found =
      toolkit::find_program("ptxas").has_value() && sass::find_disassembler().has_value();
  if (!found) {
    const std::string why = "ptxas or nvdisasm is missing: " + what + " here";
    MESSAGE(why);
  }
  return found;
}

}  // namespace warpsim::test

// Text to Module. Reports every syntax error it can find honestly: after an error it skips to
// the end of the line (or, at top level, to the next `kernel`, `launch` or `const`) and goes on.
// Contract: never throws on any input; the returned module holds what parsed cleanly and is
// meaningful only when diags.has_errors() is false. Semantic checks are the verifier's.
#pragma once

#include <string_view>

#include "sim/core/ir/diagnostics.hpp"
#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

Module parse(std::string_view source, Diagnostics& diags);

}  // namespace warpsim::ir

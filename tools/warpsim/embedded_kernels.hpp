// Seed kernels compiled into the binary, so `warpsim bench` and the default `warpsim run` work
// from any directory. Generated from kernels_ir/ at build time.
#pragma once

#include <optional>
#include <string_view>

namespace warpsim::cli {

// The text of kernels_ir/<name>.kir, if it is one of the embedded kernels.
std::optional<std::string_view> embedded_kernel(std::string_view name);

}  // namespace warpsim::cli

// The sizes every part of the simulator shares: a warp is 32 lanes (a lane mask one bit per
// lane); global memory moves in 32-byte sectors, four to a 128-byte line.
#pragma once

#include <cstdint>

namespace warpsim {

inline constexpr unsigned kWarpSize = 32;
inline constexpr std::uint32_t kFullWarpMask = 0xffffffffu;
inline constexpr unsigned kSectorBytes = 32;
inline constexpr unsigned kLineBytes = 128;
inline constexpr unsigned kSectorsPerLine = kLineBytes / kSectorBytes;

}  // namespace warpsim

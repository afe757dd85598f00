// What the SASS executor's memory instructions share (sass_exec_memory.cpp, sass_exec_ldsm.cpp,
// sass_exec_atomics.cpp): each lane's address located and checked, and the access counted as
// the GPU's counters count it. Internal to the SASS executor.
#pragma once

#include <cstdint>

#include "sim/core/exec/stats.hpp"
#include "sim/memory/shared_banks.hpp"
#include "sim/sass/sass_lanes.hpp"
#include "sim/sass/sass_warp_words.hpp"

namespace warpsim::sass {

// Generic: global, shared or local, by each address's high word (kSharedWindowHigh: shared,
// kLocalWindowHigh: local).
enum class Space : std::uint8_t { Global, Shared, Local, Generic };

struct Access {
  Space space = Space::Global;
  // Shared memory by cluster address (a generic access in a cluster of several blocks, as
  // cooperative groups' map_shared_rank makes): counted as the IR's dsmem, each lane's
  // accounting address its offset plus the block's rank << 40.
  bool cluster = false;
  unsigned bytes = 4;  // a power of two (data_bytes)
  std::uint64_t address[kWarpSize]{};
  std::uint8_t* data[kWarpSize]{};
};

// Each executing lane's address and host pointer; a fault for the first bad lane.
void locate(const Lanes& x, const Operand& m, Access& acc);

// Counts the access (requests and sectors, or wavefronts) and records it for the timing model.
// `atomic_access`: how a shared atomic serves lanes on one word (memory::SharedAccess), and
// `banked` the lanes whose words the banks serve (a spin pass's served lanes).
void count(const Lanes& x, const Access& acc, exec::GlobalOp global_op, exec::SharedOp shared_op,
           memory::SharedAccess atomic_access = memory::SharedAccess::Atomic,
           std::uint32_t banked = kFullWarpMask);

// ATOMG, REDG, ATOMS and ATOM (sass_exec_atomics.cpp); `returns`: the old value is written.
void atomic(const Lanes& x, Space space, bool returns);

// LDSM (sass_exec_ldsm.cpp).
void load_matrices(const Lanes& x);

}  // namespace warpsim::sass

// How the shared-memory banks serve an instruction's lanes on the H200 (shared_banks.hpp,
// docs/memory.md): which rule a load, store or atomic follows, and the distributed-shared-
// memory atomics that the hardware counts with the block's own shared atomics.
#pragma once

#include <cstdint>

#include "sim/core/exec/state.hpp"
#include "sim/memory/shared_banks.hpp"

namespace warpsim::exec {

// The rule of a shared-memory instruction. ptxas compiles a 32-bit reduction that adds the
// constant 1 to ATOMS.POPC.INC, which counts the lanes on one word at once; remote atomics are
// a generic ATOM, whose rule for other blocks' memory is not measured (they keep the stores'
// distinct-word rule).
memory::SharedAccess shared_access(const DecodedInst& d);

// A distributed-shared-memory atomic's lanes that address their own block are served by the
// SM's own banks, lanes on one word apart, and the H200 counts them with the block's shared
// atomics; lanes of other blocks' memory it does not count there (clusterHist: 19,619 wavefronts
// measured, 19,619 by this rule). Adds them to ctx's shared atomic wavefronts. `addresses`
// carry the target block's rank above bit 40.
void count_own_block_atomics(ExecContext& ctx, const DecodedInst& d, const std::uint64_t* addresses,
                             std::uint32_t mask, unsigned bytes);
// The same for any executor: block `own`'s lanes of `mask`, by `access`, into `stats`.
void count_own_block_atomics(LaunchStats& stats, const std::uint64_t* addresses, std::uint32_t mask,
                             std::uint64_t own, unsigned bytes, memory::SharedAccess access);

// The distinct 128-byte segments of other blocks' shared memory that the lanes of `mask`
// address: what crosses the cluster's network (`addresses` as above; block `own`'s lanes stay
// in the SM).
unsigned remote_segments(const std::uint64_t* addresses, std::uint32_t mask, std::uint64_t own);

}  // namespace warpsim::exec

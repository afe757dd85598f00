// The state a SASS kernel runs on: per warp its registers (R, UR, P, UP), each lane's program
// counter and the convergence barriers (B0-B15); per block its shared memory and its barrier;
// per launch the constant bank the driver fills (launch shape, parameters) and the buffers.
//
// Reconvergence follows the hardware's own scheme since Volta: every lane has its own program
// counter; lanes a divergent branch separated stay separate groups, even where their program
// counters meet, until a convergence barrier or the block's barrier releases them together
// (the H200 executes a BSYNC once per group that reaches it); the warp runs the group at the
// lowest program counter; BSSY records which lanes a convergence barrier waits for, BSYNC waits
// until all of them (those not exited or removed by BREAK) have arrived, WARPSYNC waits for the
// lanes it names.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/core/exec/named_barrier.hpp"
#include "sim/core/exec/stats.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/sass/sass_program.hpp"

namespace warpsim::sass {

// The driver's layout of constant bank 0 on sm_90 (as ptxas addresses it): the block shape
// at 0x0, the grid shape at 0xc, the local-memory stack top at 0x28, the global-memory
// descriptor at 0x208 and the kernel's parameters from 0x210, each aligned to its size.
inline constexpr std::uint32_t kBlockDimOffset = 0x0;
inline constexpr std::uint32_t kGridDimOffset = 0xc;
inline constexpr std::uint32_t kStackTopOffset = 0x28;
inline constexpr std::uint32_t kParamOffset = 0x210;
// The cluster launch (read off ptxas's code for %is_explicit_cluster, %cluster_nctaid,
// %nclusterid and %cluster_nctarank): whether the launch named a cluster shape, that shape, the
// grid's shape in clusters, and the blocks per cluster. ptxas compiles barrier.cluster to the
// block's BAR.SYNC where the first is 0.
inline constexpr std::uint32_t kExplicitClusterOffset = 0x140;
inline constexpr std::uint32_t kClusterDimOffset = 0x144;
inline constexpr std::uint32_t kClusterGridOffset = 0x15c;
inline constexpr std::uint32_t kClusterBlocksOffset = 0x188;
// sm_90 shared-memory window: a block's shared memory starts 1 KB in (the reserved part), and
// an address's bits from 24 name the block within its cluster (SR_CgaCtaId << 24).
inline constexpr std::uint32_t kSharedWindowBase = 0x400;
inline constexpr unsigned kSharedRankShift = 24;
// The high word of a generic address in the shared window (SR_SWINHI): a generic address is
// shared memory (its low word the shared::cluster address above) where its high word is this.
// Any value works that no global buffer's address has; the buffers lie far below 2^47.
inline constexpr std::uint32_t kSharedWindowHigh = 0x8000u;
// The local window, as the driver gives it at c[0x0][0x20] (a 64-bit base): a generic address
// is the thread's local memory (its low word the offset in the thread's frame) where its high
// word is this (ptxas makes one, from the stack pointer R1, to pass printf its arguments).
inline constexpr std::uint32_t kLocalWindowOffset = 0x20;
inline constexpr std::uint32_t kLocalWindowHigh = 0x8001u;
// The CUDA runtime's device functions a kernel calls by absolute address (CALL.ABS.NOINC R,
// the address read from constant bank 4): the addresses bank 4 holds for them here, far from
// every buffer and window.
inline constexpr std::uint64_t kVprintfAddress = 0xfff0'0000'0000'0000ull;
inline constexpr std::uint64_t kAssertfailAddress = 0xfff0'0000'0000'0010ull;
// The runtime function `symbol` names, by the address above; 0 when it names none.
inline std::uint64_t runtime_function_address(std::string_view symbol) {
  return symbol == "vprintf" ? kVprintfAddress : symbol == "__assertfail" ? kAssertfailAddress : 0;
}

// What the timing model shows the SASS one SM runs: the SM's index (SR_VIRTUALSMID, PTX's
// %smid) and its current cycle (SR_CLOCKLO/HI: clock() and clock64()). Functional mode has none:
// every block on SM 0, and the clock counts the warp's instructions.
struct SmView {
  std::uint32_t index = 0;
  const std::uint64_t* cycle = nullptr;
};

struct SassLaunch {
  const SassProgram* program = nullptr;
  const exec::LaunchSpec* spec = nullptr;
  exec::GlobalMemory* global = nullptr;
  std::vector<std::uint8_t> bank0;
  const std::vector<std::uint8_t>* bank2 = nullptr;  // the kernel's own (switch jump tables)
  const std::vector<std::uint8_t>* bank3 = nullptr;  // the module's __constant__ data
  std::vector<std::uint8_t> bank4;  // the module's global variables' addresses (relocated)
  std::uint32_t shared_bytes = 0;   // static (as ptxas allocated) plus dynamic
  std::uint32_t local_bytes = 0;    // per thread: the stack frame
};

enum class LaneWait : std::uint8_t { None, Convergence, Block };

// A warp's state. The fields every step reads (which lanes can run, the converged warp's
// program counter, predicates, the register file's place) come first, next to each other: the
// timing model steps each warp a few times per interval, and where the host's caches cannot
// hold every SM's warps it finds them gone. Per-lane arrays and rarely used state follow.
struct SassWarp {
  std::uint32_t index = 0;
  std::uint32_t lanes = 0;            // lanes holding a thread
  std::uint32_t exited = 0;           // lanes whose thread has exited
  std::uint32_t waiting = 0;          // lanes at a BSYNC or WARPSYNC not yet released
  std::uint32_t block_waiting = 0;    // lanes at BAR.SYNC
  std::uint32_t cluster_waiting = 0;  // lanes at UCGABAR_WAIT
  // Lanes a TRYWAIT suspended (sass_mbarrier.hpp): each one's mbarrier object (mbarrier_object)
  // and the parity of the phase it waits to see completed (a bit per lane).
  std::uint32_t mbarrier_waiting = 0;
  std::uint32_t mbarrier_parity = 0;
  // A YIELD run by part of the warp (ptxas puts one at the head of some loops holding atomics, a
  // compare-and-swap loop among them): its lanes wait there while the warp's other groups run, and
  // the groups waiting at a YIELD go on from it joined, one group per YIELD, once no other lane can
  // run. It breaks the convergence barriers open at that moment for its lanes: at their BSYNC each
  // group goes on as it arrives, leaving the barrier (a BSSY of a broken barrier still open adds
  // lanes that go on alike; barriers set afterwards join lanes as before). Lanes that ran such a
  // YIELD (`apart`) run one group at a time, as ptxas's uniform registers after a BSYNC assume,
  // until a WARPSYNC or the block's barrier joins them. From Nsight Compute's per-instruction
  // counts of random_shape_1024 and _1017 on an H100 (validation/h200/results/h100_2026_12_07e/).
  std::uint32_t yield_waiting = 0;
  std::uint32_t apart = 0;
  // The side of a divergent forward branch that runs first, where it is the taken one: the GPU
  // runs the side with fewer lanes first, the fall-through on a tie (exit_order.cu on an H100,
  // validation/h200/results/h100_2026_12_07b/). next_group keeps to these lanes while any can
  // run; 0 otherwise (the lowest program counter goes first).
  std::uint32_t first_side = 0;
  // Lanes known to run together (one group, one program counter: together_pc); valid only
  // while they are exactly the runnable lanes, 0 when not known. Spares the per-lane search
  // for the next group in a converged warp, the common case.
  std::uint32_t together = 0;
  std::uint32_t together_pc = 0;
  std::uint32_t upred = 0;              // UP0-UP6 bits
  std::array<std::uint32_t, 8> pred{};  // P0-P6 lane masks; [7] PT
  std::vector<std::uint32_t> r;         // reg * 32 + lane
  std::vector<std::uint32_t> ur;
  std::uint64_t executed = 0;  // warp instructions
  // The convergence barriers set by a BSSY whose BSYNC has not yet released them (a bit each):
  // a BSSY there, run by another group of the warp that reached it apart, adds its lanes.
  std::uint16_t barrier_open = 0;
  std::uint16_t barrier_broken = 0;  // those a YIELD broke open (yield_waiting)
  // Groups made by WARPSYNC.EXCLUSIVE are apart: each runs on until it waits (next_group).
  bool exclusive_groups = false;
  // Set by an instruction that polls (a PHASECHK that answered false, NANOSLEEP): the
  // functional run lets the other warps run before this one goes on.
  bool polling = false;
  std::int8_t named_barrier = -1;  // waiting at BAR.SYNC ID, COUNT: the ID; -1 at barrier 0's
  bool cluster_arrival_pending = false;
  std::uint32_t exclusive_left = 0;  // lanes an exclusive WARPSYNC left to run it again
  // Lanes a BRX left behind to run it again for their own targets (jump_indirect).
  std::uint32_t brx_left = 0;
  std::uint32_t groups = 0;  // groups made so far (the next one's id)

  std::array<std::uint32_t, kWarpSize> pc{};     // per lane: instruction index
  std::array<std::uint32_t, kWarpSize> group{};  // per lane: the group it runs in
  std::array<std::uint32_t, 16> barrier{};       // convergence barriers: lane masks

  // The cluster barrier phase the warp's last UCGABAR_ARV joined (SassBlock::cluster_phase then),
  // and whether it is still to be waited for (cluster_arrival_pending): UCGABAR_WAIT passes once
  // that phase is over.
  std::uint64_t cluster_phase_joined = 0;
  std::array<const std::uint8_t*, kWarpSize> mbarrier_object{};
  std::vector<std::uint8_t> local;  // lane * local_bytes + offset
  std::uint32_t printf_calls = 0;   // the warp's executions of a call to vprintf so far
  // What the last BAR.RED this warp passed gave (B2R.RESULT reads it): its operation, the
  // count of true predicates, and whether all were true.
  BarReduction barrier_reduction = BarReduction::None;
  std::uint32_t barrier_count = 0;
  bool barrier_all = false;
  bool done() const { return (lanes & ~exited) == 0; }
  // Lanes that can run now.
  std::uint32_t runnable() const {
    return lanes & ~exited & ~waiting & ~block_waiting & ~cluster_waiting & ~mbarrier_waiting &
           ~yield_waiting;
  }
};

struct SassBlock {
  exec::Dim3 index;
  std::uint64_t linear = 0;
  std::uint32_t rank = 0;  // in its cluster
  std::vector<std::uint8_t> shared;
  // Where the block's shared memory lives when not in `shared`: the timing model's block state,
  // so that the cluster's other blocks reach it (set before prepare_block).
  std::vector<std::uint8_t>* external_shared = nullptr;
  std::vector<std::uint8_t>& memory() {
    return external_shared != nullptr ? *external_shared : shared;
  }
  std::vector<SassWarp> warps;
  // An mbarrier phase of this block's (or, by cluster address, a peer's) completed since the
  // suspended lanes were last checked (release_mbarrier_waits).
  bool mbarrier_completed = false;
  std::uint64_t threads = 0;
  std::uint64_t exited_threads = 0;
  std::uint64_t barrier_arrived = 0;  // threads waiting at BAR.SYNC or BAR.RED
  // The barrier phase under way: BAR.SYNC (None) or BAR.RED's operation (one phase is one
  // kind), and for BAR.RED the arrived threads whose predicate was true.
  BarReduction barrier_reduction = BarReduction::None;
  std::uint64_t barrier_true = 0;
  exec::NamedBarriers named{};        // BAR.SYNC ID, COUNT and BAR.ARV ID, COUNT: each one's phase
  std::uint32_t named_under_way = 0;  // the barriers whose phase has arrivals (bit = id)
  // The cluster barrier: threads of this block arrived in the phase under way, and the phases
  // completed so far.
  std::uint64_t cluster_arrived = 0;
  std::uint64_t cluster_phase = 0;
  // The shared memory of the cluster's blocks by rank, this one's among them (a generic access
  // by cluster address reaches them); empty where the block runs alone.
  std::vector<std::vector<std::uint8_t>*> peers;
};

}  // namespace warpsim::sass

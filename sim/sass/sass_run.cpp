#include "sim/sass/sass_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "sim/core/exec/values.hpp"
#include "sim/sass/sass_executor.hpp"
#include "sim/sass/sass_mbarrier.hpp"

namespace warpsim::sass {
namespace {

void put(std::vector<std::uint8_t>& bank, std::size_t at, const void* bytes, std::size_t n) {
  if (bank.size() < at + n) bank.resize(at + n, 0);
  std::memcpy(bank.data() + at, bytes, n);
}

void put_u32(std::vector<std::uint8_t>& bank, std::size_t at, std::uint64_t v) {
  const auto word = static_cast<std::uint32_t>(v);
  put(bank, at, &word, 4);
}

// The block's first waiting warp, for a fault that names where it waits: the instruction its
// waiting lanes stand at (their program counter stays on the barrier until it opens).
[[noreturn]] void report_stuck(const SassExecutor& ex, const SassProgram& program,
                               const SassBlock& block) {
  for (const SassWarp& w : block.warps) {
    if (w.done()) continue;
    if (w.mbarrier_waiting != 0) {  // their program counters are past the TRYWAIT
      const auto lane = static_cast<unsigned>(std::countr_zero(w.mbarrier_waiting));
      ex.fault(block, w, lane, &program.insts[w.pc[lane] - 1],
               "an mbarrier's phase never completes: its lanes wait for arrivals or "
               "transactions no thread makes");
    }
    const std::uint32_t stuck = w.block_waiting | w.cluster_waiting | w.waiting;
    const unsigned lane =
        static_cast<unsigned>(std::countr_zero(stuck != 0 ? stuck : w.lanes & ~w.exited));
    const Instruction* at =
        w.pc[lane] < program.insts.size() ? &program.insts[w.pc[lane]] : nullptr;
    if (w.block_waiting != 0 && w.named_barrier >= 0) {
      const exec::NamedBarrierPhase& n = block.named[static_cast<unsigned char>(w.named_barrier)];
      ex.fault(block, w, lane, at,
               fmt::format("BAR.SYNC {} never opens: it waits for {} threads and {} arrived",
                           w.named_barrier, n.expected, n.arrived));
    }
    if (w.cluster_waiting != 0) {
      ex.fault(block, w, lane, at,
               "the cluster barrier (UCGABAR_WAIT) never opens: a thread of the cluster never "
               "arrives");
    }
    if (w.block_waiting != 0) {
      ex.fault(block, w, lane, at,
               fmt::format("BAR.SYNC never opens: {} of the block's {} threads still running "
                           "arrived",
                           block.barrier_arrived, block.threads - block.exited_threads));
    }
    ex.fault(block, w, lane, at, "a convergence barrier (BSYNC or WARPSYNC) never completes");
  }
  ex.fault(block, block.warps.front(), 0, nullptr, "the block cannot make progress");
}

}  // namespace

std::optional<SassKernel> decode_kernel(SassListing listing, const KernelResources& resources,
                                        std::vector<ConstantRelocation> relocations,
                                        const KernelConstantBanks& banks, const std::string& kernel,
                                        std::string& error) {
  SassKernel k;
  k.listing = std::move(listing);
  k.constant_relocations = std::move(relocations);
  if (const auto bank = banks.find(kernel); bank != banks.end()) k.bank2 = bank->second;
  const SassFunction* f = k.listing.find(kernel);
  if (f == nullptr) {
    error = "the SASS listing has no kernel named '" + kernel + "'";
    return std::nullopt;
  }
  DecodeError decode_error;
  auto program = decode_program(*f, decode_error);
  if (!program) {
    error = decode_error.message;
    return std::nullopt;
  }
  k.program = std::move(*program);
  k.resources = resources;
  return k;
}

std::optional<SassKernel> compile_sass(const std::string& ptx, const std::string& arch,
                                       const std::string& kernel, std::string& error) {
  SassBuild built = build_sass(ptx, arch);
  if (!built.listing) {
    error = built.error;
    return std::nullopt;
  }
  const auto r = built.resources.find(kernel);
  return decode_kernel(std::move(*built.listing),
                       r == built.resources.end() ? KernelResources{} : r->second,
                       std::move(built.constant_relocations), built.kernel_banks, kernel, error);
}

std::vector<std::uint8_t> constant_bank(const exec::LaunchSpec& launch,
                                        const exec::GlobalMemory& memory,
                                        std::uint32_t local_bytes) {
  std::vector<std::uint8_t> bank(kParamOffset, 0);
  const exec::Dim3 dims[] = {launch.block, launch.grid};
  const std::uint32_t offsets[] = {kBlockDimOffset, kGridDimOffset};
  for (std::size_t d = 0; d < 2; ++d) {
    put_u32(bank, offsets[d], dims[d].x);
    put_u32(bank, offsets[d] + 4, dims[d].y);
    put_u32(bank, offsets[d] + 8, dims[d].z);
  }
  put_u32(bank, kStackTopOffset, local_bytes);
  put_u32(bank, kLocalWindowOffset + 4, kLocalWindowHigh);
  // A cluster launch: as the CUDA backend launches it, with a cluster attribute only for
  // clusters of more than one block.
  const exec::Dim3 cluster{std::max<std::uint64_t>(launch.cluster.x, 1),
                           std::max<std::uint64_t>(launch.cluster.y, 1),
                           std::max<std::uint64_t>(launch.cluster.z, 1)};
  put_u32(bank, kExplicitClusterOffset, cluster.count() > 1 ? 1 : 0);
  const exec::Dim3 shapes[] = {
      cluster, {launch.grid.x / cluster.x, launch.grid.y / cluster.y, launch.grid.z / cluster.z}};
  const std::uint32_t at_offsets[] = {kClusterDimOffset, kClusterGridOffset};
  for (std::size_t d = 0; d < 2; ++d) {
    put_u32(bank, at_offsets[d], shapes[d].x);
    put_u32(bank, at_offsets[d] + 4, shapes[d].y);
    put_u32(bank, at_offsets[d] + 8, shapes[d].z);
  }
  put_u32(bank, kClusterBlocksOffset, cluster.count());
  // Each parameter aligned to its size, in order; or where the importer found it in a PTX
  // entry that passes a struct by value.
  const std::vector<ir::ParamPlace>& places = launch.kernel->ptx_params.places;
  std::size_t at = kParamOffset;
  for (std::size_t i = 0; i < launch.kernel->params.size(); ++i) {
    const ir::KernelParam& p = launch.kernel->params[i];
    std::size_t size = p.is_pointer                     ? 8
                       : p.type == ir::ScalarType::Pred ? 4
                                                        : ir::size_bytes(p.type);
    at = (at + size - 1) / size * size;
    if (!places.empty()) {
      at = kParamOffset + places.at(i).offset;
      size = std::min<std::size_t>(size, places.at(i).bytes);
    }
    std::uint64_t bits = 0;
    if (p.is_pointer) {
      bits = memory.find(p.name)->base_address;
    } else {
      bits = exec::literal_bits(std::get<ir::Literal>(launch.args.at(p.name)),
                                p.type == ir::ScalarType::Pred ? ir::ScalarType::U32 : p.type);
    }
    put(bank, at, &bits, size);
    at += size;
  }
  return bank;
}

// The CUDA runtime's default per-thread stack (cudaDeviceGetLimit(cudaLimitStackSize)).
constexpr std::uint32_t kDefaultStackBytes = 1024;

SassLaunch make_launch(const SassKernel& kernel, const exec::LaunchSpec& launch,
                       exec::GlobalMemory& memory, const std::vector<std::uint8_t>& constants) {
  SassLaunch l;
  l.program = &kernel.program;
  l.spec = &launch;
  l.global = &memory;
  l.local_bytes = kernel.resources.stack_frame;
  // A kernel that calls functions may recurse, and ptxas then reports no stack size for it; the
  // driver gives every thread the runtime's stack limit (cudaLimitStackSize, 1 KiB by default).
  const bool calls = std::any_of(kernel.program.insts.begin(), kernel.program.insts.end(),
                                 [](const Instruction& i) { return i.op == Op::CALL; });
  if (calls) l.local_bytes = std::max(l.local_bytes, kDefaultStackBytes);
  l.bank0 = constant_bank(launch, memory, l.local_bytes);
  l.bank2 = &kernel.bank2;
  l.bank3 = &constants;
  // Bank 4: each relocated slot holds its global variable's address in this launch.
  for (const ConstantRelocation& r : kernel.constant_relocations) {
    std::uint64_t address = runtime_function_address(r.symbol);
    if (address == 0) {
      const exec::GlobalBuffer* b = memory.find(r.symbol);
      // The frontend checked that every relocated symbol is a global variable of the module.
      if (b == nullptr) throw std::logic_error("no buffer for the relocated '" + r.symbol + "'");
      address = b->base_address;
    }
    address += static_cast<std::uint64_t>(r.addend);
    put(l.bank4, r.offset, &address, 8);
  }
  l.shared_bytes = static_cast<std::uint32_t>(kernel.resources.shared + launch.dynamic_smem);
  return l;
}

namespace {

// Runs one cluster's blocks: each warp as far as it can go (at most exec::kWarpQuantum
// instructions), then the barriers that can open (each block's own, then the cluster's), until
// every warp is done (true) or a warp ran a whole quantum (false: the cluster yields to others).
bool run_cluster_turn(SassExecutor& ex, const SassProgram& program,
                      const std::vector<SassBlock*>& blocks, const SassTrace& trace,
                      const exec::ExecOptions& options, const exec::LaunchStats& stats) {
  for (;;) {
    bool progress = false, done = true, cut = false;
    for (SassBlock* block : blocks) {
      for (SassWarp& w : block->warps) {
        const bool watched =
            trace.hook != nullptr && block->linear == trace.block && w.index == trace.warp;
        const std::uint64_t stop = stats.warp_instructions + exec::kWarpQuantum;
        while (w.runnable() != 0) {
          if (stats.warp_instructions >= stop) {
            cut = true;
            break;
          }
          if (watched) {
            const auto [pc, active] = SassExecutor::next_group(w);
            trace.hook->before(program, w, pc, active);
          }
          ex.step(*block, w);
          if (watched && w.done()) trace.hook->finished(w);
          progress = true;
          if (w.polling) {  // a wait loop: let the others run, then come back
            w.polling = false;
            break;
          }
          if (stats.warp_instructions > options.max_warp_instructions) {
            ex.fault_at_next(
                *block, w,
                fmt::format("more than {} warp instructions executed; the kernel may never "
                            "finish (raise the limit with --max-warp-insts)",
                            options.max_warp_instructions));
          }
        }
        done = done && w.done();
      }
    }
    if (done) return true;
    bool released = false;
    // An arrival by cluster address completes a peer's mbarrier: check every block's waits.
    const bool completed = std::any_of(blocks.begin(), blocks.end(),
                                       [](const SassBlock* b) { return b->mbarrier_completed; });
    for (SassBlock* block : blocks) {
      block->mbarrier_completed = completed;
      released = release_mbarrier_waits(*block) || released;
    }
    for (SassBlock* block : blocks)
      released = ex.release_named_barriers(*block) || ex.release_block_barrier(*block) || released;
    if (released || ex.release_cluster_barrier(blocks)) continue;
    if (!progress) {
      for (SassBlock* block : blocks) {
        if (!std::all_of(block->warps.begin(), block->warps.end(),
                         [](const SassWarp& w) { return w.done(); }))
          report_stuck(ex, program, *block);
      }
    }
    if (cut) return false;
  }
}

// A cluster in flight: its blocks, and pointers to them by rank (what the barriers take).
struct ClusterInFlight {
  std::vector<SassBlock> blocks;
  std::vector<SassBlock*> members;
};

}  // namespace

exec::LaunchResult execute_sass(const SassKernel& kernel, const exec::LaunchSpec& launch,
                                const std::vector<std::uint8_t>& constants,
                                const exec::ExecOptions& options, const SassTrace& trace) {
  const auto setup_start = std::chrono::steady_clock::now();
  exec::LaunchResult result;
  result.memory = exec::GlobalMemory::allocate(launch);
  const SassLaunch l = make_launch(kernel, launch, result.memory, constants);
  SassExecutor ex(l, result.stats);
  const auto start = std::chrono::steady_clock::now();
  result.timing.setup_seconds = std::chrono::duration<double>(start - setup_start).count();
  // A cluster's blocks run together (its barrier and each other's shared memory), clusters one
  // after another in ascending order, as the IR executor runs them; a cluster that yields lets
  // the next start (exec::kWarpQuantum says when).
  const exec::Dim3 cluster{std::max<std::uint64_t>(launch.cluster.x, 1),
                           std::max<std::uint64_t>(launch.cluster.y, 1),
                           std::max<std::uint64_t>(launch.cluster.z, 1)};
  const exec::Dim3 clusters{launch.grid.x / cluster.x, launch.grid.y / cluster.y,
                            launch.grid.z / cluster.z};
  exec::run_clusters_in_turns<ClusterInFlight>(
      clusters.count(), exec::clusters_in_flight(cluster.count() * launch.block.count()),
      [&](ClusterInFlight& f, std::uint64_t position) {
        f.blocks.resize(cluster.count());
        f.members.clear();
        const exec::Dim3 at = exec::unflatten(position, clusters);
        for (std::uint64_t rank = 0; rank < f.blocks.size(); ++rank) {
          const exec::Dim3 in = exec::unflatten(rank, cluster);
          const exec::Dim3 index{at.x * cluster.x + in.x, at.y * cluster.y + in.y,
                                 at.z * cluster.z + in.z};
          ex.prepare_block(f.blocks[rank], index, exec::flatten(index, launch.grid),
                           static_cast<std::uint32_t>(rank));
          f.members.push_back(&f.blocks[rank]);
        }
        if (f.blocks.size() > 1) {
          for (SassBlock& b : f.blocks) {
            b.peers.resize(f.blocks.size());
            for (std::size_t rank = 0; rank < f.blocks.size(); ++rank)
              b.peers[rank] = &f.blocks[rank].memory();
          }
        }
      },
      [&](ClusterInFlight& f) {
        return run_cluster_turn(ex, *l.program, f.members, trace, options, result.stats);
      },
      [&](std::uint64_t finished) {
        if (options.progress != nullptr)
          options.progress->blocks(finished * cluster.count(), launch.blocks());
      });
  result.timing.simulate_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  exec::sort_printed(result.stats.printed);
  return result;
}

}  // namespace warpsim::sass

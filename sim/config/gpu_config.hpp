// A GPU description, read from an INI file (configs/*.ini) with Boost.Program_options.
//
// Every key is declared once, in config_keys.cpp, with its type, unit, default (or "required")
// and a one-line description. Loading rejects, naming the file and line: an unknown key, a
// key given twice, a line that is not `key = value`, `[section]` or a comment, a value of the
// wrong type or outside its range; and a missing required key, naming the file. Overrides
// (`--set section.key=value`) are checked the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/gpu_constants.hpp"

namespace warpsim::config {

// Both enumerations list their choices in the order of their config key's words (timing_keys.cpp).
enum class SchedulerPolicy : std::uint8_t { LooseRoundRobin, GreedyThenOldest, TwoLevel };
// When a warp that stored may exit: once the L2 has acknowledged its stores, once they have
// reached the L2, or once its L1 has taken them (their registers read).
enum class StoreExit : std::uint8_t { Acknowledged, Arrived, Accepted };

// The timing model's parameters ([timing] and [memory]); cycles are SM clock cycles. Latency:
// from issue until a dependent instruction may issue. Interval: cycles a sub-partition's pipe
// is busy per warp instruction (32 lanes over the pipe's width).
struct TimingConfig {
  // The keys' defaults (timing_keys.cpp), for a TimingConfig made without a config file.
  SchedulerPolicy scheduler = SchedulerPolicy::LooseRoundRobin;
  std::uint64_t two_level_active_warps = 0;
  std::uint64_t unroll_factor = 1;  // the compiler's loop unrolling (loop_unroll.hpp)
  std::uint64_t gpcs = 0;
  std::uint64_t launch_overhead_cycles = 0;
  std::uint64_t gpc_launch_cycles = 0;  // each further GPC that runs blocks of the launch
  std::uint64_t block_launch_cycles = 0;
  std::uint64_t blocks_starting = 0;  // per SM, in their launch latency at once
  std::uint64_t first_wave_block_cycles = 0, first_wave_warp_cycles = 0;
  std::uint64_t cluster_block_launch_cycles = 0;
  std::uint64_t block_launch_latency = 0;
  std::uint64_t launch_latency_in_flight = 0;  // the end of block_launch_latency, warps counted
  StoreExit store_exit = StoreExit::Arrived;
  std::uint64_t int_latency = 0, int_interval = 0;
  std::uint64_t fp32_latency = 0, fp32_interval = 0;
  std::uint64_t imul_latency = 0, imul_interval = 0;
  std::uint64_t fp64_latency = 0, fp64_interval = 0;
  std::uint64_t sfu_latency = 0, sfu_interval = 0;
  std::uint64_t int_div_latency = 0, int_rem_latency = 0, int_div_interval = 0;
  std::uint64_t convert_latency = 0, convert_interval = 0;
  std::uint64_t convert_f64_latency = 0;
  std::uint64_t branch_latency = 0, branch_interval = 0;
  std::uint64_t barrier_latency = 0;
  std::uint64_t const_latency = 0;
  std::uint64_t const_miss_latency = 0;        // a constant line the SM has not read this launch
  std::uint64_t const_first_miss_latency = 0;  // instead, for the SM's first such line
  std::uint64_t const_serial_cycles = 0;       // each further distinct address of a warp's load
  // From a flushed L2 (the launch's code and constant lines in DRAM): the extra wait for an
  // SM's first instructions, for its first constant line and for each further one it misses.
  std::uint64_t cold_code_cycles = 0;
  std::uint64_t cold_const_first_cycles = 0;
  std::uint64_t cold_const_cycles = 0;
  std::uint64_t shared_latency = 0;
  std::uint64_t shared_cycles_per_wavefront = 0;
  std::uint64_t shared_partition_cycles_per_wavefront = 0;
  std::uint64_t dsmem_latency = 0;
  std::uint64_t dsmem_cycles_per_request = 0;
  std::uint64_t dsmem_bytes_per_cycle = 0;
  std::uint64_t cluster_barrier_latency = 0;
  std::uint64_t mio_queue_cycles = 0;
  std::uint64_t global_address_issue = 0;    // compiled address arithmetic of a global access
  std::uint64_t shared_address_issue = 0;    // the same for a shared access
  std::uint64_t special_register_issue = 0;  // an S2R per special register read
  // [memory]
  std::uint64_t l1_bytes = 0;  // L1 and shared memory together; L1 gets what shared does not
  std::uint64_t l1_ways = 0;
  std::uint64_t l1_hit_latency = 0;
  std::uint64_t local_hit_latency = 0;  // a local load hitting L1
  std::uint64_t lsu_cycles_per_line = 0;
  std::uint64_t lsu_min_cycles_per_request = 1;  // a load request's least tag-stage time
  std::uint64_t lsu_store_cycles_per_line = 0;
  std::uint64_t sm_l2_bytes_per_cycle = 0;  // answers from the L2 into one SM (0: unlimited)
  std::uint64_t lg_queue_cycles = 0;
  std::uint64_t l1_max_outstanding_lines = 0;
  std::uint64_t l2_slices = 0;
  std::uint64_t l2_partitions = 0;
  std::uint64_t l2_ways = 0;
  std::uint64_t l2_latency = 0;      // an L1 miss that hits in L2: extra cycles over an L1 hit
  std::uint64_t l2_far_latency = 0;  // a line fetched from its home partition: extra cycles
  std::uint64_t l2_bytes_per_cycle = 0;
  std::uint64_t l2_crossing_bytes_per_cycle = 0;  // between the partitions (0: unlimited)
  std::uint64_t l2_atomic_cycles_per_request = 0;
  std::uint64_t l2_atomic_units = 0;                  // units applying atomics (0: one per slice)
  std::uint64_t l2_atomic_unit_shared_line_bits = 0;  // line-index bits that choose no unit
  std::uint64_t l2_atomic_lanes_per_cycle = 0;        // all units together (0: unlimited)
  std::uint64_t l2_atomic_request_min_lanes = 1;      // ...where a request counts at least these
  std::uint64_t l2_atomic_min_lanes = 1;           // on a word just updated: at least these lanes
  std::uint64_t l2_atomic_integer_min_lanes = 1;   // ...where the update is not a float add
  std::uint64_t l2_atomic_spread_min_lanes = 1;    // one lane on other words: at least these lanes
  std::uint64_t l2_atomic_group_min_lanes = 1;     // more lanes on other words: at least these
  std::uint64_t l2_partial_sector_cost_pct = 100;  // a sector written in part, % of a read one
  std::uint64_t l2_partial_write_cost_pct = 0;     // a line's request written in part: extra
  std::uint64_t l2_merged_write_cost_pct = 0;      // a request merged into the previous one
  std::uint64_t l2_write_merge_lines = 0;          // stores of at most this many lines merge
  std::uint64_t dram_latency = 0;                  // an L2 miss: extra cycles over an L2 hit
  std::uint64_t dram_bytes_per_cycle = 0;
  std::uint64_t dram_channels = 0;
  std::uint64_t dram_access_sectors = 1;  // a DRAM read moves aligned groups of this many sectors
  std::uint64_t dram_loaded_latency = 0;  // extra latency of a miss at full DRAM bandwidth
  std::uint64_t dram_load_window = 1;     // cycles over which DRAM throughput is averaged
  // [sass]: the SASS frontend's values of the keys above where they differ from the IR
  // frontend's, whose latencies also stand for the compiled instructions the IR does not show
  // (sass_timing applies them); and what only SASS has.
  std::uint64_t sass_launch_overhead_cycles = 0;
  std::uint64_t sass_l1_hit_latency = 0;
  std::uint64_t sass_shared_latency = 0;
  std::uint64_t sass_l2_latency = 0;
  std::uint64_t sass_dram_latency = 0;
  std::uint64_t sass_convert_latency = 0;
  std::uint64_t sass_convert_f64_latency = 0;
  std::uint64_t sass_sfu_latency = 0;
  std::uint64_t sass_special_register_latency = 0;  // S2R, to the instruction that waits for it
  std::uint64_t sass_immediate_constant_miss_latency = 0;  // a constant operand's line missing
  std::uint64_t sass_translation_miss_latency = 0;  // a global page the SM has not translated
  // What the timing model uses (the SASS frontend's value; the IR frontend has none).
  std::uint64_t translation_miss_latency = 0;
};

// `t` as the SASS frontend times with it: its [sass] values in place of the IR frontend's.
TimingConfig sass_timing(const TimingConfig& t);

struct GpuConfig {
  // [gpu]
  std::string name;
  std::uint32_t cc_major = 0, cc_minor = 0;
  std::uint64_t sm_count = 0;
  std::uint64_t clock_mhz = 0;  // 0: not given
  std::uint64_t l2_bytes = 0;   // 0: not given
  // [sm]
  std::uint64_t max_threads_per_sm = 0;
  std::uint64_t max_blocks_per_sm = 0;
  std::uint64_t registers_per_sm = 0;
  std::uint64_t max_registers_per_thread = 0;
  std::uint64_t max_registers_per_block = 0;
  std::uint64_t register_allocation_unit = 0;
  std::uint64_t sub_partitions = 0;
  std::uint64_t fp32_cores_per_sm = 0;
  std::uint64_t shared_memory_per_sm = 0;
  std::uint64_t shared_memory_per_block = 0;
  std::uint64_t shared_memory_per_block_optin = 0;
  std::uint64_t reserved_shared_memory_per_block = 0;
  std::uint64_t shared_memory_allocation_unit = 0;
  std::vector<std::uint64_t> shared_memory_carveouts;  // bytes, ascending; empty: any size
  // [block]
  std::uint64_t max_threads_per_block = 0;
  TimingConfig timing;

  std::uint64_t max_warps_per_sm() const { return max_threads_per_sm / kWarpSize; }

  // Every key with its effective value as text, in declaration order (for show and JSON).
  struct Entry {
    std::string key, value, unit, description, origin;  // origin: file line, default, --set
  };
  std::vector<Entry> entries;
  std::string source;  // the file, or the built-in name
};

struct ConfigError {
  std::string message;  // "file:line: error: ..." or "file: error: ..."
};

// Parses `text` (from `file`, for messages) and applies `overrides` ("section.key=value").
// Returns the config or every error found.
std::variant<GpuConfig, std::vector<ConfigError>> load_config(
    const std::string& file, const std::string& text, const std::vector<std::string>& overrides);

}  // namespace warpsim::config

#include "sim/core/config/config_keys.hpp"

namespace warpsim::config {

const std::vector<KeySpec>& config_keys() {
  using K = KeyType;
  static const std::vector<KeySpec> keys = {
      {"gpu.name", K::Text, "", std::nullopt, "the GPU's name"},
      {"gpu.compute_capability", K::CapabilityVersion, "", std::nullopt,
       "compute capability, major.minor (e.g. 9.0)"},
      {"gpu.sm_count", K::Integer, "SMs", std::nullopt, "streaming multiprocessors", 1, 4096},
      {"gpu.clock_mhz", K::Integer, "MHz", "0", "SM clock; 0 when not given", 0, 100000},
      {"gpu.l2_bytes", K::Integer, "bytes", "0", "L2 cache size; 0 when not given"},
      {"sm.max_threads", K::Integer, "threads", std::nullopt,
       "resident threads per SM (maxThreadsPerMultiProcessor)", 32, 65536},
      {"sm.max_blocks", K::Integer, "blocks", std::nullopt,
       "resident blocks per SM (maxBlocksPerMultiProcessor)", 1, 1024},
      {"sm.registers", K::Integer, "32-bit registers", std::nullopt,
       "register file per SM (regsPerMultiprocessor)", 1, 1u << 24},
      {"sm.max_registers_per_thread", K::Integer, "registers", "255",
       "most registers one thread may use", 1, 1024},
      {"sm.max_registers_per_block", K::Integer, "registers", "65536",
       "most registers one block may use (regsPerBlock)", 1, 1u << 24},
      {"sm.register_allocation_unit", K::Integer, "registers", "256",
       "registers are allocated per warp in multiples of this", 1, 65536},
      {"sm.sub_partitions", K::Integer, "", "4",
       "SM sub-partitions (warp schedulers); the register file is split evenly among them", 1, 64},
      {"sm.fp32_cores", K::Integer, "cores", "128", "FP32 lanes per SM", 1, 4096},
      {"sm.shared_memory_bytes", K::Integer, "bytes", std::nullopt,
       "shared memory per SM at the largest carveout (sharedMemPerMultiprocessor)", 0, 1u << 30},
      {"sm.shared_memory_per_block_bytes", K::Integer, "bytes", "49152",
       "shared memory a block may use without opting in (sharedMemPerBlock)", 0, 1u << 30},
      {"sm.shared_memory_per_block_optin_bytes", K::Integer, "bytes", "49152",
       "shared memory a block may use after opting in (sharedMemPerBlockOptin)", 0, 1u << 30},
      {"sm.reserved_shared_memory_per_block_bytes", K::Integer, "bytes", "1024",
       "shared memory the driver reserves per block (reservedSharedMemPerBlock; 1 KB on sm_80+)", 0,
       1u << 20},
      {"sm.shared_memory_allocation_unit", K::Integer, "bytes", "128",
       "shared memory is allocated per block in multiples of this", 1, 1u << 20},
      {"sm.shared_memory_carveouts_kb", K::KilobyteList, "KB", "",
       "the shared-memory sizes an SM can be configured to, ascending (empty: any)"},
      {"block.max_threads", K::Integer, "threads", "1024", "threads per block (maxThreadsPerBlock)",
       1, 65536},
  };
  static const std::vector<KeySpec> all = [] {
    std::vector<KeySpec> v = keys;
    for (const TimingKey& t : timing_keys()) v.push_back(t.spec);
    return v;
  }();
  return all;
}

void assign(GpuConfig& c, const KeySpec& spec, std::uint64_t v, const std::string& text,
            const std::vector<std::uint64_t>& list) {
  const std::string_view k = spec.key;
  if (k == "gpu.name")
    c.name = text;
  else if (k == "gpu.compute_capability") {
    c.cc_major = static_cast<std::uint32_t>(v / 10);
    c.cc_minor = static_cast<std::uint32_t>(v % 10);
  } else if (k == "gpu.sm_count")
    c.sm_count = v;
  else if (k == "gpu.clock_mhz")
    c.clock_mhz = v;
  else if (k == "gpu.l2_bytes")
    c.l2_bytes = v;
  else if (k == "sm.max_threads")
    c.max_threads_per_sm = v;
  else if (k == "sm.max_blocks")
    c.max_blocks_per_sm = v;
  else if (k == "sm.registers")
    c.registers_per_sm = v;
  else if (k == "sm.max_registers_per_thread")
    c.max_registers_per_thread = v;
  else if (k == "sm.max_registers_per_block")
    c.max_registers_per_block = v;
  else if (k == "sm.register_allocation_unit")
    c.register_allocation_unit = v;
  else if (k == "sm.sub_partitions")
    c.sub_partitions = v;
  else if (k == "sm.fp32_cores")
    c.fp32_cores_per_sm = v;
  else if (k == "sm.shared_memory_bytes")
    c.shared_memory_per_sm = v;
  else if (k == "sm.shared_memory_per_block_bytes")
    c.shared_memory_per_block = v;
  else if (k == "sm.shared_memory_per_block_optin_bytes")
    c.shared_memory_per_block_optin = v;
  else if (k == "sm.reserved_shared_memory_per_block_bytes")
    c.reserved_shared_memory_per_block = v;
  else if (k == "sm.shared_memory_allocation_unit")
    c.shared_memory_allocation_unit = v;
  else if (k == "sm.shared_memory_carveouts_kb")
    c.shared_memory_carveouts = list;
  else if (k == "block.max_threads")
    c.max_threads_per_block = v;
  else if (k == "timing.scheduler")
    c.timing.scheduler = text == "lrr"   ? SchedulerPolicy::LooseRoundRobin
                         : text == "gto" ? SchedulerPolicy::GreedyThenOldest
                                         : SchedulerPolicy::TwoLevel;
  else if (k == "timing.store_exit")
    c.timing.store_exit = text == "accepted"  ? StoreExit::Accepted
                          : text == "arrived" ? StoreExit::Arrived
                                              : StoreExit::Acknowledged;
  else {
    for (const TimingKey& t : timing_keys()) {
      if (t.spec.key == k && t.field != nullptr) c.timing.*t.field = v;
    }
  }
}

}  // namespace warpsim::config

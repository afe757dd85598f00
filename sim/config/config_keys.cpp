#include "sim/config/config_keys.hpp"

namespace warpsim::config {
namespace {

void store_name(GpuConfig& c, const KeyValue& v) {
  c.name = v.text;
}
void store_capability(GpuConfig& c, const KeyValue& v) {
  c.cc_major = static_cast<std::uint32_t>(v.integer / 10);
  c.cc_minor = static_cast<std::uint32_t>(v.integer % 10);
}
void store_carveouts(GpuConfig& c, const KeyValue& v) {
  c.shared_memory_carveouts = v.list;
}

}  // namespace

const std::vector<KeySpec>& config_keys() {
  using K = KeyType;
  using G = GpuConfig;
  static const std::vector<KeySpec> keys = {
      {"gpu.name", K::Text, "", std::nullopt, "the GPU's name", &store_name},
      {"gpu.compute_capability", K::CapabilityVersion, "", std::nullopt,
       "compute capability, major.minor (e.g. 9.0)", &store_capability},
      {"gpu.sm_count", K::Integer, "SMs", std::nullopt, "streaming multiprocessors", &G::sm_count,
       1, 4096},
      {"gpu.clock_mhz", K::Integer, "MHz", "0", "SM clock; 0 when not given", &G::clock_mhz, 0,
       100000},
      {"gpu.l2_bytes", K::Integer, "bytes", "0", "L2 cache size; 0 when not given", &G::l2_bytes},
      {"sm.max_threads", K::Integer, "threads", std::nullopt,
       "resident threads per SM (maxThreadsPerMultiProcessor)", &G::max_threads_per_sm, 32, 65536},
      {"sm.max_blocks", K::Integer, "blocks", std::nullopt,
       "resident blocks per SM (maxBlocksPerMultiProcessor)", &G::max_blocks_per_sm, 1, 1024},
      {"sm.registers", K::Integer, "32-bit registers", std::nullopt,
       "register file per SM (regsPerMultiprocessor)", &G::registers_per_sm, 1, 1u << 24},
      {"sm.max_registers_per_thread", K::Integer, "registers", "255",
       "most registers one thread may use", &G::max_registers_per_thread, 1, 1024},
      {"sm.max_registers_per_block", K::Integer, "registers", "65536",
       "most registers one block may use (regsPerBlock)", &G::max_registers_per_block, 1, 1u << 24},
      {"sm.register_allocation_unit", K::Integer, "registers", "256",
       "registers are allocated per warp in multiples of this", &G::register_allocation_unit, 1,
       65536},
      {"sm.sub_partitions", K::Integer, "", "4",
       "SM sub-partitions (warp schedulers); the register file is split evenly among them",
       &G::sub_partitions, 1, 64},
      {"sm.fp32_cores", K::Integer, "cores", "128", "FP32 lanes per SM", &G::fp32_cores_per_sm, 1,
       4096},
      {"sm.shared_memory_bytes", K::Integer, "bytes", std::nullopt,
       "shared memory per SM at the largest carveout (sharedMemPerMultiprocessor)",
       &G::shared_memory_per_sm, 0, 1u << 30},
      {"sm.shared_memory_per_block_bytes", K::Integer, "bytes", "49152",
       "shared memory a block may use without opting in (sharedMemPerBlock)",
       &G::shared_memory_per_block, 0, 1u << 30},
      {"sm.shared_memory_per_block_optin_bytes", K::Integer, "bytes", "49152",
       "shared memory a block may use after opting in (sharedMemPerBlockOptin)",
       &G::shared_memory_per_block_optin, 0, 1u << 30},
      {"sm.reserved_shared_memory_per_block_bytes", K::Integer, "bytes", "1024",
       "shared memory the driver reserves per block (reservedSharedMemPerBlock; 1 KB on sm_80+)",
       &G::reserved_shared_memory_per_block, 0, 1u << 20},
      {"sm.shared_memory_allocation_unit", K::Integer, "bytes", "128",
       "shared memory is allocated per block in multiples of this",
       &G::shared_memory_allocation_unit, 1, 1u << 20},
      {"sm.shared_memory_carveouts_kb", K::KilobyteList, "KB", "",
       "the shared-memory sizes an SM can be configured to, ascending (empty: any)",
       &store_carveouts},
      {"block.max_threads", K::Integer, "threads", "1024", "threads per block (maxThreadsPerBlock)",
       &G::max_threads_per_block, 1, 65536},
  };
  static const std::vector<KeySpec> all = [] {
    std::vector<KeySpec> v = keys;
    v.insert(v.end(), timing_keys().begin(), timing_keys().end());
    v.insert(v.end(), sass_timing_keys().begin(), sass_timing_keys().end());
    return v;
  }();
  return all;
}

void assign(GpuConfig& config, const KeySpec& spec, const KeyValue& value) {
  struct Store {
    GpuConfig& c;
    const KeyValue& v;
    void operator()(std::uint64_t GpuConfig::*field) const { c.*field = v.integer; }
    void operator()(std::uint64_t TimingConfig::*field) const { c.timing.*field = v.integer; }
    void operator()(KeyStore store) const { store(c, v); }
  };
  std::visit(Store{config, value}, spec.target);
}

}  // namespace warpsim::config

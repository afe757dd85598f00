// The SASS frontend's keys ([sass]). The IR frontend's latencies were fitted with the IR's own
// instructions in each measured chain; the SASS frontend issues the compiled instructions
// themselves (their stall counts included), so its latencies are what remains of the same
// measurements. Defaults are the H200's (configs/h200.ini gives each derivation).
#include "sim/config/config_keys.hpp"

namespace warpsim::config {

const std::vector<KeySpec>& sass_timing_keys() {
  using K = KeyType;
  using T = TimingConfig;
  static const std::vector<KeySpec> keys = {
      {"sass.launch_overhead_cycles", K::Integer, "cycles", "2421",
       "timing.launch_overhead_cycles on the SASS frontend", &T::sass_launch_overhead_cycles, 0,
       1u << 30},
      {"sass.l1_hit_latency", K::Integer, "cycles", "35",
       "memory.l1_hit_latency on the SASS frontend: LDG hitting L1, to the instruction waiting "
       "for it",
       &T::sass_l1_hit_latency, 1, 1u << 20},
      {"sass.shared_latency", K::Integer, "cycles", "21",
       "timing.shared_latency on the SASS frontend: LDS, to the instruction waiting for it",
       &T::sass_shared_latency, 1, 4096},
      {"sass.l2_latency", K::Integer, "cycles", "264", "memory.l2_latency on the SASS frontend",
       &T::sass_l2_latency, 1, 1u << 20},
      {"sass.dram_latency", K::Integer, "cycles", "294", "memory.dram_latency on the SASS frontend",
       &T::sass_dram_latency, 1, 1u << 20},
      {"sass.convert_latency", K::Integer, "cycles", "17",
       "F2I, I2F and F2F between 32-bit kinds, to the instruction waiting for it",
       &T::sass_convert_latency, 1, 4096},
      {"sass.convert_f64_latency", K::Integer, "cycles", "18",
       "F2F, F2I and I2F to or from a 64-bit kind", &T::sass_convert_f64_latency, 1, 4096},
      {"sass.sfu_latency", K::Integer, "cycles", "20",
       "MUFU (reciprocal, square root, exponential, ...), to the instruction waiting for it",
       &T::sass_sfu_latency, 1, 4096},
      {"sass.special_register_latency", K::Integer, "cycles", "20",
       "S2R (thread and block indices, clocks), to the instruction waiting for it",
       &T::sass_special_register_latency, 1, 4096},
      {"sass.immediate_constant_miss_latency", K::Integer, "cycles", "110",
       "a constant operand's line the SM's immediate-constant cache lacks, until warps needing "
       "it may issue",
       &T::sass_immediate_constant_miss_latency, 0, 1u << 20},
      {"sass.translation_miss_latency", K::Integer, "cycles", "0",
       "a global access to a 2 MiB page the SM has not translated in the launch, before it "
       "leaves the L1's tag stage (accesses to the page meanwhile wait for the same translation)",
       &T::sass_translation_miss_latency, 0, 1u << 20},
  };
  return keys;
}

TimingConfig sass_timing(const TimingConfig& t) {
  TimingConfig s = t;
  s.launch_overhead_cycles = t.sass_launch_overhead_cycles;
  s.l1_hit_latency = t.sass_l1_hit_latency;
  s.shared_latency = t.sass_shared_latency;
  s.l2_latency = t.sass_l2_latency;
  s.dram_latency = t.sass_dram_latency;
  s.convert_latency = t.sass_convert_latency;
  s.convert_f64_latency = t.sass_convert_f64_latency;
  s.sfu_latency = t.sass_sfu_latency;
  s.translation_miss_latency = t.sass_translation_miss_latency;
  return s;
}

}  // namespace warpsim::config

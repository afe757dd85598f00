// The memory below the SMs: a sectored L2 in slices (interleaved by line) and DRAM channels,
// each a server with a bandwidth, so requests queue behind each other (the back-pressure the
// SMs feel through their bounded miss queues). Requests of all SMs are resolved together in one
// deterministic order (cycle, SM, sequence), whatever thread simulated the SM.
//
// The L2 is split in partitions, each caching for the SMs of its share of the GPCs (as
// Hopper's two halves do): data every SM reads is held in each, so each partition's slices
// hold a copy. A request goes to a slice of its SM's partition, chosen by a hash of the line.
//
// Timing of a read: it reaches its slice l2_latency/2 after leaving the L1, waits for the slice
// (sectors x 32 bytes at the slice's share of l2_bytes_per_cycle), and returns l2_latency/2
// later when every sector hits; a missing sector is read from its DRAM channel (bandwidth
// shared the same way) and arrives dram_latency later, plus dram_loaded_latency in proportion
// to how busy the side's DRAM has been lately (queues in the DRAM's banks: the GPU's latency
// grows with the load long before the bandwidth is reached). DRAM reads move aligned groups of
// dram_access_sectors sectors, all of which the L2 keeps. Writes allocate in L2 and mark sectors
// dirty (write-back: evicting a dirty line writes its dirty sectors to DRAM). Atomics are
// applied by the line's atomic unit, on the line as its home slice holds it, in the order above.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/memory/bandwidth_server.hpp"
#include "sim/memory/sector_cache.hpp"

namespace warpsim::memory {

enum class RequestKind : std::uint8_t { Read, Write, Atomic };

struct L2Request {
  std::uint64_t cycle = 0;  // when it leaves the L1
  std::uint32_t sm = 0;
  std::uint32_t seq = 0;  // issue order within the SM
  std::uint64_t line = 0;
  std::uint8_t sectors = 0;            // mask of the line's four sectors
  std::uint8_t partial = 0;            // writes: sectors written only in part
  std::uint8_t merged_lanes = 0;       // writes: lanes merged into the warp's previous store's
  std::uint8_t lanes = 0;              // atomics, writes: lanes updating this line
  std::uint8_t lane_words = 1;         // atomics: 4-byte words each lane updates (2: 64-bit)
  std::uint32_t words = 0;             // atomics, writes: the line's 4-byte words they update
  std::uint8_t lanes_on_one_word = 1;  // atomics: the most lanes updating one of those words
  bool float_update = false;           // atomics: a floating-point add
  RequestKind kind = RequestKind::Read;
  std::int32_t atomic = -1;  // the SM's deferred atomic applied here, if any
  std::uint64_t done = 0;    // resolved: when the data (or acknowledgement) is back at the L1

  // Atomics: the 4-byte words its lanes update, counted once per lane (a 64-bit lane twice).
  std::uint64_t word_updates() const { return std::uint64_t{lanes} * lane_words; }
};

struct MemoryCounters {
  std::uint64_t l2_sector_lookups = 0, l2_sector_hits = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
};

class MemorySystem {
 public:
  // `partition_of_sm[s]`: the L2 partition SM s uses (missing SMs use partition 0).
  MemorySystem(const config::GpuConfig& gpu, std::vector<std::uint32_t> partition_of_sm = {});

  // Lines are homed on one of `sides()` memory sides by their hash: a side's L2 slices (in every
  // partition) hold only its lines and its DRAM channels serve only them, so the sides share
  // no state and can be resolved on different threads with the same outcome.
  std::uint32_t sides() const { return sides_; }
  std::uint32_t side_of(std::uint64_t line) const;

  // Resolves `requests`, already in (cycle, sm, seq) order: sets each one's `done`, no earlier
  // than `not_before` (the end of the interval the requests were issued in). `apply_atomic`
  // is called for Atomic requests as they reach their slice.
  template <typename ApplyAtomic>
  void resolve(std::vector<L2Request*>& requests, std::uint64_t not_before, ApplyAtomic&& apply) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (i + kPrefetchAhead < requests.size()) prefetch(*requests[i + kPrefetchAhead]);
      L2Request& r = *requests[i];
      if (r.kind == RequestKind::Atomic && r.atomic >= 0) apply(r);
      r.done = std::max(serve(r), not_before);
    }
  }
  // The same for requests of one side only and without atomics (the atomic units and the stage
  // before them serve both sides): the caller may run the sides on different threads.
  void resolve_side(const std::vector<L2Request*>& requests, std::uint64_t not_before);

  // Marks [address, address + bytes) present and clean in L2, as the host's copies to the GPU
  // leave a launch's buffers (the last copied evicting the first when they do not all fit).
  // `side`: only that side's lines (the sides may be filled on different threads), or all.
  void preload(std::uint64_t address, std::uint64_t bytes, std::uint32_t side = kAllSides);
  static constexpr std::uint32_t kAllSides = UINT32_MAX;

  MemoryCounters counters() const;

 private:
  // Where a request goes: its SM's partition (for an atomic, the line's home), the line's home
  // partition, the slice that serves it first and, for an atomic, the unit that applies it.
  struct Route {
    std::uint64_t partition = 0, home = 0, slice = 0, unit = 0;
  };
  Route route_of(const L2Request& r) const;
  // Requests are resolved in batches: the sets the one this far ahead will touch are read into
  // the host's cache while the ones before it are served (results do not depend on it).
  static constexpr std::size_t kPrefetchAhead = 6;
  void prefetch(const L2Request& r) const;
  std::uint64_t serve(const L2Request& r);
  // When `bytes` sent at `at` toward `to_partition` (lines of `side`) are across the link.
  Cycle cross(std::uint32_t side, std::uint64_t to_partition, double bytes, Cycle at);
  // The time of atomic `r` at its unit (and it becomes the unit's last atomic).
  BusyCycles atomic_busy(const L2Request& r, std::uint64_t unit);
  // When atomic `r`, arriving at `arrival`, is applied at `unit` (taking `busy` there).
  Cycle book_atomic(const L2Request& r, std::uint64_t unit, Cycle arrival, BusyCycles busy);
  // The unit that applies the atomics of `line`: its index without the shared bits, hashed over
  // the units.
  std::uint64_t atomic_unit_of(std::uint64_t line) const;
  double write_sector_times(const L2Request& r) const;  // a write's slice time, in read sectors
  // The partition a line lives in: the host's copies and every write end there.
  std::uint64_t home_of(std::uint64_t line) const;
  // A slice's time for moving `bytes` through it.
  BusyCycles slice_busy(double bytes) const { return {bytes * slice_cycles_per_byte_}; }
  // The line in a slice, allocated if absent (an evicted dirty line is written to DRAM);
  // `uncached` stands in when the slice holds nothing.
  CacheLine& touch_line(std::uint64_t slice, std::uint64_t line, std::uint64_t at,
                        CacheLine& uncached);
  // When `sectors` of `line` (in a slice of `side`, which served the request arriving at
  // `arrival` at `at`) are ready, fetching what it lacks from the line's home partition (when
  // `from_home`, across to `partition`) or from DRAM; counts the lookups.
  std::uint64_t read_sectors(CacheLine& line, std::uint64_t address, std::uint8_t sectors,
                             std::uint64_t arrival, std::uint64_t at, std::uint32_t side,
                             bool from_home, std::uint64_t partition);
  std::uint64_t slice_of(std::uint64_t line, std::uint64_t partition) const;
  // A slice's side: its index within its partition decides (slices of a side are in every
  // partition).
  std::uint32_t side_of_slice(std::uint64_t slice) const;
  // Books `bytes` of a DRAM channel of `side` from `at` on; returns when the transfer ends.
  std::uint64_t dram_transfer(std::uint64_t line, std::uint64_t bytes, std::uint64_t at,
                              std::uint32_t side);
  // The latency a DRAM read on `side` adds at its current load: dram_latency, plus
  // dram_loaded_latency in proportion to the side's recent throughput against its bandwidth.
  std::uint64_t dram_read_latency(std::uint32_t side) const;

  config::TimingConfig t_;
  std::uint64_t partitions_ = 1;
  std::uint32_t sides_ = 1;
  std::vector<std::uint32_t> partition_of_sm_;
  std::vector<SectorCache> slices_;
  std::vector<BandwidthServer> slice_servers_;
  // By atomic unit: the line and words of the last atomic it applied (an atomic on one of them
  // waits for that update).
  struct LastAtomic {
    std::uint64_t line = UINT64_MAX;
    std::uint32_t words = 0;
  };
  std::vector<LastAtomic> last_atomic_;
  std::vector<BandwidthServer> atomic_units_;
  BandwidthServer atomic_lanes_;  // what all units apply together (l2_atomic_lanes_per_cycle)
  double atomic_cycles_per_lane_ = 0;
  std::vector<BandwidthServer> channel_servers_;  // the DRAM channels
  // By side and receiving partition: the link that carries lines fetched from the other one.
  std::vector<BandwidthServer> crossing_servers_;
  double crossing_cycles_per_byte_ = 0;
  double slice_cycles_per_byte_ = 0, channel_cycles_per_byte_ = 0;
  double dram_access_bytes_ = 0;               // a DRAM request's size, as the load counts it
  double side_dram_bytes_per_cycle_ = 0;       // a side's share of the DRAM bandwidth
  std::vector<MemoryCounters> side_counters_;  // by side: each side's thread adds to its own
  // By side: DRAM requests, each weighted by exp(-age / dram_load_window).
  std::vector<DecayingCount> recent_dram_;
};

}  // namespace warpsim::memory

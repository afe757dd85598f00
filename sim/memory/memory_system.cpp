#include "sim/memory/memory_system.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "sim/core/gpu_constants.hpp"
#include "sim/memory/address_hash.hpp"

namespace warpsim::memory {
namespace {

unsigned count(unsigned mask) {
  return static_cast<unsigned>(std::popcount(mask));
}

// Every sector of each aligned group of `group` sectors (of a line's four) that has one in
// `sectors`: groups 0-1 and 2-3 for 2; a group of 3 is sectors 0-2, then 3 alone.
std::uint8_t sectors_of_groups(std::uint8_t sectors, std::uint64_t group) {
  const auto size = static_cast<unsigned>(group);
  const unsigned one_group = (1u << size) - 1;
  unsigned out = 0;
  for (unsigned s = 0; s < 4; ++s) {
    if (has_sector(sectors, s)) out |= one_group << (s / size * size);
  }
  return static_cast<std::uint8_t>(out & 0xfu);
}

}  // namespace

MemorySystem::MemorySystem(const config::GpuConfig& gpu, std::vector<std::uint32_t> partition_of_sm)
    : t_(gpu.timing),
      partitions_(
          std::max<std::uint64_t>(1, std::min(gpu.timing.l2_partitions, gpu.timing.l2_slices))),
      partition_of_sm_(std::move(partition_of_sm)),
      slice_servers_(gpu.timing.l2_slices),
      last_atomic_(gpu.timing.l2_atomic_units != 0 ? gpu.timing.l2_atomic_units
                                                   : gpu.timing.l2_slices),
      atomic_units_(last_atomic_.size()),
      channel_servers_(gpu.timing.dram_channels) {
  // Two sides when the slices of a partition and the channels split evenly between them.
  const std::uint64_t per_partition = t_.l2_slices / partitions_;
  sides_ = per_partition % 2 == 0 && t_.dram_channels % 2 == 0 ? 2 : 1;
  side_counters_.resize(sides_);
  recent_dram_.resize(sides_);
  const std::uint64_t l2 = gpu.l2_bytes;  // the callers require a config that gives it
  slices_.reserve(t_.l2_slices);
  for (std::uint64_t s = 0; s < t_.l2_slices; ++s)
    slices_.emplace_back(l2 / t_.l2_slices, t_.l2_ways, SetIndex::Mixed);
  slice_cycles_per_byte_ =
      static_cast<double>(t_.l2_slices) / static_cast<double>(t_.l2_bytes_per_cycle);
  channel_cycles_per_byte_ =
      static_cast<double>(t_.dram_channels) / static_cast<double>(t_.dram_bytes_per_cycle);
  dram_access_bytes_ = static_cast<double>(t_.dram_access_sectors * 32);
  side_dram_bytes_per_cycle_ = static_cast<double>(t_.dram_bytes_per_cycle) / sides_;
  if (t_.l2_atomic_lanes_per_cycle != 0)
    atomic_cycles_per_lane_ = 1.0 / static_cast<double>(t_.l2_atomic_lanes_per_cycle);
  crossing_servers_.resize(sides_ * partitions_);
  if (t_.l2_crossing_bytes_per_cycle != 0)
    crossing_cycles_per_byte_ = static_cast<double>(sides_ * partitions_) /
                                static_cast<double>(t_.l2_crossing_bytes_per_cycle);
}

std::uint32_t MemorySystem::side_of(std::uint64_t line) const {
  return side_of_slice(slice_of(line, 0));
}

std::uint32_t MemorySystem::side_of_slice(std::uint64_t slice) const {
  return static_cast<std::uint32_t>(slice % (t_.l2_slices / partitions_) % sides_);
}

MemoryCounters MemorySystem::counters() const {
  MemoryCounters sum;
  for (const MemoryCounters& c : side_counters_) {
    sum.l2_sector_lookups += c.l2_sector_lookups;
    sum.l2_sector_hits += c.l2_sector_hits;
    sum.dram_read_bytes += c.dram_read_bytes;
    sum.dram_write_bytes += c.dram_write_bytes;
  }
  return sum;
}

std::uint64_t MemorySystem::dram_transfer(std::uint64_t line, std::uint64_t bytes, std::uint64_t at,
                                          std::uint32_t side) {
  // Channels interleave 256-byte chunks, hashed so strided streams spread over them; a slice
  // uses the channels of its side.
  const std::uint64_t per_side = t_.dram_channels / sides_;
  const std::uint64_t channel = side * per_side + fold_hash(line / 2, per_side);
  const Cycle sent = channel_servers_[channel].book(
      at, BusyCycles{static_cast<double>(bytes) * channel_cycles_per_byte_});
  recent_dram_[side].add(at, t_.dram_load_window);
  return sent;
}

std::uint64_t MemorySystem::dram_read_latency(std::uint32_t side) const {
  // The load counts requests, not bytes: each as one access of dram_access_sectors, whatever
  // it moves (dram_load.kir, one access a line, against copy and load_only, two: the latency
  // grows with the rate of lines asked for, as if each opened a row once). Requests a cycle
  // over the window, at that size, against the side's share of the bandwidth.
  const double per_cycle =
      recent_dram_[side].weight() * dram_access_bytes_ / static_cast<double>(t_.dram_load_window);
  const double load = std::min(1.0, per_cycle / side_dram_bytes_per_cycle_);
  return t_.dram_latency + static_cast<std::uint64_t>(
                               std::lround(load * static_cast<double>(t_.dram_loaded_latency)));
}

std::uint64_t MemorySystem::slice_of(std::uint64_t line, std::uint64_t partition) const {
  const std::uint64_t per_partition = t_.l2_slices / partitions_;
  return partition * per_partition + fold_hash(line, per_partition);
}

void MemorySystem::resolve_side(const std::vector<L2Request*>& requests, std::uint64_t not_before) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (i + kPrefetchAhead < requests.size()) prefetch(*requests[i + kPrefetchAhead]);
    requests[i]->done = std::max(serve(*requests[i]), not_before);
  }
}

void MemorySystem::preload(std::uint64_t address, std::uint64_t bytes, std::uint32_t side) {
  for (std::uint64_t line = address / kLineBytes;
       line < (address + bytes + kLineBytes - 1) / kLineBytes; ++line) {
    if (side != kAllSides && side_of(line) != side) continue;
    Eviction evicted;
    if (CacheLine* l = slices_[slice_of(line, home_of(line))].touch(line, evicted)) l->valid = 0xf;
  }
}

std::uint64_t MemorySystem::home_of(std::uint64_t line) const {
  // A hash independent of the slice's (whose low bit picks the side), so each partition is home
  // to half of every side's lines.
  return partitions_ == 1 ? 0 : ((line * 0xD6E8FEB86659FD93ull) >> 40) % partitions_;
}

CacheLine& MemorySystem::touch_line(std::uint64_t slice, std::uint64_t line, std::uint64_t at,
                                    CacheLine& uncached) {
  Eviction evicted;
  CacheLine* l = slices_[slice].touch(line, evicted);
  if (evicted.dirty != 0) {
    const std::uint32_t side = side_of_slice(slice);
    const auto bytes = std::uint64_t{count(evicted.dirty)} * 32;
    side_counters_[side].dram_write_bytes += bytes;
    dram_transfer(evicted.line, bytes, at, side);
  }
  // An L2 too small to hold a line: every access goes to DRAM.
  return l != nullptr ? *l : (uncached = CacheLine{});
}

std::uint64_t MemorySystem::read_sectors(CacheLine& line, std::uint64_t address,
                                         std::uint8_t sectors, std::uint64_t arrival,
                                         std::uint64_t at, std::uint32_t side, bool from_home,
                                         std::uint64_t partition) {
  MemoryCounters& counters = side_counters_[side];
  std::uint64_t ready = at;
  const auto missing = static_cast<std::uint8_t>(sectors & ~line.valid);
  counters.l2_sector_lookups += count(sectors);
  counters.l2_sector_hits += count(sectors) - count(missing);
  for (unsigned s = 0; s < 4; ++s) {
    if (has_sector(sectors, s) && !has_sector(missing, s))
      ready = std::max(ready, line.fill_cycle[s]);
  }
  if (missing == 0) return ready;
  std::uint64_t arrives = 0;
  auto fetched = missing;
  if (from_home) {
    // The home partition's slice is asked for what this partition lacks; its answer crosses
    // between the partitions. Its time is booked from the request's arrival, as every slice's
    // is (bookings in arrival order leave no gaps a later booking could not fill).
    const std::uint64_t home_slice = slice_of(address, home_of(address));
    const auto bytes = static_cast<double>(count(missing) * 32);
    const Cycle at_home = std::max(at, slice_servers_[home_slice].book(arrival, slice_busy(bytes)));
    CacheLine scratch;
    CacheLine& home = touch_line(home_slice, address, at_home, scratch);
    const Cycle fetched_at =
        read_sectors(home, address, missing, arrival, at_home, side, false, partition);
    // Its crossing back is booked from the arrival too, for the same reason.
    arrives = std::max(fetched_at, cross(side, partition, bytes, arrival)) + t_.l2_far_latency;
  } else {
    // DRAM moves whole groups of sectors (chase_dram: a one-sector step reads 64 bytes); the
    // L2 keeps every sector that comes, so a later read of the group's others hits.
    fetched = sectors_of_groups(missing, t_.dram_access_sectors) & ~line.valid;
    const auto bytes = std::uint64_t{count(fetched)} * 32;
    counters.dram_read_bytes += bytes;
    const std::uint64_t sent = dram_transfer(address, bytes, at, side);
    arrives = sent + dram_read_latency(side);
  }
  for (unsigned s = 0; s < 4; ++s) {
    if (has_sector(fetched, s)) line.fill_cycle[s] = arrives;
  }
  line.valid |= fetched;
  return std::max(ready, arrives);
}

Cycle MemorySystem::cross(std::uint32_t side, std::uint64_t to_partition, double bytes, Cycle at) {
  // The links between the partitions carry l2_crossing_bytes_per_cycle, each direction its
  // share (l2_writes.kir and stream_l2_once: a pass that reads or writes each line once, half of
  // them homed in the other partition, moves about 1.9 KB a cycle, laps that read near copies
  // 4.0).
  if (crossing_cycles_per_byte_ == 0) return at;
  return crossing_servers_[side * partitions_ + to_partition].book(
      at, BusyCycles{bytes * crossing_cycles_per_byte_});
}

double MemorySystem::write_sector_times(const L2Request& r) const {
  // strided_store_rounds.kir (GPU cycles against the L2's write requests, which Nsight Compute
  // counts one per line of a store instruction, never combined): a request takes the slice a
  // read sector's time for each sector it writes whole (l2_writes.kir) and
  // l2_partial_sector_cost_pct of it for each sector it writes in part, and
  // l2_partial_write_cost_pct more once when it writes any sector in part (the merge), whether
  // it writes one sector of the line or four and whatever bytes of them (4 or 8 a sector, by one
  // lane or two: alike). A request that completes what the same warp's previous store left
  // partly written in the line (merged; l1_unit.cpp) takes l2_merged_write_cost_pct alone, and
  // one whose lanes merge in part that share of it and the rest of a whole request's time.
  const auto partial = count(r.partial);
  const double written =
      (count(r.sectors) - partial) +
      partial * static_cast<double>(t_.l2_partial_sector_cost_pct) / 100.0 +
      (partial != 0 ? static_cast<double>(t_.l2_partial_write_cost_pct) / 100.0 : 0);
  if (r.merged_lanes == 0 || r.lanes == 0) return written;
  const double merged_share = static_cast<double>(r.merged_lanes) / r.lanes;
  const double merged = static_cast<double>(t_.l2_merged_write_cost_pct) / 100.0;
  return merged_share * merged + (1 - merged_share) * written;
}

BusyCycles MemorySystem::atomic_busy(const L2Request& r, std::uint64_t unit) {
  // An atomic is applied lane by lane in its unit: its time, not the bytes, counts. A request
  // of few lanes still takes as long as some lanes: l2_atomic_min_lanes when it updates a word
  // the unit's previous atomic did, since it waits for that update (atom_one_lane: one lane on
  // one word, 3.48 cycles a request against 4.99 for 32 lanes); on other words
  // l2_atomic_spread_min_lanes for one lane and l2_atomic_group_min_lanes for more
  // (atomic_scatter.kir over 32,768 lines, every unit evenly loaded). Lanes on one word are
  // applied one after another, each as a one-lane atomic.
  LastAtomic& last = last_atomic_[unit];
  const bool waits = last.line == r.line && (last.words & r.words) != 0;
  last = {r.line, r.words};
  // One lane's integer update (add, compare-and-swap, ...) waits less for the previous update of
  // its word than a floating-point add: one lane a request on one word from every warp of an
  // H100, a u32 add, reduction or compare-and-swap takes 1.17 cycles a request
  // (l2_atomic_integer_min_lanes; validation/h200/results/one_word_atomics/), an f32 add 3.48
  // on the H200 (atom_one_lane). Requests of several lanes keep l2_atomic_min_lanes: none was
  // measured apart.
  const std::uint64_t waiting_lanes =
      r.float_update || r.lanes > 1 ? t_.l2_atomic_min_lanes : t_.l2_atomic_integer_min_lanes;
  const std::uint64_t least = waits         ? waiting_lanes
                              : r.lanes > 1 ? t_.l2_atomic_group_min_lanes
                                            : t_.l2_atomic_spread_min_lanes;
  // A 64-bit lane takes two 32-bit lanes' time (atomic_units.kir words64_2: 32 lanes on 16
  // elements 9.3 cycles a request on an H100, against 4.7 for 32 lanes of 32 bits).
  const std::uint64_t on_one_word =
      r.lanes_on_one_word > 1 ? std::uint64_t{r.lanes_on_one_word} * t_.l2_atomic_spread_min_lanes
                              : 0;
  const auto lanes = static_cast<double>(std::max({least, r.word_updates(), on_one_word}));
  return BusyCycles{static_cast<double>(t_.l2_atomic_cycles_per_request) * lanes / 32.0};
}

Cycle MemorySystem::book_atomic(const L2Request& r, std::uint64_t unit, Cycle arrival,
                                BusyCycles busy) {
  // Every unit's requests pass one stage that takes l2_atomic_lanes_per_cycle lanes a cycle, a
  // request no fewer than l2_atomic_request_min_lanes, then the unit: with every unit busy the
  // GPU applies less than their sum (atom_spread: 32-lane requests over 4,096 lines at 48
  // units' rate; atom_scatter_32k: one-lane requests over 32,768 lines at 50 a cycle).
  if (atomic_cycles_per_lane_ != 0) {
    const auto lanes = std::max(r.word_updates(), t_.l2_atomic_request_min_lanes);
    arrival = atomic_lanes_.book(arrival,
                                 BusyCycles{atomic_cycles_per_lane_ * static_cast<double>(lanes)});
  }
  return atomic_units_[unit].book(arrival, busy);
}

std::uint64_t MemorySystem::atomic_unit_of(std::uint64_t line) const {
  // The H100's units (atomic_units_probe.cu): lines 2k and 2k + 1 share one, and so do 8k + j
  // and 8k + j + 4 (bits 0 and 2 of the index choose none). The groups that remain are spread
  // over its 80 units so that 64 consecutive ones (256 lines from 0) reach 64 units, and lines
  // far apart are not tied to each other: each run of 64 groups starts at a unit hashed from its
  // place. (A plain remainder would send every block of a launch that starts at a multiple of
  // 1,024 lines to the same few units at once; folding the index to the units' 7 bits would load
  // a third of 96 units twice.)
  const std::uint64_t shared = t_.l2_atomic_unit_shared_line_bits;
  std::uint64_t group = 0;
  unsigned kept = 0;
  for (unsigned bit = 0; bit < 8; ++bit) {
    if ((shared >> bit & 1) == 0) group |= (line >> bit & 1) << kept++;
  }
  group |= (line >> 8) << kept;
  constexpr unsigned kRunBits = 6;
  const std::uint64_t run_start = ((group >> kRunBits) * 0x9E3779B97F4A7C15ull) >> 40;
  return ((group & ((1u << kRunBits) - 1)) + run_start) % atomic_units_.size();
}

MemorySystem::Route MemorySystem::route_of(const L2Request& r) const {
  // Reads and writes go to a slice of their SM's partition; a line's home partition (where the
  // host's copies and written data live) serves what another partition lacks. An atomic is
  // applied at one place for every SM: its line's atomic unit, on the line as its home slice
  // holds it (where the host's copies left it).
  Route route;
  const bool atomic = r.kind == RequestKind::Atomic;
  route.partition = r.sm < partition_of_sm_.size()
                        ? std::min<std::uint64_t>(partition_of_sm_[r.sm], partitions_ - 1)
                        : 0;
  route.home = home_of(r.line);
  if (atomic) {
    route.unit = atomic_unit_of(r.line);
    route.partition = route.home;
  }
  route.slice = slice_of(r.line, route.partition);
  return route;
}

void MemorySystem::prefetch(const L2Request& r) const {
  const Route route = route_of(r);
  slices_[route.slice].prefetch(r.line);
  if (route.home != route.partition) slices_[slice_of(r.line, route.home)].prefetch(r.line);
}

std::uint64_t MemorySystem::serve(const L2Request& r) {
  const std::uint64_t half = t_.l2_latency / 2;
  const Route route = route_of(r);
  const bool atomic = r.kind == RequestKind::Atomic;
  const std::uint64_t partition = route.partition;
  const bool away_from_home = route.home != partition;
  const std::uint64_t slice_index = route.slice;
  const std::uint32_t side = side_of_slice(slice_index);
  const auto sectors = count(r.sectors);
  const double sector_times = r.kind == RequestKind::Write ? write_sector_times(r) : sectors;
  const BusyCycles busy = atomic ? atomic_busy(r, route.unit) : slice_busy(sector_times * 32);
  if (r.kind == RequestKind::Write) {
    // Whole sectors are written (no fill from DRAM is needed) in the line's home partition,
    // which keeps every written line; the SM's partition passes them on, across the link: the
    // bytes written, not whole sectors (strided_store_rounds s4w4: 4.1 M sectors written 8 bytes
    // in each crossed in 52,000 cycles, 2.5 KB a cycle as whole sectors, twice the link's rate).
    const std::uint64_t home_partition = route.home;
    const std::uint64_t home_slice = slice_of(r.line, home_partition);
    const double written_bytes = 4.0 * std::popcount(r.words);
    const Cycle arrived = away_from_home
                              ? cross(side, home_partition, written_bytes, r.cycle + half)
                              : r.cycle + half;
    const Cycle at_home = slice_servers_[home_slice].book(arrived, busy);
    CacheLine uncached;
    CacheLine& home = touch_line(home_slice, r.line, at_home, uncached);
    MemoryCounters& counters = side_counters_[side];
    counters.l2_sector_lookups += sectors;
    counters.l2_sector_hits += count(static_cast<unsigned>(home.valid & r.sectors));
    for (unsigned s = 0; s < 4; ++s) {
      if (has_sector(r.sectors, s) && !has_sector(home.valid, s)) home.fill_cycle[s] = at_home;
    }
    home.valid |= r.sectors;
    slices_[home_slice].mark_dirty(home, r.sectors);
    if (CacheLine* copy = away_from_home ? slices_[slice_index].find(r.line) : nullptr) {
      copy->valid |= r.sectors;  // a copy this partition holds stays current
      for (unsigned s = 0; s < 4; ++s) {
        if (has_sector(r.sectors, s)) copy->fill_cycle[s] = std::max(copy->fill_cycle[s], at_home);
      }
    }
    return at_home + half;
  }
  const Cycle at_slice = atomic ? book_atomic(r, route.unit, r.cycle + half, busy)
                                : slice_servers_[slice_index].book(r.cycle + half, busy);
  CacheLine uncached;
  CacheLine& line = touch_line(slice_index, r.line, at_slice, uncached);
  const std::uint64_t ready = read_sectors(line, r.line, r.sectors, r.cycle + half, at_slice, side,
                                           away_from_home, partition);
  if (atomic) slices_[slice_index].mark_dirty(line, r.sectors);
  return ready + half;
}

}  // namespace warpsim::memory

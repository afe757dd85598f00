#include "sim/check/hazard_checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/core/exec/state.hpp"

namespace warpsim::check {
namespace {

constexpr std::uint64_t kRankShift = 40;  // dsmem addresses carry the block's rank above this

std::uint32_t inst_index(const exec::ExecContext& ctx, const exec::DecodedInst& inst) {
  return static_cast<std::uint32_t>(&inst - ctx.program.insts.data());
}

// The bytes [address, address + bytes) of word `word`, as a 4-bit mask.
std::uint8_t word_bytes(std::uint64_t address, unsigned bytes, std::uint64_t word) {
  const std::uint64_t lo = std::max(address, word * 4),
                      hi = std::min(address + bytes, word * 4 + 4);
  return static_cast<std::uint8_t>(((1u << (hi - lo)) - 1) << (lo - word * 4));
}

ThreadAccess thread_access(const Stamp& s, bool write) {
  return {s.block - 1u, s.thread, s.inst, write, s.atomic != 0};
}

std::string lanes_text(std::uint32_t mask) {
  return fmt::format("{:#010x}", mask);
}

}  // namespace

HazardChecker::HazardChecker(const exec::LaunchSpec& launch, CheckSet checks)
    : launch_(launch), checks_(checks) {}

void HazardChecker::block_started(const exec::ExecContext& ctx, const exec::BlockState& block) {
  const std::uint32_t rank = block.cluster_rank;
  if (shared_.size() <= rank) {
    shared_.resize(rank + 1);
    generation_.resize(rank + 1, 0);
    local_written_.resize(rank + 1);
  }
  if (!shared_[rank]) shared_[rank] = std::make_unique<ShadowRegion>(block.shared.size(), 0xF);
  ++generation_[rank];
  if (checks_.has(Category::Init) && ctx.program.local_bytes != 0) {
    local_written_[rank].assign(block.threads * ctx.program.local_bytes, 0);
  }
}

void HazardChecker::access(const exec::ExecContext& ctx, const exec::WarpState& warp,
                           const exec::DecodedInst& inst, const std::uint64_t* addresses,
                           std::uint32_t mask, unsigned bytes) {
  const bool races = checks_.has(Category::Race), init = checks_.has(Category::Init);
  switch (inst.mem.kind) {
    case exec::ArrayKind::Global:
      if (races || init) memory_access(ctx, warp, inst, addresses, mask, bytes, Space::Global);
      break;
    case exec::ArrayKind::Shared:
      if (races || init) memory_access(ctx, warp, inst, addresses, mask, bytes, Space::Shared);
      break;
    case exec::ArrayKind::Local:
      if (init) local_access(ctx, warp, inst, addresses, mask, bytes);
      break;
    case exec::ArrayKind::Const:
      break;
  }
}

std::pair<ShadowWord*, std::uint8_t> HazardChecker::shadow_word(const exec::ExecContext& ctx,
                                                                Space space,
                                                                std::uint64_t address) {
  if (space == Space::Shared) {
    const auto rank = static_cast<std::uint32_t>(address >> kRankShift);
    const std::uint64_t offset = address & ((std::uint64_t{1} << kRankShift) - 1);
    ShadowWord& w = shared_[rank]->word(offset / 4);
    if (w.generation != generation_[rank]) w = ShadowWord{{}, {}, generation_[rank], 0};
    return {&w, 0xF};
  }
  const std::vector<exec::GlobalBuffer>& buffers = ctx.global.buffers;
  if (global_.empty()) {
    global_.resize(buffers.size());
    for (const exec::GlobalBuffer& b : buffers) {
      const auto arg = launch_.args.find(b.name);
      const auto* spec =
          arg == launch_.args.end() ? nullptr : std::get_if<ir::BufferSpec>(&arg->second);
      buffer_uninitialised_.push_back(spec != nullptr &&
                                      spec->init == ir::BufferInit::Uninitialised);
    }
  }
  for (std::size_t n = 0; n < buffers.size(); ++n) {
    const std::size_t k = (last_buffer_ + n) % buffers.size();
    const exec::GlobalBuffer& b = buffers[k];
    if (address < b.base_address || address - b.base_address >= b.bytes.size()) continue;
    last_buffer_ = k;
    if (!global_[k]) {
      global_[k] =
          std::make_unique<ShadowRegion>(b.bytes.size(), buffer_uninitialised_[k] != 0 ? 0xF : 0);
    }
    return {&global_[k]->word((address - b.base_address) / 4), global_[k]->start_unwritten()};
  }
  throw std::logic_error("a located global access outside every buffer");
}

void HazardChecker::memory_access(const exec::ExecContext& ctx, const exec::WarpState& warp,
                                  const exec::DecodedInst& inst, const std::uint64_t* addresses,
                                  std::uint32_t mask, unsigned bytes, Space space) {
  const bool atomic = inst.opcode == ir::Opcode::Atom;
  const bool write = inst.opcode == ir::Opcode::St || atomic;
  const exec::BlockState& block = *ctx.block;
  touches_.clear();
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    std::uint64_t a = addresses[lane];
    if (space == Space::Shared && !inst.mem.has_rank) {
      a |= std::uint64_t{block.cluster_rank} << kRankShift;
    }
    Stamp s;
    s.block = static_cast<std::uint32_t>(block.linear + 1);
    s.thread = static_cast<std::uint16_t>(warp.index * 32 + lane);
    s.atomic = atomic ? 1 : 0;
    s.inst = inst_index(ctx, inst);
    s.epochs = (block.barrier_epoch & 0xffffu) | ((warp.sync_epoch & 0xffu) << 16) |
               (block.cluster_epoch << 24);
    for (std::uint64_t word = a / 4; word * 4 < a + bytes; ++word) {
      s.bytes = word_bytes(a, bytes, word);
      const auto [shadow, start_unwritten] = shadow_word(ctx, space, word * 4);
      touches_.push_back({shadow, start_unwritten, s, a, lane});
    }
  }
  for (const Touch& t : touches_) check_touch(ctx, t, write, space);
  if (write && !atomic && checks_.has(Category::Race)) within_instruction(ctx, touches_, space);
  const bool reads = inst.opcode == ir::Opcode::Ld || (atomic && inst.ndst != 0);
  for (const Touch& t : touches_) {
    ShadowWord& w = *t.word;
    if (write) {
      w.writer = t.stamp;
      w.reader = Stamp{};
      w.written |= t.stamp.bytes;
    } else if (reads && (w.reader.none() || ordered(w.reader, t.stamp))) {
      w.reader = t.stamp;
    }
  }
}

bool HazardChecker::ordered(const Stamp& earlier, const Stamp& later) const {
  if (earlier.block == later.block) {
    // One warp's lanes are also ordered by a __syncwarp between them.
    const bool same_warp = earlier.thread / 32 == later.thread / 32;
    return earlier.thread == later.thread || earlier.epoch() != later.epoch() ||
           (same_warp && earlier.warp_epoch() != later.warp_epoch());
  }
  // Blocks of one cluster are ordered by its barriers; blocks of different clusters never.
  const exec::Dim3& c = launch_.cluster;
  const auto cluster_of = [&](std::uint32_t block) {
    const exec::Dim3 i = exec::unflatten(block - 1u, launch_.grid);
    return exec::Dim3{i.x / c.x, i.y / c.y, i.z / c.z};
  };
  const exec::Dim3 a = cluster_of(earlier.block), b = cluster_of(later.block);
  return a.x == b.x && a.y == b.y && a.z == b.z && earlier.cluster_epoch() != later.cluster_epoch();
}

void HazardChecker::check_touch(const exec::ExecContext& ctx, const Touch& t, bool write,
                                Space space) {
  const ShadowWord& w = *t.word;
  const bool atomic = t.stamp.atomic != 0;
  const bool reads = !write || atomic;
  if (checks_.has(Category::Init) && reads &&
      (t.stamp.bytes & t.start_unwritten & ~w.written) != 0) {
    Hazard h;
    h.category = Category::Init;
    h.kind = "uninitialised read";
    h.space = space;
    h.address = t.address;
    h.where = element(ctx, space, t.address, 1);
    h.access = thread_access(t.stamp, write);
    h.detail = space == Space::Global
                   ? "the launch block declares the buffer uninit and nothing wrote these bytes"
                   : "nothing in the block wrote these bytes of shared memory before";
    add(ctx, std::move(h));
  }
  if (!checks_.has(Category::Race)) return;
  const auto conflicts = [&](const Stamp& other) {
    return !other.none() && (other.bytes & t.stamp.bytes) != 0 && !(other.atomic != 0 && atomic) &&
           !ordered(other, t.stamp);
  };
  if (conflicts(w.writer)) race(ctx, w.writer, true, t, write, space);
  if (!write) return;
  if (conflicts(w.reader)) race(ctx, w.reader, false, t, write, space);
}

void HazardChecker::race(const exec::ExecContext& ctx, const Stamp& earlier, bool earlier_write,
                         const Touch& t, bool write, Space space) {
  Hazard h;
  h.category = Category::Race;
  h.kind = earlier_write ? (write ? "WAW" : "RAW") : "WAR";
  if (earlier.block != t.stamp.block) {
    h.scope = "between blocks";
  } else if (earlier.thread / 32 != t.stamp.thread / 32) {
    h.scope = "between warps";
  } else {
    h.scope = "within a warp";
    h.error = false;
    h.detail =
        "the warp's lanes ran in lockstep here, so warpsim saw them in order; from sm_70 on "
        "they may not be, and need __syncwarp() between the two";
  }
  h.space = space;
  h.address = t.address;
  h.where = element(ctx, space, t.address, 1);
  h.earlier = thread_access(earlier, earlier_write);
  h.access = thread_access(t.stamp, write);
  add(ctx, std::move(h));
}

void HazardChecker::within_instruction(const exec::ExecContext& ctx, std::vector<Touch>& writes,
                                       Space space) {
  // Words in increasing order lane after lane (a coalesced or strided store) cannot repeat.
  bool increasing = true;
  for (std::size_t k = 1; k < writes.size() && increasing; ++k) {
    increasing = writes[k - 1].word < writes[k].word;
  }
  if (increasing) return;
  written_words_.clear();
  for (std::size_t k = 0; k < writes.size(); ++k) written_words_.emplace_back(writes[k].word, k);
  std::sort(written_words_.begin(), written_words_.end());
  for (std::size_t k = 1; k < written_words_.size(); ++k) {
    const Touch& a = writes[written_words_[k - 1].second];
    const Touch& b = writes[written_words_[k].second];
    if (a.word != b.word || (a.stamp.bytes & b.stamp.bytes) == 0) continue;
    Hazard h;
    h.category = Category::Race;
    h.kind = "WAW";
    h.scope = "within an instruction";
    h.error = false;
    h.space = space;
    h.address = b.address;
    h.where = element(ctx, space, b.address, 1);
    h.earlier = thread_access(a.stamp, true);
    h.access = thread_access(b.stamp, true);
    h.detail = fmt::format(
        "lanes {} and {} of one store write the same bytes: one of the values lands, and PTX "
        "does not say which",
        std::min(a.lane, b.lane), std::max(a.lane, b.lane));
    add(ctx, std::move(h));
  }
}

void HazardChecker::local_access(const exec::ExecContext& ctx, const exec::WarpState& warp,
                                 const exec::DecodedInst& inst, const std::uint64_t* addresses,
                                 std::uint32_t mask, unsigned bytes) {
  const exec::BlockState& block = *ctx.block;
  std::vector<std::uint8_t>& written = local_written_[block.cluster_rank];
  const std::uint64_t per_thread = ctx.program.local_bytes;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t thread = warp.index * 32 + lane;
    std::uint8_t* bytes_of = written.data() + thread * per_thread + addresses[lane];
    if (inst.opcode == ir::Opcode::St) {
      std::fill_n(bytes_of, bytes, std::uint8_t{1});
      continue;
    }
    if (std::all_of(bytes_of, bytes_of + bytes, [](std::uint8_t b) { return b != 0; })) continue;
    Hazard h;
    h.category = Category::Init;
    h.kind = "uninitialised read";
    h.space = Space::Local;
    h.address = addresses[lane];
    h.where = element(ctx, Space::Local, addresses[lane], bytes);
    h.access = {block.linear, static_cast<std::uint32_t>(thread), inst_index(ctx, inst), false,
                false};
    h.detail = "nothing in the thread wrote these bytes of its local memory before";
    add(ctx, std::move(h));
  }
}

void HazardChecker::barrier(const exec::ExecContext& ctx, const exec::WarpState& warp,
                            const exec::DecodedInst& inst, std::uint32_t mask) {
  const std::uint32_t present = warp.lanes & ~warp.exited;
  if (!checks_.has(Category::Sync) || mask == present) return;
  Hazard h;
  h.category = Category::Sync;
  h.kind =
      inst.opcode == ir::Opcode::ClusterSync ? "divergent cluster barrier" : "divergent barrier";
  h.access = {ctx.block->linear,
              warp.index * 32 + static_cast<std::uint32_t>(std::countr_zero(mask)),
              inst_index(ctx, inst), false, false};
  h.detail = fmt::format(
      "lanes {} of warp {} arrive here while lanes {} are on another path of a branch: a "
      "block's threads must reach __syncthreads() together, not merely all reach one",
      lanes_text(mask), warp.index, lanes_text(present & ~mask));
  add(ctx, std::move(h));
}

bool HazardChecker::partial_members(const exec::ExecContext& ctx, const exec::WarpState& warp,
                                    const exec::DecodedInst& inst, unsigned lane,
                                    std::uint32_t members, std::uint32_t active) {
  if (!checks_.has(Category::Sync)) return false;
  Hazard h;
  h.category = Category::Sync;
  h.kind = "partial member mask";
  h.access = {ctx.block->linear, warp.index * 32 + lane, inst_index(ctx, inst), false, false};
  h.detail = fmt::format(
      "member mask {} names lanes {} that are not active here (exited, or on another path); "
      "the result is undefined",
      lanes_text(members), lanes_text(members & ~active));
  add(ctx, std::move(h));
  return true;
}

void HazardChecker::add(const exec::ExecContext& ctx, Hazard h) {
  ++report_.occurrences[static_cast<std::size_t>(h.category)];
  const auto key = std::make_tuple(h.category, h.kind, h.scope, h.earlier.inst, h.access.inst);
  const auto [found, added] = seen_.emplace(key, report_.hazards.size());
  if (!added) {
    ++report_.hazards[found->second].count;
    return;
  }
  h.access.source = ctx.program.insts[h.access.inst].source;
  if (h.category == Category::Race) h.earlier.source = ctx.program.insts[h.earlier.inst].source;
  report_.hazards.push_back(std::move(h));
}

}  // namespace warpsim::check

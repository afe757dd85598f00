// Loads and stores in every space, by element index or by byte address (sim/core/exec/
// addressing.hpp checks and locates each lane's access).
#include <cstring>

#include "sim/core/exec/addressing.hpp"

namespace warpsim::exec {
namespace {

// A narrow (8- or 16-bit) load, each element sign-extended to 32 bits for a signed type (then
// held zero-extended as every 32-bit value is); zero-extended otherwise. A vector (a uchar4)
// fills one register per element.
template <unsigned kSize, bool kSigned>
void exec_narrow_load(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    for (unsigned e = 0; e < d.vector_width; ++e) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, at.data + std::size_t{e} * kSize, kSize);
      if constexpr (kSigned) {
        constexpr unsigned kShift = 32 - kSize * 8;
        bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(bits << kShift) >> kShift);
      }
      w.write(d.dst[e])[l] = bits;
    }
  });
  addressing.account(mask);
}

// Element sizes are 4 or 8 bytes (1 or 2 for narrow stores); a fixed-size copy compiles to one
// move.
template <unsigned kSize>
void exec_load(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  std::uint8_t* data[kWarpSize];
  if (addressing.locate_warp(mask, data)) {
    std::uint64_t* out = w.write(d.dst[0]);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, data[l], kSize);
      out[l] = bits;
    }
    addressing.account(mask);
    return;
  }
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    for (unsigned e = 0; e < d.vector_width; ++e) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, at.data + std::size_t{e} * kSize, kSize);
      w.write(d.dst[e])[l] = bits;
    }
  });
  addressing.account(mask);
}

template <unsigned kSize>
void exec_store(ExecContext& ctx, WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  Addressing addressing(ctx, w, d);
  std::uint8_t* data[kWarpSize];
  if (addressing.locate_warp(mask, data)) {
    // Lanes store in order, so when two write one element the highest lane's value lands.
    const std::uint64_t* in = w.read(d.src[0]);
    for (unsigned l = 0; l < kWarpSize; ++l) std::memcpy(data[l], &in[l], kSize);
    addressing.account(mask);
    return;
  }
  for_lanes(mask, [&](unsigned l) {
    const Location at = addressing.locate(l);
    for (unsigned e = 0; e < d.vector_width; ++e) {
      const std::uint64_t bits = w.read(d.src[e])[l];
      std::memcpy(at.data + std::size_t{e} * kSize, &bits, kSize);
    }
  });
  addressing.account(mask);
}

}  // namespace

ExecFn select_memory(const DecodedInst& inst) {
  switch (inst.opcode) {
    case ir::Opcode::Ld:
      if (inst.narrow_bytes != 0) {
        const bool is_signed = inst.type == ir::ScalarType::S32;
        if (inst.narrow_bytes == 1)
          return is_signed ? &exec_narrow_load<1, true> : &exec_narrow_load<1, false>;
        return is_signed ? &exec_narrow_load<2, true> : &exec_narrow_load<2, false>;
      }
      return ir::size_bytes(inst.type) == 8 ? &exec_load<8> : &exec_load<4>;
    case ir::Opcode::St:
      if (inst.narrow_bytes != 0) return inst.narrow_bytes == 1 ? &exec_store<1> : &exec_store<2>;
      return ir::size_bytes(inst.type) == 8 ? &exec_store<8> : &exec_store<4>;
    case ir::Opcode::Atom:
      return select_atomic(inst);
    default:
      return nullptr;
  }
}

}  // namespace warpsim::exec

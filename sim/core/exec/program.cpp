#include "sim/core/exec/program.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>

#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/values.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/core/ir/barrier_paths.hpp"
#include "sim/core/ir/cfg.hpp"
#include "sim/core/ir/printer.hpp"
#include "sim/core/ir/typing.hpp"

namespace warpsim::exec {
namespace {

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

std::uint64_t element_count(const std::vector<std::uint64_t>& dims) {
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) n *= d;
  return n;
}

class Decoder {
 public:
  Decoder(const ir::Module& m, const LaunchSpec& l, const GlobalMemory& g)
      : module_(m), launch_(l), memory_(g), kernel_(*l.kernel) {
    prog_.kernel = &kernel_;
  }

  Program run() {
    number_registers();
    place_special_registers();
    lay_out_arrays();
    lay_out_constants();
    std::uint32_t next = 0;
    for (const ir::BasicBlock& b : kernel_.blocks) {
      prog_.block_start.push_back(next);
      next += static_cast<std::uint32_t>(b.instructions.size());
    }
    const ir::Cfg cfg = ir::build_cfg(kernel_);
    const ir::BarrierPaths barriers(kernel_, cfg);
    for (std::uint32_t b = 0; b < kernel_.blocks.size(); ++b) {
      for (const ir::Instruction& inst : kernel_.blocks[b].instructions) {
        prog_.insts.push_back(decode(inst, b, cfg, barriers));
      }
    }
    return std::move(prog_);
  }

 private:
  void number_registers() {
    for (const ir::BasicBlock& b : kernel_.blocks) {
      for (const ir::Instruction& inst : b.instructions) {
        for (const ir::RegDef& d : inst.dests) {
          if (reg_slot_.emplace(d.name, static_cast<std::uint32_t>(reg_slot_.size())).second) {
            reg_type_[d.name] = ir::result_type(inst);
          }
        }
      }
    }
    prog_.register_names.resize(reg_slot_.size());
    prog_.register_types.resize(reg_slot_.size());
    for (const auto& [name, slot] : reg_slot_) {
      prog_.register_names[slot] = name;
      prog_.register_types[slot] = reg_type_.at(name);
    }
    prog_.register_slots = static_cast<std::uint32_t>(reg_slot_.size());
  }

  // Launch-wide special registers go to the pool; those of a warp index to a table built here
  // once; a block's own in its BlockState (prepare_block fills them).
  void place_special_registers() {
    auto operand = [&](ir::SpecialReg r) -> OperandRef& {
      return prog_.special_operands[static_cast<std::size_t>(r)];
    };
    auto launch_wide = [&](ir::SpecialReg r, std::uint64_t v) {
      operand(r) = pooled(v);
      operand(r).special = static_cast<std::int8_t>(r);
    };
    const Dim3& g = launch_.grid;
    const Dim3& blk = launch_.block;
    launch_wide(ir::SpecialReg::NtidX, blk.x);
    launch_wide(ir::SpecialReg::NtidY, blk.y);
    launch_wide(ir::SpecialReg::NtidZ, blk.z);
    launch_wide(ir::SpecialReg::NctaidX, g.x);
    launch_wide(ir::SpecialReg::NctaidY, g.y);
    launch_wide(ir::SpecialReg::NctaidZ, g.z);
    launch_wide(ir::SpecialReg::ClusterNctaRank, launch_.cluster.count());
    for (std::uint32_t k = 0; k < kWarpSpecials.size(); ++k)
      operand(kWarpSpecials[k]) = {k, OperandSource::WarpSpecial,
                                   static_cast<std::int8_t>(kWarpSpecials[k])};
    for (std::uint32_t k = 0; k < kBlockSpecials.size(); ++k)
      operand(kBlockSpecials[k]) = {k, OperandSource::BlockSpecial,
                                    static_cast<std::int8_t>(kBlockSpecials[k])};
    // Thread indices by counting, not dividing: x runs fastest, then y, then z. A partial last
    // warp's lanes past the block hold indices past it, never read (those lanes never run).
    const std::uint64_t warps = launch_.warps_per_block();
    const std::size_t per_warp = kWarpSpecials.size() * kWarpSize;
    prog_.warp_specials.assign(warps * per_warp, 0);
    Dim3 tid{0, 0, 0};
    for (std::uint64_t w = 0; w < warps; ++w) {
      std::uint64_t* table = prog_.warp_specials.data() + w * per_warp;
      auto lanes_of = [&](ir::SpecialReg r) {
        return table + special_slot(kWarpSpecials, r) * kWarpSize;
      };
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        lanes_of(ir::SpecialReg::TidX)[lane] = tid.x;
        lanes_of(ir::SpecialReg::TidY)[lane] = tid.y;
        lanes_of(ir::SpecialReg::TidZ)[lane] = tid.z;
        lanes_of(ir::SpecialReg::LaneId)[lane] = lane;
        lanes_of(ir::SpecialReg::WarpId)[lane] = w;
        if (++tid.x == blk.x) {
          tid.x = 0;
          if (++tid.y == blk.y) {
            tid.y = 0;
            ++tid.z;
          }
        }
      }
    }
  }

  void lay_out_arrays() {
    std::uint64_t shared = 0, local = 0;
    const ir::ArrayDecl* dynamic = nullptr;
    for (const ir::ArrayDecl& a : kernel_.arrays) {
      if (a.is_dynamic) {
        dynamic = &a;
        continue;
      }
      const std::uint64_t bytes = element_count(a.dims) * ir::size_bytes(a.element);
      std::uint64_t& end = a.space == ir::Space::Shared ? shared : local;
      end = align_up(end, ir::alignment(a));
      array_offset_[a.name] = end;
      if (a.space == ir::Space::Shared) prog_.shared.push_back({a.name, end, bytes});
      end += bytes;
    }
    if (dynamic != nullptr) {
      // Dynamic shared memory follows the static arrays, as `extern __shared__` does.
      shared = align_up(shared, ir::alignment(*dynamic));
      array_offset_[dynamic->name] = shared;
      prog_.shared.push_back({dynamic->name, shared, launch_.dynamic_smem});
      shared += launch_.dynamic_smem;
    }
    prog_.shared_bytes = shared;
    prog_.local_bytes = local;
  }

  void lay_out_constants() { prog_.constants = constant_image(module_, &prog_.constant_offsets); }

  OperandRef pooled(std::uint64_t bits) {
    auto [it, inserted] = pool_slot_.emplace(bits, static_cast<std::uint32_t>(pool_slot_.size()));
    if (inserted) prog_.pool.insert(prog_.pool.end(), kWarpSize, bits);
    return OperandRef{it->second, OperandSource::Pool};
  }

  // The slot of a value operand read as `want` (literals and parameters are converted to it).
  OperandRef value(const ir::ValueOperand& v, ir::ScalarType want) {
    if (const auto* r = std::get_if<ir::RegRef>(&v.value)) return {reg_slot_.at(r->name)};
    if (const auto* s = std::get_if<ir::SpecialReg>(&v.value))
      return prog_.special_operands[static_cast<std::size_t>(*s)];
    if (const auto* p = std::get_if<ir::ParamRef>(&v.value)) {
      if (auto address = symbol_address(p->name)) return pooled(*address);
      return pooled(literal_bits(std::get<ir::Literal>(launch_.args.at(p->name)), want));
    }
    if (const auto* i = std::get_if<ir::IntLiteral>(&v.value))
      return pooled(literal_bits(*i, want));
    return pooled(literal_bits(std::get<ir::FloatLiteral>(v.value), want));
  }

  // A pointer parameter's buffer address, or an array's offset in its memory; nothing for a
  // scalar parameter.
  std::optional<std::uint64_t> symbol_address(const std::string& name) const {
    for (const GlobalBuffer& b : memory_.buffers) {
      if (b.name == name) return b.base_address;
    }
    if (auto it = array_offset_.find(name); it != array_offset_.end()) return it->second;
    for (std::size_t i = 0; i < module_.constants.size(); ++i) {
      if (module_.constants[i].name == name) return prog_.constant_offsets[i];
    }
    return std::nullopt;
  }

  // The type an index or rank operand holds, so it is widened with the right sign.
  ir::ScalarType value_type(const ir::ValueOperand& v) const {
    if (const auto* r = std::get_if<ir::RegRef>(&v.value)) return reg_type_.at(r->name);
    if (std::holds_alternative<ir::SpecialReg>(v.value)) return ir::ScalarType::U32;
    if (const auto* p = std::get_if<ir::ParamRef>(&v.value)) {
      if (symbol_address(p->name)) return ir::ScalarType::U64;
      for (const ir::KernelParam& kp : kernel_.params) {
        if (kp.name == p->name) return kp.type;
      }
    }
    return ir::ScalarType::S64;
  }

  MemoryRef memref(const ir::MemRef& ref, ir::Space space) {
    if (ref.is_address()) return address_ref(ref, space);
    MemoryRef m;
    m.name = ref.array;
    if (space == ir::Space::Global) {
      m.kind = ArrayKind::Global;
      const GlobalBuffer* buffer = memory_.find(ref.array);
      // The verifier names every buffer; a launch built without the module's globals does not.
      if (buffer == nullptr) throw std::logic_error("no buffer '" + ref.array + "' in the launch");
      m.array = static_cast<std::uint32_t>(buffer - memory_.buffers.data());
      m.dims = {buffer->count()};
    } else if (space == ir::Space::Const) {
      m.kind = ArrayKind::Const;
      for (std::size_t i = 0; i < module_.constants.size(); ++i) {
        if (module_.constants[i].name == ref.array) {
          m.array = static_cast<std::uint32_t>(i);
          m.byte_offset = prog_.constant_offsets[i];
          m.dims = module_.constants[i].dims;
        }
      }
    } else {
      m.kind = space == ir::Space::Local ? ArrayKind::Local : ArrayKind::Shared;
      for (const ir::ArrayDecl& a : kernel_.arrays) {
        if (a.name != ref.array) continue;
        m.byte_offset = array_offset_.at(a.name);
        m.dims = a.is_dynamic
                     ? std::vector<std::uint64_t>{launch_.dynamic_smem / ir::size_bytes(a.element)}
                     : a.dims;
      }
    }
    for (const ir::ValueOperand& i : ref.indices) {
      const ir::ScalarType t = value_type(i);
      m.index.push_back(value(i, t));
      m.index_type.push_back(t);
    }
    if (ref.rank) {
      m.has_rank = true;
      m.rank_type = value_type(*ref.rank);
      m.rank = value(*ref.rank, m.rank_type);
    }
    return m;
  }

  MemoryRef address_ref(const ir::MemRef& ref, ir::Space space) {
    MemoryRef m;
    m.by_address = true;
    m.displacement = ref.displacement;
    m.name = ir::to_string(ref.indices[0].value);
    switch (space) {
      case ir::Space::Global:
        m.kind = ArrayKind::Global;
        break;
      case ir::Space::Const:
        m.kind = ArrayKind::Const;
        break;
      case ir::Space::Local:
        m.kind = ArrayKind::Local;
        break;
      case ir::Space::Shared:
        m.kind = ArrayKind::Shared;
        break;
      case ir::Space::Dsmem:  // a cluster address: the executor finds the block from it
        m.kind = ArrayKind::Shared;
        m.has_rank = true;
        break;
    }
    const ir::ScalarType t = value_type(ref.indices[0]);
    m.index.push_back(value(ref.indices[0], t));
    m.index_type.push_back(t);
    return m;
  }

  std::uint32_t block_pc(std::size_t block) const {
    return block == ir::Cfg::kExit || block == ir::Cfg::kNoPostDominator ? kExitPc
                                                                         : prog_.block_start[block];
  }

  DecodedInst decode(const ir::Instruction& inst, std::uint32_t block, const ir::Cfg& cfg,
                     const ir::BarrierPaths& barriers) {
    DecodedInst d;
    d.opcode = inst.opcode;
    d.type = inst.type;
    d.source_type = inst.source_type;
    d.space = inst.space;
    d.atomic_op = inst.atomic_op;
    d.shuffle_mode = inst.shuffle_mode;
    d.vote_mode = inst.vote_mode;
    d.rounding = inst.rounding;
    d.half = inst.half;
    d.vector_width = inst.vector_width;
    d.narrow_bytes = inst.narrow_bytes;
    d.block = block;
    d.line = inst.loc.line;
    d.source = &inst;
    for (const ir::RegDef& r : inst.dests) d.dst[d.ndst++] = reg_slot_.at(r.name);
    const std::string_view sig = ir::opcode_info(inst.opcode).signature;
    std::vector<std::size_t> labels;
    for (std::size_t i = 0; i < inst.operands.size(); ++i) {
      const char kind = i < sig.size() ? sig[i] : 'A';
      const ir::Operand& op = inst.operands[i];
      if (const auto* m = std::get_if<ir::MemRef>(&op.kind)) {
        d.mem = memref(*m, inst.space);
      } else if (const auto* l = std::get_if<ir::LabelRef>(&op.kind)) {
        labels.push_back(*ir::find_block(kernel_, l->name));
      } else if (const auto* list = std::get_if<ir::RegList>(&op.kind)) {
        for (const ir::ValueOperand& e : list->elements) d.src[d.nsrc++] = value(e, inst.type);
      } else {
        const auto& v = std::get<ir::ValueOperand>(op.kind);
        const ir::ScalarType want = kind == 'P'   ? ir::ScalarType::Pred
                                    : kind == 'u' ? ir::ScalarType::U32
                                    : kind == 'S' ? inst.source_type
                                                  : inst.type;
        d.src[d.nsrc++] = value(v, want);
      }
    }
    if (!labels.empty()) d.target_true = prog_.block_start[labels[0]];
    if (labels.size() > 1) d.target_false = prog_.block_start[labels[1]];
    if (inst.opcode == ir::Opcode::Br) {
      const std::size_t join = cfg.ipdom[block];
      d.reconverge = block_pc(join);
      if (labels.size() > 1) {
        if (barriers.reaches_barrier(labels[0], join))
          d.barrier_sides |= DecodedInst::kTakenSideBarrier;
        if (barriers.reaches_barrier(labels[1], join))
          d.barrier_sides |= DecodedInst::kOtherSideBarrier;
      }
      const bool one_side = d.barrier_sides == DecodedInst::kTakenSideBarrier ||
                            d.barrier_sides == DecodedInst::kOtherSideBarrier;
      if (one_side && barriers.runs_apart_to_exit(join))
        d.barrier_sides |= DecodedInst::kApartAfterJoin;
    }
    d.exec = select_exec(d);
    // Only control flow and barriers are the executor's own; any other instruction the verifier
    // accepts has an executor (tests/unit/ptx_forms_test.cpp decodes every form).
    if (d.exec == nullptr && ir::opcode_info(inst.opcode).latency != ir::LatencyClass::Branch &&
        ir::opcode_info(inst.opcode).latency != ir::LatencyClass::Barrier) {
      throw std::logic_error("no executor for " + std::string(ir::spelling(inst.opcode)));
    }
    return d;
  }

  const ir::Module& module_;
  const LaunchSpec& launch_;
  const GlobalMemory& memory_;
  const ir::Kernel& kernel_;
  Program prog_;
  std::map<std::string, std::uint32_t> reg_slot_;
  std::map<std::string, ir::ScalarType> reg_type_;
  std::map<std::string, std::uint64_t> array_offset_;
  std::map<std::uint64_t, std::uint32_t> pool_slot_;
};

}  // namespace

std::uint64_t static_shared_bytes(const ir::Kernel& kernel) {
  std::uint64_t end = 0;
  for (const ir::ArrayDecl& a : kernel.arrays) {
    if (a.space != ir::Space::Shared || a.is_dynamic) continue;
    end = align_up(end, ir::alignment(a)) + element_count(a.dims) * ir::size_bytes(a.element);
  }
  return end;
}

Program decode(const ir::Module& module, const LaunchSpec& launch, const GlobalMemory& memory) {
  return Decoder(module, launch, memory).run();
}

std::vector<std::uint8_t> constant_image(const ir::Module& module,
                                         std::vector<std::uint64_t>* offsets) {
  std::vector<std::uint64_t> at;
  std::uint64_t end = 0;
  for (const ir::ArrayDecl& c : module.constants) {
    end = align_up(end, ir::kDefaultArrayAlignment);
    at.push_back(end);
    end += element_count(c.dims) * ir::size_bytes(c.element);
  }
  std::vector<std::uint8_t> image(end, 0);
  for (std::size_t i = 0; i < module.constants.size(); ++i) {
    const std::vector<std::uint8_t> bytes = initial_bytes(module.constants[i]);
    std::copy(bytes.begin(), bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(at[i]));
  }
  if (offsets != nullptr) *offsets = std::move(at);
  return image;
}

}  // namespace warpsim::exec

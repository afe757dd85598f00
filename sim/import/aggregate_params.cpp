#include "sim/import/aggregate_params.hpp"

#include <algorithm>
#include <map>

namespace warpsim::ptx {
namespace {

std::vector<std::string_view> dotted(std::string_view opcode) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0; at <= opcode.size();) {
    const std::size_t dot = std::min(opcode.find('.', at), opcode.size());
    parts.push_back(opcode.substr(at, dot - at));
    at = dot + 1;
  }
  return parts;
}

bool names(const Operand& op, const std::string& param) {
  if (const auto* s = std::get_if<Symbol>(&op)) return s->name == param;
  if (const auto* a = std::get_if<Address>(&op); a && a->base) {
    if (const auto* s = std::get_if<Symbol>(&*a->base)) return s->name == param;
  }
  return false;
}

}  // namespace

std::string param_key(const std::string& param, std::int64_t offset) {
  return offset == 0 ? param : param + "+" + std::to_string(offset);
}

std::uint32_t ptx_type_bytes(std::string_view type) {
  if (type.starts_with(".")) type.remove_prefix(1);
  if (type == "pred") return 4;
  if (type.size() < 2) return 0;
  const std::string_view width = type.substr(1);
  if (width == "8") return 1;
  if (width == "16") return 2;
  if (width == "32") return 4;
  if (width == "64") return 8;
  return 0;
}

std::variant<std::vector<FieldRead>, std::string> aggregate_fields(const Entry& entry,
                                                                   const Param& param) {
  const std::uint64_t size =
      param.elements * std::max<std::uint32_t>(1, ptx_type_bytes(param.type));
  std::map<std::uint32_t, FieldRead> fields;
  for (const Statement& s : entry.body) {
    const auto* inst = std::get_if<Instruction>(&s);
    if (inst == nullptr) continue;
    const auto parts = dotted(inst->opcode);
    const bool param_read = parts.size() >= 3 && (parts[0] == "ld") && parts[1] == "param";
    for (std::size_t i = 0; i < inst->operands.size(); ++i) {
      if (!names(inst->operands[i], param.name)) continue;
      const auto* a = std::get_if<Address>(&inst->operands[i]);
      if (!param_read || i != 1 || a == nullptr) {
        return "struct parameter " + param.name +
               " is used other than by reading its fields "
               "(ld.param [" +
               param.name + "+N]) at PTX line " + std::to_string(inst->line);
      }
      unsigned count = 1;
      if (parts.size() == 4 && (parts[2] == "v2" || parts[2] == "v4"))
        count = parts[2] == "v2" ? 2 : 4;
      const std::string type = "." + std::string(parts.back());
      const std::uint32_t bytes = ptx_type_bytes(type);
      if (bytes == 0 || a->displacement < 0) {
        return "a read of struct parameter " + param.name + " as " + inst->opcode +
               " is not imported (PTX line " + std::to_string(inst->line) + ")";
      }
      for (unsigned k = 0; k < count; ++k) {
        const auto offset = static_cast<std::uint32_t>(a->displacement) + k * bytes;
        if (offset + bytes > size) {
          return "a read of struct parameter " + param.name + " at byte " + std::to_string(offset) +
                 " leaves its " + std::to_string(size) + " bytes";
        }
        auto [it, added] = fields.try_emplace(offset, FieldRead{offset, bytes, type});
        if (!added && (it->second.bytes != bytes || it->second.type != type)) {
          return "struct parameter " + param.name + "'s bytes at " + std::to_string(offset) +
                 " are read as both " + it->second.type + " and " + type +
                 " (not imported: one IR parameter a field)";
        }
      }
    }
  }
  std::vector<FieldRead> out;
  for (const auto& [offset, f] : fields) {
    if (!out.empty() && out.back().offset + out.back().bytes > offset) {
      return "struct parameter " + param.name + " is read in overlapping pieces (bytes " +
             std::to_string(out.back().offset) + " and " + std::to_string(offset) +
             "; not imported: one IR parameter a field)";
    }
    out.push_back(f);
  }
  return out;
}

std::pair<std::vector<std::uint32_t>, std::uint32_t> ptx_param_layout(const Entry& entry) {
  std::vector<std::uint32_t> offsets;
  std::uint64_t at = 0;
  for (const Param& p : entry.params) {
    const std::uint64_t element = std::max<std::uint32_t>(1, ptx_type_bytes(p.type));
    const std::uint64_t align = p.align != 0 ? p.align : element;
    at = (at + align - 1) / align * align;
    offsets.push_back(static_cast<std::uint32_t>(at));
    at += element * p.elements;
  }
  return {offsets, static_cast<std::uint32_t>(at)};
}

}  // namespace warpsim::ptx

#include "sim/import/kernel_signature.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "sim/import/aggregate_params.hpp"

namespace warpsim::ptx {
namespace {

std::string trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// Splits at commas outside (), <>, [] and {}.
std::vector<std::string> split_top_level(std::string_view s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string last = trim(s.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

// The position of the '(' that opens the parameter list of a demangled function name: the
// last one at depth 0.
std::size_t parameter_list_start(std::string_view s) {
  int depth = 0;
  std::size_t open = std::string_view::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' && depth == 0) open = i;
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
  }
  return open;
}

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// A demangled C++ type without cv-qualifiers and restrict: "float const*" -> "float*".
std::string plain_type(std::string_view t) {
  std::string out;
  std::size_t i = 0;
  while (i < t.size()) {
    if (is_ident_start(t[i])) {
      std::size_t j = i;
      while (j < t.size() && is_ident_char(t[j])) ++j;
      const std::string_view word = t.substr(i, j - i);
      if (word != "const" && word != "volatile" && word != "__restrict__" && word != "__restrict") {
        if (!out.empty() && is_ident_char(out.back())) out += ' ';
        out += word;
      }
      i = j;
    } else {
      if (t[i] != ' ') out += t[i];
      ++i;
    }
  }
  return out;
}

std::optional<ir::ScalarType> scalar_of(const std::string& t) {
  static const std::map<std::string, ir::ScalarType> kTypes = {
      {"float", ir::ScalarType::F32},
      {"float2", ir::ScalarType::F32},
      {"float4", ir::ScalarType::F32},
      {"double", ir::ScalarType::F64},
      {"double2", ir::ScalarType::F64},
      {"int", ir::ScalarType::S32},
      {"int2", ir::ScalarType::S32},
      {"int4", ir::ScalarType::S32},
      {"unsigned int", ir::ScalarType::U32},
      {"unsigned", ir::ScalarType::U32},
      {"uint2", ir::ScalarType::U32},
      {"uint4", ir::ScalarType::U32},
      {"long", ir::ScalarType::S64},
      {"long long", ir::ScalarType::S64},
      {"unsigned long", ir::ScalarType::U64},
      {"unsigned long long", ir::ScalarType::U64},
      // 8- and 16-bit values: 32-bit IR parameters (the kernel reads their low bytes), and
      // buffers of 32-bit words (the kernel addresses their bytes).
      {"bool", ir::ScalarType::U32},
      {"char", ir::ScalarType::S32},
      {"signed char", ir::ScalarType::S32},
      {"unsigned char", ir::ScalarType::U32},
      {"short", ir::ScalarType::S32},
      {"unsigned short", ir::ScalarType::U32},
  };
  auto it = kTypes.find(t);
  if (it == kTypes.end()) return std::nullopt;
  return it->second;
}

std::string opcode_base(const std::string& opcode) {
  return opcode.substr(0, opcode.find('.'));
}

// For each .u64 parameter that the code uses as an address: the type of its first access.
std::map<std::string, std::optional<ir::ScalarType>> pointer_uses(const Entry& entry) {
  std::map<std::string, std::string> derived;  // register -> parameter whose address it holds
  std::map<std::string, std::optional<ir::ScalarType>> uses;
  for (const Statement& s : entry.body) {
    const auto* inst = std::get_if<Instruction>(&s);
    if (inst == nullptr || inst->operands.empty()) continue;
    const std::string base = opcode_base(inst->opcode);
    const auto* dst = std::get_if<Register>(&inst->operands[0]);
    auto source_param = [&](std::size_t i) -> std::string {
      if (i >= inst->operands.size()) return "";
      if (const auto* r = std::get_if<Register>(&inst->operands[i])) {
        auto it = derived.find(r->name);
        return it == derived.end() ? "" : it->second;
      }
      return "";
    };
    if (inst->opcode.starts_with("ld.param") && dst && inst->operands.size() == 2) {
      if (const auto* a = std::get_if<Address>(&inst->operands[1]); a && a->base) {
        if (const auto* sym = std::get_if<Symbol>(&*a->base))
          derived[dst->name] = param_key(sym->name, a->displacement);
      }
      continue;
    }
    if (base == "cvta" || base == "mov" || base == "add" || base == "sub") {
      std::string p = source_param(1);
      if (p.empty() && base == "add") p = source_param(2);
      if (dst && !p.empty()) derived[dst->name] = p;
      if (base == "cvta" && !p.empty() && !uses.contains(p)) uses[p] = std::nullopt;
      continue;
    }
    const bool access = base == "ld" || base == "st" || base == "atom" || base == "red";
    if (!access) continue;
    for (const Operand& op : inst->operands) {
      const auto* a = std::get_if<Address>(&op);
      if (a == nullptr || !a->base) continue;
      const auto* r = std::get_if<Register>(&*a->base);
      if (r == nullptr || !derived.contains(r->name)) continue;
      const std::string& p = derived[r->name];
      const std::string type = "." + inst->opcode.substr(inst->opcode.rfind('.') + 1);
      if (!uses.contains(p) || !uses[p]) uses[p] = ir_type_of(type);
    }
  }
  return uses;
}

// A struct parameter's fields, each an IR parameter named after the struct and the field's
// offset (d_0, d_4, ...): a 64-bit field the code uses as an address is a pointer, as a 64-bit
// parameter is; an 8- or 16-bit field a 32-bit value, as such a parameter is. PTX reads fields
// without their signedness, and the mangled name does not describe a struct: a 32- or 64-bit
// integer field is signed (C's int and long, the common fields; the bits are the same, so an
// unsigned field past 2^31 is given as its negative).
void add_fields(const Entry& entry, const Param& p, const ParamSpec& whole,
                const std::map<std::string, std::optional<ir::ScalarType>>& uses,
                std::vector<ParamSpec>& specs) {
  auto fields = aggregate_fields(entry, p);
  if (const auto* why = std::get_if<std::string>(&fields)) {
    ParamSpec s = whole;
    s.unsupported = *why;
    specs.push_back(s);
    return;
  }
  for (const FieldRead& f : std::get<std::vector<FieldRead>>(fields)) {
    ParamSpec s;
    s.name = whole.name + "_" + std::to_string(f.offset);
    s.key = param_key(p.name, f.offset);
    s.place = {whole.place.offset + f.offset, f.bytes};
    s.type = ir_type_of(f.type).value_or(f.type.starts_with(".s") ? ir::ScalarType::S32
                                                                  : ir::ScalarType::U32);
    if (s.type == ir::ScalarType::U32 && f.bytes == 4) s.type = ir::ScalarType::S32;
    if (s.type == ir::ScalarType::U64) s.type = ir::ScalarType::S64;
    if (auto use = uses.find(s.key); use != uses.end() && f.bytes == 8) {
      s.is_pointer = true;
      s.type = use->second.value_or(ir::ScalarType::U32);
      if (s.type == ir::ScalarType::Pred) s.type = ir::ScalarType::U32;
    }
    specs.push_back(s);
  }
}

}  // namespace

std::optional<std::string> demangle(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return std::nullopt;
  int status = 0;
  const std::string name(mangled);
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return std::nullopt;
  return std::string(out.get());
}

std::string kernel_display_name(std::string_view ptx_name) {
  const auto d = demangle(ptx_name);
  if (!d) return std::string(ptx_name);
  std::string name = d->substr(0, std::min(parameter_list_start(*d), d->size()));
  if (name.starts_with("void ")) name = name.substr(5);
  return trim(name);
}

namespace {

// `name` without spaces and without the suffixes (u, l, ul, ll, ull) of integer literals.
std::string plain_cpp_name(std::string_view name) {
  auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  std::string out;
  std::size_t i = 0;
  while (i < name.size()) {
    const char c = name[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    // A number that starts a token (not the digits inside an identifier such as f2u).
    const bool number =
        std::isdigit(static_cast<unsigned char>(c)) != 0 && (out.empty() || !word_char(out.back()));
    if (!number) {
      out += c;
      ++i;
      continue;
    }
    while (i < name.size() && std::isalnum(static_cast<unsigned char>(name[i])) != 0 &&
           std::string_view("uUlL").find(name[i]) == std::string_view::npos)
      out += name[i++];
    std::size_t j = i;
    while (j < name.size() && std::string_view("uUlL").find(name[j]) != std::string_view::npos) ++j;
    if (j == name.size() || !word_char(name[j])) i = j;  // a suffix: dropped
  }
  return out;
}

}  // namespace

bool same_cpp_name(std::string_view written, std::string_view demangled) {
  return written == demangled || plain_cpp_name(written) == plain_cpp_name(demangled);
}

std::optional<std::string> local_name(std::string_view mangled) {
  if (!mangled.starts_with("_ZZ")) return std::nullopt;
  const auto d = demangle(mangled);
  if (!d) return std::nullopt;
  const std::size_t colons = d->rfind("::");
  if (colons == std::string::npos) return std::nullopt;
  const std::string name = d->substr(colons + 2);
  if (name.empty() || !is_ident_start(name[0])) return std::nullopt;
  for (char c : name) {
    if (!is_ident_char(c)) return std::nullopt;
  }
  return name;
}

std::vector<std::string> demangled_parameter_types(std::string_view demangled) {
  const std::size_t open = parameter_list_start(demangled);
  if (open == std::string_view::npos) return {};
  const std::size_t close = demangled.rfind(')');
  if (close == std::string_view::npos || close < open) return {};
  const std::string inner = trim(demangled.substr(open + 1, close - open - 1));
  if (inner.empty() || inner == "void") return {};
  return split_top_level(inner);
}

std::optional<std::vector<std::string>> source_parameter_names(std::string_view source,
                                                               std::uint32_t line,
                                                               std::string_view kernel,
                                                               std::size_t count) {
  std::size_t pos = 0;
  for (std::uint32_t l = 1; l < line && pos != std::string_view::npos; ++l) {
    pos = source.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos) return std::nullopt;
  // The plain name: "smem_transpose" for "ns::smem_transpose<0>".
  std::string name(kernel.substr(0, kernel.find('<')));
  if (const std::size_t colons = name.rfind("::"); colons != std::string::npos) {
    name = name.substr(colons + 2);
  }
  for (std::size_t at = source.find(name, pos); at != std::string_view::npos;
       at = source.find(name, at + 1)) {
    const bool starts = at == 0 || !is_ident_char(source[at - 1]);
    std::size_t after = at + name.size();
    if (!starts || (after < source.size() && is_ident_char(source[after]))) continue;
    while (after < source.size() && std::isspace(static_cast<unsigned char>(source[after])))
      ++after;
    if (after >= source.size() || source[after] != '(') continue;
    int depth = 0;
    std::size_t close = after;
    for (; close < source.size(); ++close) {
      if (source[close] == '(') ++depth;
      if (source[close] == ')' && --depth == 0) break;
    }
    if (close >= source.size()) return std::nullopt;
    const std::vector<std::string> decls =
        split_top_level(source.substr(after + 1, close - after - 1));
    if (decls.size() != count) return std::nullopt;
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < decls.size(); ++i) {
      std::string d = decls[i].substr(0, decls[i].find('='));
      d = d.substr(0, d.find('['));
      std::size_t end = d.find_last_not_of(" \t\r\n");
      std::size_t begin = end;
      while (begin != std::string::npos && begin > 0 && is_ident_char(d[begin - 1])) --begin;
      std::string word = end == std::string::npos ? "" : d.substr(begin, end - begin + 1);
      const std::vector<std::string> type_words = {"int",  "float",    "double", "char", "short",
                                                   "long", "unsigned", "bool",   "const"};
      const bool is_type_word =
          std::find(type_words.begin(), type_words.end(), word) != type_words.end();
      if (word.empty() || !is_ident_start(word[0]) || is_type_word || !seen.insert(word).second) {
        word = "p" + std::to_string(i);
      }
      names.push_back(word);
    }
    return names;
  }
  return std::nullopt;
}

std::vector<ParamSpec> parameter_specs(const Entry& entry,
                                       const std::optional<std::vector<std::string>>& names) {
  const auto demangled = demangle(entry.name);
  const std::vector<std::string> types =
      demangled ? demangled_parameter_types(*demangled) : std::vector<std::string>{};
  const bool typed = types.size() == entry.params.size();
  const auto uses = pointer_uses(entry);
  const std::vector<std::uint32_t> offsets = ptx_param_layout(entry).first;
  std::vector<ParamSpec> specs;
  for (std::size_t i = 0; i < entry.params.size(); ++i) {
    const Param& p = entry.params[i];
    ParamSpec s;
    s.name = names && i < names->size() ? (*names)[i] : "p" + std::to_string(i);
    s.key = p.name;
    s.place = {offsets[i], std::max<std::uint32_t>(1, ptx_type_bytes(p.type))};
    if (p.is_array) {
      add_fields(entry, p, s, uses, specs);
      continue;
    }
    const auto width_type = ir_type_of(p.type);
    s.type = width_type.value_or(ir::ScalarType::U32);
    auto use = uses.find(p.name);
    if (typed) {
      const std::string t = plain_type(types[i]);
      if (t.ends_with("*")) {
        s.is_pointer = true;
        const auto element = scalar_of(t.substr(0, t.size() - 1));
        s.type = element                              ? *element
                 : (use != uses.end() && use->second) ? *use->second
                                                      : ir::ScalarType::U32;
      } else if (const auto scalar = scalar_of(t)) {
        s.type = *scalar;
      }
    } else if ((p.type == ".u64" || p.type == ".b64") && use != uses.end()) {
      s.is_pointer = true;
      s.type = use->second.value_or(ir::ScalarType::U32);
    }
    if (s.is_pointer && s.type == ir::ScalarType::Pred) s.type = ir::ScalarType::U32;
    specs.push_back(s);
  }
  return specs;
}

}  // namespace warpsim::ptx

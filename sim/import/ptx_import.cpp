#include "sim/import/ptx_import.hpp"

#include <cstring>
#include <set>

#include "sim/core/ir/verifier.hpp"
#include "sim/import/entry_translator.hpp"
#include "sim/import/ir_build.hpp"
#include "sim/import/kernel_signature.hpp"
#include "sim/import/ptx_inline.hpp"
#include "sim/import/ptx_reader.hpp"

namespace warpsim::ptx {
namespace {

// __constant__ arrays and module .global variables (__device__ variables, the tables of nvcc's
// math functions): module constants and globals of 32-bit words (or the declared type), their
// PTX initialiser packed little-endian as the GPU holds it.
std::optional<std::string> add_module_arrays(const Module& ptx, ir::Module& out) {
  for (const VariableDecl& v : ptx.variables) {
    if (v.space != ".const" && v.space != ".global") continue;
    const bool global = v.space == ".global";
    const auto declared = ir_type_of(v.type);
    const std::uint64_t element_bytes = v.type == ".b8" || v.type == ".u8" || v.type == ".s8" ? 1
                                        : v.type == ".b16" || v.type == ".u16"                ? 2
                                        : declared ? ir::size_bytes(*declared)
                                                   : 0;
    if (element_bytes == 0 || v.elements == 0) {
      return std::string(global ? "the global variable '" : "the constant '") + v.name +
             "' of type " + v.type + " is not imported";
    }
    ir::ArrayDecl a;
    a.space = global ? ir::Space::Global : ir::Space::Const;
    a.name = ir_word(v.name);
    if (a.name != v.name) a.ptx_name = v.name;
    const bool words = !declared || *declared == ir::ScalarType::Pred;
    a.element = words ? ir::ScalarType::U32 : *declared;
    const std::uint64_t bytes = v.elements * element_bytes;
    a.dims = {words ? (bytes + 3) / 4 : v.elements};
    if (words) {
      std::vector<std::uint8_t> raw(a.dims[0] * 4, 0);
      for (std::size_t i = 0; i < v.initializer.size() && i < v.elements; ++i) {
        std::memcpy(raw.data() + i * element_bytes, &v.initializer[i], element_bytes);
      }
      for (std::size_t w = 0; w < a.dims[0] && !v.initializer.empty(); ++w) {
        std::uint32_t word = 0;
        std::memcpy(&word, raw.data() + w * 4, 4);
        a.init.emplace_back(ir::IntLiteral{word, false});
      }
    } else {
      for (std::uint64_t bits : v.initializer) {
        if (ir::is_float(a.element)) {
          double d = 0;
          if (a.element == ir::ScalarType::F32) {
            float f = 0;
            const auto b32 = static_cast<std::uint32_t>(bits);
            std::memcpy(&f, &b32, 4);
            d = f;
          } else {
            std::memcpy(&d, &bits, 8);
          }
          a.init.emplace_back(ir::FloatLiteral{d});
        } else {
          a.init.emplace_back(ir::IntLiteral{bits, false});
        }
      }
    }
    (global ? out.globals : out.constants).push_back(std::move(a));
  }
  return std::nullopt;
}

bool matches(const std::string& wanted, const Entry& e) {
  if (wanted == e.name) return true;
  if (same_cpp_name(wanted, kernel_display_name(e.name))) return true;
  const auto full = demangle(e.name);
  return full && *full == wanted;
}

// PTX lets a register be read on a path that never wrote it (its value is then undefined:
// CUDA's warp-aggregated atomic writes `base` in the leader lane only and shuffles it from
// there). The IR requires a definition on every path, so such a register is set to 0 at the
// entry: a value PTX allows, and the same on every run.
void define_registers_read_before_written(const ir::Module& module, ir::Kernel& kernel) {
  const auto undefined = ir::registers_read_before_written(module, kernel);
  if (undefined.empty() || kernel.blocks.empty()) return;
  auto& entry = kernel.blocks.front().instructions;
  const ir::SourceOrigin origin = entry.empty() ? ir::SourceOrigin{} : entry.front().origin;
  std::vector<ir::Instruction> definitions;
  for (const auto& [name, type] : undefined) {
    ir::Instruction mov;
    mov.opcode = ir::Opcode::Mov;
    mov.type = type;
    mov.dests = {ir::RegDef{name, {}}};
    mov.operands = {op(number(0))};
    mov.origin = origin;
    definitions.push_back(std::move(mov));
  }
  entry.insert(entry.begin(), definitions.begin(), definitions.end());
}

}  // namespace

ImportResult import_ptx(std::string_view ptx_text, const ImportOptions& options) {
  ImportResult result{std::nullopt, {}, ir::Diagnostics(options.ptx_name, std::string(ptx_text))};
  auto read = read_ptx(ptx_text);
  if (const auto* e = std::get_if<ReadError>(&read)) {
    result.diags.error({e->line, e->column}, e->message);
    return result;
  }
  const Module& ptx = std::get<Module>(read);
  ir::Module out;
  std::map<std::uint32_t, std::uint32_t> files;
  for (const auto& [index, path] : ptx.files) {
    const bool main_file = !options.cuda_path.empty() &&
                           (path == options.cuda_absolute_path || path == options.cuda_path);
    out.source_files.push_back(main_file ? options.cuda_path : path);
    files[index] = static_cast<std::uint32_t>(out.source_files.size());
  }
  auto cuda_line = [&](const Origin& o) {
    auto it = files.find(o.file);
    if (it == files.end() || o.line == 0) return std::string();
    return " (CUDA source " + out.source_files[it->second - 1] + ":" + std::to_string(o.line) + ")";
  };
  std::set<std::string> ir_names;
  for (const Entry& e : ptx.entries) {
    std::string name = ir_word(kernel_display_name(e.name));
    while (!ir_names.insert(name).second) name += "_";
    result.kernels.push_back({e.name, kernel_display_name(e.name), name, {}, {}});
  }
  if (options.kernel) {
    bool found = false;
    for (const Entry& e : ptx.entries) found = found || matches(*options.kernel, e);
    if (!found) {
      std::string names;
      for (const KernelName& k : result.kernels) names += "\n  " + k.cpp + "  (PTX " + k.ptx + ")";
      result.diags.error({0, 0}, "no kernel named '" + *options.kernel + "'; the file has:" +
                                     (names.empty() ? std::string(" none") : names));
      return result;
    }
  }
  if (ptx.entries.empty()) {
    result.diags.error({0, 0}, "the PTX holds no kernel (.entry)");
    return result;
  }
  if (auto problem = add_module_arrays(ptx, out)) {
    result.diags.error({0, 0}, *problem);
    return result;
  }
  for (std::size_t i = 0; i < ptx.entries.size(); ++i) {
    const Entry& e = ptx.entries[i];
    if (options.kernel && !matches(*options.kernel, e)) continue;
    std::optional<std::vector<std::string>> names;
    if (!options.cuda_source.empty() && e.origin.line != 0 && files.contains(e.origin.file) &&
        out.source_files[files[e.origin.file] - 1] == options.cuda_path) {
      names = source_parameter_names(options.cuda_source, e.origin.line, result.kernels[i].cpp,
                                     e.params.size());
    }
    Entry inlined = e;
    TranslateInput in;
    in.module = &ptx;
    in.entry = &inlined;
    in.params = parameter_specs(e, names);
    in.files = files;
    in.kernel_name = result.kernels[i].ir;
    std::variant<ir::Kernel, TranslateError> kernel;
    if (const auto problem = inline_calls(ptx, inlined)) {
      kernel = TranslateError{problem->line, problem->column, {}, problem->message};
    } else {
      kernel = translate_entry(in);
    }
    if (const auto* err = std::get_if<TranslateError>(&kernel)) {
      const std::string message =
          "in kernel " + result.kernels[i].cpp + ": " + err->message + cuda_line(err->origin);
      if (!options.bodies_optional) {
        result.diags.error({err->line, err->column}, message);
        return result;
      }
      // The launch needs only the parameters and arrays: translate the entry without its body.
      result.kernels[i].body_error = options.ptx_name + ":" + std::to_string(err->line) + ":" +
                                     std::to_string(err->column) + ": " + message;
      inlined = e;
      inlined.body.clear();
      inlined.call_params.clear();
      inlined.unreadable.reset();
      kernel = translate_entry(in);
      if (const auto* stub_err = std::get_if<TranslateError>(&kernel)) {
        result.diags.error({stub_err->line, stub_err->column},
                           "in kernel " + result.kernels[i].cpp + ": " + stub_err->message);
        return result;
      }
    }
    ir::Kernel& translated = std::get<ir::Kernel>(kernel);
    result.kernels[i].params = translated.ptx_params;
    define_registers_read_before_written(out, translated);
    out.kernels.push_back(std::move(translated));
  }
  result.module = std::move(out);
  return result;
}

}  // namespace warpsim::ptx

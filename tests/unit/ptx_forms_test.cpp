// Every instruction form the IR accepts lowers to PTX that ptxas assembles, executes, and has a
// timing pipe. The forms are
// generated from the opcode table's modifier patterns: every type, type pair, space, vector
// width, rounding, atomic and reduction operation, shuffle and vote mode, with and without a
// destination. The verifier
// decides which of them are IR (a form it rejects is not one), and each accepted form becomes a
// kernel of one module that ptxas assembles for sm_90.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cuda_backend/ptx.hpp"
#include "sim/core/ir/frontend.hpp"
#include "sim/core/ir/opcodes.hpp"
#include "sim/core/ir/types.hpp"
#include "sim/scheduler/inst_timing.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {
namespace {

const std::vector<std::string> kTypes = {"pred", "s32", "u32", "s64", "u64", "f32", "f64"};

bool is_float_type(const std::string& t) {
  return t == "f32" || t == "f64";
}

// A value of type `t` for an operand: a register the kernel's prologue defines.
std::string value_of(const std::string& t, int which) {
  return t == "pred" ? "%q" + std::to_string(which) : "%v" + std::to_string(which) + "_" + t;
}

// The prologue: registers of every type, an index, a rank, a predicate.
std::string prologue() {
  std::string text =
      "  %i = mov.u32 0\n  %u = mov.u32 3\n  %r = mov.u32 %cluster_ctarank\n"
      "  %members = mov.u32 4294967295\n";
  for (int w = 0; w < 3; ++w) {
    text += "  %q" + std::to_string(w) + " = lt.u32 %tid.x, " + std::to_string(5 + w) + "\n";
    for (const std::string& t : kTypes) {
      if (t == "pred") continue;
      text += "  " + value_of(t, w) + " = mov." + t + " " + (is_float_type(t) ? "1.5" : "3") + "\n";
    }
  }
  return text;
}

// The operands of a signature (opcodes.def) for instruction type `t` and source type `src`.
std::string operands(std::string_view signature, const std::string& t, const std::string& src) {
  std::string list;
  int n = 0;
  for (char c : signature) {
    std::string op;
    switch (c) {
      case 'T':
        op = value_of(t, n);
        break;
      case 'P':
        op = "%q0";
        break;
      case 'u':
        op = "%u";
        break;
      case 'S':
        op = value_of(src, n);
        break;
      default:
        break;
    }
    ++n;
    list += (list.empty() ? "" : ", ") + op;
  }
  return list;
}

std::string dests(unsigned count, const std::string& stem) {
  if (count == 1) return "%" + stem;
  std::string d = "{";
  for (unsigned k = 0; k < count; ++k) d += (k ? ", %" : "%") + stem + std::to_string(k);
  return d + "}";
}

std::string memref(const std::string& space) {
  if (space == "global") return "g[%i]";
  if (space == "const") return "k[%i]";
  if (space == "local") return "lo[%i]";
  if (space == "dsmem") return "sh@%r[%i]";
  return "sh[%i]";
}

// Every form of one opcode, each as the body of one kernel (the instruction lines).
std::vector<std::string> forms(ir::Opcode op) {
  const ir::OpcodeInfo& info = ir::opcode_info(op);
  const std::string name(info.spelling);
  std::vector<std::string> out;
  switch (info.modifiers) {
    case ir::ModifierPattern::Type:
      for (const std::string& t : kTypes) {
        // match.any's members: the whole warp, which every lane of the launch is.
        out.push_back(op == ir::Opcode::MatchAny
                          ? "%d = " + name + "." + t + " " + value_of(t, 0) + ", %members"
                          : "%d = " + name + "." + t + " " + operands(info.signature, t, t));
        // The directed roundings (the verifier keeps those of float add, sub, mul and fma).
        for (const std::string r : {"rz", "rm", "rp"}) {
          out.push_back("%d = " + name + "." + r + "." + t + " " + operands(info.signature, t, t));
        }
      }
      break;
    case ir::ModifierPattern::ReduceType:
      for (const std::string reduction : {"add", "min", "max", "and", "or", "xor", "exch"}) {
        for (const std::string& t : kTypes) {
          out.push_back("%d = " + name + "." + reduction + "." + t + " " + value_of(t, 0) +
                        ", %members");
        }
      }
      break;
    case ir::ModifierPattern::TypePair:
      for (const std::string& to : kTypes) {
        for (const std::string& from : kTypes) {
          out.push_back("%d = " + name + "." + to + "." + from + " " +
                        operands(info.signature, to, from));
        }
      }
      break;
    case ir::ModifierPattern::SpaceType:
      for (const std::string space : {"global", "shared", "const", "local", "dsmem"}) {
        for (const unsigned width : {1u, 2u, 4u}) {
          for (const std::string& t : kTypes) {
            const std::string v = width == 1 ? "" : ".v" + std::to_string(width);
            if (op == ir::Opcode::Ld) {
              out.push_back(dests(width, "d") + " = ld." + space + v + "." + t + " " +
                            memref(space));
            } else {
              std::string values = width == 1 ? value_of(t, 0) : "{";
              for (unsigned k = 0; width > 1 && k < width; ++k) {
                values += (k ? ", " : "") + value_of(t, static_cast<int>(k % 3));
              }
              if (width > 1) values += "}";
              out.push_back("st." + space + v + "." + t + " " + memref(space) + ", " + values);
            }
          }
        }
      }
      break;
    case ir::ModifierPattern::AtomicType:
      for (const std::string space : {"global", "shared", "dsmem"}) {
        for (const std::string atomic : {"add", "min", "max", "exch", "cas"}) {
          for (const std::string& t : kTypes) {
            std::string values = value_of(t, 0) + (atomic == "cas" ? ", " + value_of(t, 1) : "");
            const std::string body =
                "atom." + space + "." + atomic + "." + t + " " + memref(space) + ", " + values;
            out.push_back(body);
            out.push_back("%d = " + body);
          }
        }
      }
      break;
    case ir::ModifierPattern::ShuffleType:
      for (const std::string mode : {"idx", "up", "down", "xor"}) {
        for (const std::string& t : kTypes) {
          // shfl.sync's member mask: the whole warp, which every lane of the launch is.
          out.push_back("%d = " + name + "." + mode + "." + t + " " + value_of(t, 0) + ", %u" +
                        (info.signature.size() == 3 ? ", %members" : ""));
        }
      }
      break;
    case ir::ModifierPattern::Vote:
      for (const std::string mode : {"ballot", "any", "all"}) {
        out.push_back("%d = " + name + "." + mode + " %q0" +
                      (info.signature.size() == 2 ? ", %members" : ""));
      }
      break;
    case ir::ModifierPattern::BarrierReduction:
      for (const std::string reduction : {"popc", "and", "or"}) {
        out.push_back("%d = " + name + "." + reduction + " %q0");
      }
      break;
    case ir::ModifierPattern::None:
      // warp.sync names its members: the whole warp, which every lane of the launch is; a
      // named barrier its id and the one warp's 32 threads.
      if (!info.is_terminator) {
        out.push_back(info.signature == "u"    ? name + " %members"
                      : info.signature == "uu" ? name + " 1, 32"
                                               : name);
      }
      break;
  }
  return out;
}

// Module-level constants of every element type, which `const` forms read.
std::string constants() {
  std::string text;
  for (const std::string& t : kTypes) {
    if (t != "pred") text += "const k_" + t + ": " + t + "[8] = {1, 2}\n";
  }
  return text;
}

std::string kernel_text(const std::string& name, const std::string& element,
                        const std::string& body) {
  std::string b = body;
  if (const auto at = b.find("k[%i]"); at != std::string::npos) b.replace(at, 1, "k_" + element);
  return "kernel " + name + "(g: ptr global " + element + ") {\n  shared sh: " + element +
         "[64]\n  local lo: " + element + "[8]\nentry:\n" + prologue() + "  " + b +
         "\n  br %q0, done, done\ndone:\n  ret\n}\n";
}

// The element type the instruction's memory reference needs: its type suffix, if any.
std::string element_of(const std::string& body) {
  for (const std::string& t : kTypes) {
    if (t != "pred" && body.find("." + t + " ") != std::string::npos) return t;
  }
  return "u32";
}

// Every form the verifier accepts, as kernel texts (one kernel each).
std::vector<std::string> accepted_forms() {
  std::vector<std::string> out;
  std::size_t generated = 0;
  for (std::size_t o = 0; o < static_cast<std::size_t>(ir::Opcode::Ret) + 1; ++o) {
    for (const std::string& body : forms(static_cast<ir::Opcode>(o))) {
      const std::string text =
          kernel_text("form" + std::to_string(generated++), element_of(body), body);
      if (ir::load_module_text("form", constants() + text).ok()) out.push_back(text);
    }
  }
  return out;
}

TEST_CASE("every instruction form the verifier accepts executes and has a timing pipe") {
  const config::GpuConfig gpu = h200();
  std::size_t ran = 0;
  for (const std::string& text : accepted_forms()) {
    CAPTURE(text);
    const std::string name = text.substr(7, text.find('(') - 7);
    const std::string element = text.substr(text.find("global ") + 7, 3);
    const std::string launch =
        "launch " + name + " grid(1) block(32) {\n  g = " + element + "[64] zero\n}\n";
    const KernelRun k = load_kernel_text("form", constants() + text + launch);
    // Decoding gives every instruction but control flow and barriers an executor (it throws
    // otherwise); running it executes each; every instruction gets a pipe and a latency.
    const exec::GlobalMemory memory = exec::GlobalMemory::allocate(k.spec);
    const exec::Program program = exec::decode(k.loaded.module, k.spec, memory);
    for (const scheduler::InstTiming& it : scheduler::classify(program, gpu.timing)) {
      CHECK(it.pipe != scheduler::Pipe::Count);
      CHECK(it.latency > 0);
    }
    CHECK(k.run().stats.warp_instructions > 0);
    ++ran;
  }
  CHECK(ran > 300);
}

TEST_CASE("every instruction form the verifier accepts assembles with ptxas -arch=sm_90") {
  std::string module = constants();
  std::size_t accepted = 0, generated = 0;
  for (std::size_t o = 0; o < static_cast<std::size_t>(ir::Opcode::Ret) + 1; ++o) {
    const auto op = static_cast<ir::Opcode>(o);
    std::size_t of_opcode = 0;
    for (const std::string& body : forms(op)) {
      const std::string text =
          kernel_text("form" + std::to_string(generated++), element_of(body), body);
      if (!ir::load_module_text("form", constants() + text).ok()) continue;
      ++accepted;
      ++of_opcode;
      module += text;
    }
    // An opcode with no accepted form would mean the generator does not speak its syntax.
    CAPTURE(ir::spelling(op));
    CHECK((of_opcode > 0 || ir::opcode_info(op).is_terminator));
  }
  MESSAGE(accepted << " of " << generated << " generated forms are IR");
  // Shuffles alone give 4 modes x 3 types; loads and stores hundreds.
  CHECK(accepted > 300);
  const auto loaded = ir::load_module_text("forms", module);
  REQUIRE(loaded.ok());
#ifdef WARPSIM_PTXAS
  const auto dir = std::filesystem::temp_directory_path();
  const auto ptx = dir / "warpsim_forms.ptx";
  std::ofstream(ptx) << cuda::lower_to_ptx(loaded.module);
  const auto log = dir / "warpsim_forms.log";
  const std::string command = std::string(WARPSIM_PTXAS) + " -arch=sm_90 -o " +
                              (dir / "warpsim_forms.cubin").string() + " " + ptx.string() + " > " +
                              log.string() + " 2>&1";
  const bool assembled = std::system(command.c_str()) == 0;
  std::ifstream in(log);
  const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CAPTURE(message);
  CHECK(assembled);
#else
  MESSAGE("ptxas not found when building: the forms were not assembled");
#endif
}

}  // namespace
}  // namespace warpsim::test

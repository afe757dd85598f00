#include "sim/sass/disassembler.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

#include "sim/import/tool_cache.hpp"
#include "sim/import/toolkit.hpp"

namespace warpsim::sass {
namespace {

namespace fs = std::filesystem;

// A scratch directory removed with everything in it when this goes out of scope.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "warpsim-sass-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }
  bool ok() const { return !path_.empty(); }

 private:
  fs::path path_;
};

// The directories of Python's `nvidia` namespace package, where the CUDA wheels unpack.
std::vector<fs::path> python_nvidia_dirs() {
  const auto python = toolkit::find_program("python3");
  if (!python) return {};
  const toolkit::ProgramRun r =
      toolkit::run_program({*python, "-c", "import nvidia\nfor p in nvidia.__path__: print(p)"});
  std::vector<fs::path> dirs;
  if (r.exit_code != 0) return dirs;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) dirs.emplace_back(line);
  }
  return dirs;
}

}  // namespace

std::optional<std::string> find_disassembler() {
  static const std::optional<std::string> found = []() -> std::optional<std::string> {
    if (auto p = toolkit::find_program("nvdisasm")) return p;
    for (const fs::path& d : python_nvidia_dirs()) {
      for (const char* sub : {"cu13/bin", "cu12/bin", "cuda_nvdisasm/bin"}) {
        std::error_code ec;
        const fs::path candidate = d / sub / "nvdisasm";
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) {
          return candidate.string();
        }
      }
    }
    return std::nullopt;
  }();
  return found;
}

namespace {
SassBuild failed(std::string why) {
  SassBuild b;
  b.error = std::move(why);
  return b;
}
}  // namespace

SassBuild build_sass(const std::string& ptx_text, const std::string& arch) {
  const auto ptxas = toolkit::find_program("ptxas");
  if (!ptxas) return failed("ptxas is not installed (the CUDA toolkit's assembler)");
  const auto nvdisasm = find_disassembler();
  if (!nvdisasm) {
    return failed(
        "nvdisasm is not installed (the CUDA toolkit's, or pip install "
        "nvidia-cuda-nvdisasm; tools/setup.sh does this)");
  }
  // ptxas's report and nvdisasm's listing: from the cache when this PTX was built before by
  // the same two programs for the same architecture.
  const std::string key =
      "ptxas -arch=" + arch +
      " -lineinfo -v | nvdisasm -hex -c -gi | bank-4 relocations | bank-2 sections\n" +
      toolkit::program_identity(*ptxas) + "\n" + toolkit::program_identity(*nvdisasm) + "\n" +
      ptx_text;
  std::vector<std::string> outputs;
  if (auto hit = toolkit::cached_run(key, 4)) {
    outputs = std::move(*hit);
  } else {
    ScratchDir dir;
    if (!dir.ok()) return failed("cannot make a scratch directory");
    const fs::path ptx = dir.path() / "kernel.ptx", cubin = dir.path() / "kernel.cubin";
    std::ofstream(ptx) << ptx_text;
    const toolkit::ProgramRun assembled = toolkit::run_program(
        {*ptxas, "-arch=" + arch, "-lineinfo", "-v", "-o", cubin.string(), ptx.string()});
    if (assembled.exit_code != 0) return failed("ptxas failed:\n" + assembled.output);
    const toolkit::ProgramRun listed =
        toolkit::run_program({*nvdisasm, "-hex", "-c", "-gi", cubin.string()});
    if (listed.exit_code != 0) return failed("nvdisasm failed:\n" + listed.output);
    std::ifstream file(cubin, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                          std::istreambuf_iterator<char>());
    std::string relocation_error;
    const auto relocations = constant_relocations(bytes, relocation_error);
    if (!relocations) return failed("ptxas's cubin: " + relocation_error);
    const auto banks = kernel_constant_banks(bytes, relocation_error);
    if (!banks) return failed("ptxas's cubin: " + relocation_error);
    outputs = {assembled.output, listed.output, relocations_text(*relocations), banks_text(*banks)};
    toolkit::remember_run(key, outputs);
  }
  ListingError error;
  auto listing = parse_listing(outputs[1], error);
  if (!listing) {
    return failed("nvdisasm's listing, line " + std::to_string(error.line) + ": " + error.message);
  }
  SassBuild built;
  built.listing = std::move(listing);
  built.resources = parse_ptxas_resources(outputs[0]);
  built.constant_relocations = parse_relocations_text(outputs[2]);
  built.kernel_banks = parse_banks_text(outputs[3]);
  return built;
}

std::map<std::string, KernelResources> parse_ptxas_resources(const std::string& output) {
  static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
  static const std::regex kFrame(R"((\d+) bytes stack frame)");
  static const std::regex kUsed(R"(Used (\d+) registers)");
  static const std::regex kShared(R"((\d+) bytes smem)");
  // A function's own block of lines (a .func's, after the kernel's) must not overwrite the
  // kernel's; the kernel's cumulative stack size counts the frames of the functions it calls.
  static const std::regex kProperties(R"(Function properties for (\S+))");
  static const std::regex kCumulative(R"((\d+) bytes cumulative stack size)");
  std::map<std::string, KernelResources> out;
  std::istringstream lines(output);
  std::string line;
  KernelResources* current = nullptr;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, kEntry)) {
      current = &out[m[1]];
      continue;
    }
    if (std::regex_search(line, m, kProperties)) {
      const auto entry = out.find(m[1]);
      current = entry == out.end() ? nullptr : &entry->second;
      continue;
    }
    if (current == nullptr) continue;
    if (std::regex_search(line, m, kFrame))
      current->stack_frame = static_cast<std::uint32_t>(std::stoul(m[1]));
    if (std::regex_search(line, m, kUsed)) {
      current->registers = static_cast<std::uint32_t>(std::stoul(m[1]));
      if (std::regex_search(line, m, kShared))
        current->shared = static_cast<std::uint32_t>(std::stoul(m[1]));
      if (std::regex_search(line, m, kCumulative))
        current->stack_frame =
            std::max(current->stack_frame, static_cast<std::uint32_t>(std::stoul(m[1])));
    }
  }
  return out;
}

}  // namespace warpsim::sass

#include "sim/import/ptxas_registers.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "sim/import/tool_cache.hpp"
#include "sim/import/toolkit.hpp"

namespace warpsim::toolkit {

std::map<std::string, std::uint32_t> parse_ptxas_registers(const std::string& output) {
  static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
  static const std::regex kUsed(R"(Used (\d+) registers)");
  std::map<std::string, std::uint32_t> out;
  std::istringstream lines(output);
  std::string line, entry;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, kEntry)) {
      entry = m[1];
    } else if (!entry.empty() && std::regex_search(line, m, kUsed)) {
      out[entry] = static_cast<std::uint32_t>(std::stoul(m[1]));
      entry.clear();
    }
  }
  return out;
}

PtxasRegisters ptxas_registers(const std::string& ptx_text, const std::string& arch) {
  PtxasRegisters result;
  const auto ptxas = find_program("ptxas");
  if (!ptxas) {
    result.error = "ptxas was not found";
    return result;
  }
  const std::string key =
      "ptxas -arch=" + arch + " -v\n" + program_identity(*ptxas) + "\n" + ptx_text;
  if (const auto hit = cached_run(key, 1)) {
    result.registers = parse_ptxas_registers(hit->front());
    return result;
  }
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "warpsim-XXXXXX").string() + ".ptx";
  const int fd = mkstemps(pattern.data(), 4);
  if (fd < 0) {
    result.error = "cannot create a scratch file for ptxas";
    return result;
  }
  close(fd);
  std::ofstream(pattern, std::ios::binary) << ptx_text;
  const ProgramRun run = run_program({*ptxas, "-arch=" + arch, "-v", "-o", "/dev/null", pattern});
  std::error_code ec;
  fs::remove(pattern, ec);
  if (run.exit_code != 0) {
    result.error = "ptxas failed:\n" + run.output;
    return result;
  }
  remember_run(key, {run.output});
  result.registers = parse_ptxas_registers(run.output);
  return result;
}

}  // namespace warpsim::toolkit

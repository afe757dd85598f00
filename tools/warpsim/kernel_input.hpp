// A kernel file as every command takes it: a .kir module, a .ptx file (imported into the IR),
// or a .cu file (compiled to PTX by nvcc, then imported). The options choose the kernel of a
// file with several, add launches from a launch file, and pass flags to nvcc.
#pragma once

#include <boost/program_options.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ir/frontend.hpp"
#include "sim/import/ptx_import.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

struct InputOptions {
  std::optional<std::string> kernel;       // --kernel: import only this one
  std::optional<std::string> launch_file;  // --launch-file: launch blocks to add
  std::string arch = "sm_90";              // nvcc's -arch
  std::vector<std::string> nvcc_flags;     // --nvcc-flag, repeatable
  // The command runs the kernel on its SASS: a body the IR cannot import is no error
  // (ptx::ImportOptions::bodies_optional); the kernel's ir::Kernel::sass_only says why.
  bool sass_frontend = false;
  // The command runs the launched kernel alone on the IR: another kernel of the file whose body
  // the IR cannot import is no error, the launched one's is (require_ir_body).
  bool launched_body_only = false;
};

// --kernel, --launch-file and --nvcc-flag.
void add_input_options(boost::program_options::options_description& desc);
InputOptions input_options(const CommandLine& cl);

bool is_imported(const std::string& path);  // a .cu or .ptx file

// "sm_90" for compute capability 9.0: the architecture nvcc and ptxas compile for.
std::string sm_arch(unsigned major, unsigned minor);

// A loaded file, and for an imported one the names each kernel has in C++, PTX and the IR.
struct LoadedInput {
  ir::LoadedModule loaded;
  std::vector<ptx::KernelName> kernels;
  std::string ptx;  // for an imported file: the PTX it came from (what the GPU would run)
};
LoadedInput load_input(const std::string& path, const InputOptions& options);

// Loads `path`; an imported module is printed as IR and read back, so every later message
// and report names real lines (and each instruction keeps its CUDA line and PTX line). Where
// ptxas is found, each kernel without a regs(N) annotation gets the registers ptxas allocates
// for it: for an imported kernel from its own PTX, for an IR kernel from the PTX `warpsim ptx`
// writes.
ir::LoadedModule load_kernel_file(const std::string& path, const InputOptions& options);

// For a kernel imported with its body left out of the IR (InputOptions::sass_frontend), a note
// on `err` that says why and what the report lacks (the IR's per-line rows).
void note_sass_only(const ir::Kernel& kernel, const char* command, std::ostream& err);

// For a run on the IR (InputOptions::launched_body_only): false, with the import's located error
// on `err`, where the launched kernel's body was left out of the IR.
bool require_ir_body(const ir::Kernel& kernel, const char* command, std::ostream& err);

// An embedded kernel's text (`name` in `display_name`'s messages), its kernels given ptxas's
// registers for `arch` as load_kernel_file gives a file's.
ir::LoadedModule load_embedded_text(const std::string& display_name, const std::string& text,
                                    const std::string& arch);

}  // namespace warpsim::cli

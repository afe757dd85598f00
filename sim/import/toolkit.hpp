// The CUDA toolkit's programs, found and run: nvcc compiles a .cu file to PTX, ptxas reports a
// kernel's registers. Found in $CUDA_HOME/bin, $CUDA_PATH/bin, on PATH, then in
// /usr/local/cuda/bin.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warpsim::toolkit {

// The full path of the program, or nothing when it is not installed.
std::optional<std::string> find_program(const std::string& name);

struct ProgramRun {
  int exit_code = -1;  // -1: could not be started
  std::string output;  // standard output and standard error together
};

// Runs argv[0] (a full path) with the arguments that follow, without a shell.
ProgramRun run_program(const std::vector<std::string>& argv);

struct CompileOptions {
  std::string arch = "sm_90";
  std::vector<std::string> extra_flags;  // passed to nvcc as they are
};

struct Compiled {
  std::optional<std::string> ptx;  // nothing on failure
  std::string error;               // what went wrong: nvcc missing, or its own messages
};

// nvcc -arch=ARCH -O3 -lineinfo -ptx FILE.
Compiled compile_to_ptx(const std::string& cu_path, const CompileOptions& options);

}  // namespace warpsim::toolkit

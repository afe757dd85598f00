// The warpsim command line as a library function, so tests run commands in-process.
// Contract: never calls exit(); returns the process exit code. Bad input of any kind becomes a
// message on `err` and kExitBadInput.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace warpsim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitHazards = 1;         // check found hazards
inline constexpr int kExitBadInput = 2;        // bad IR, arguments or config
inline constexpr int kExitKernelFault = 3;     // the simulated kernel faulted
inline constexpr int kExitOutOfMemory = 4;     // the host could not give the memory a run needed
inline constexpr int kExitInternalError = 70;  // a bug in warpsim (EX_SOFTWARE)

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace warpsim::cli

// Catches what is written to standard output while it lives: the CUDA driver prints a kernel's
// printf output there when the launch synchronises. Both the C library's buffer and file
// descriptor 1 are redirected (into a temporary file), so whichever the driver uses is caught.
#pragma once

#include <cstdio>
#include <string>

namespace warpsim::cuda {

class StdoutCapture {
 public:
  StdoutCapture();
  ~StdoutCapture();
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  // Ends the capture (standard output is restored) and returns what was written; "" where the
  // redirection could not be set up.
  std::string finish();

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;  // the original descriptor 1, while redirected
};

}  // namespace warpsim::cuda

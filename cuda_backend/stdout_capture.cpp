#include "cuda_backend/stdout_capture.hpp"

#include <unistd.h>

namespace warpsim::cuda {

StdoutCapture::StdoutCapture() {
  std::fflush(stdout);
  file_ = std::tmpfile();
  if (file_ == nullptr) return;
  saved_ = dup(STDOUT_FILENO);
  if (saved_ < 0 || dup2(fileno(file_), STDOUT_FILENO) < 0) {
    if (saved_ >= 0) close(saved_);
    saved_ = -1;
    std::fclose(file_);
    file_ = nullptr;
  }
}

StdoutCapture::~StdoutCapture() {
  finish();
}

std::string StdoutCapture::finish() {
  if (file_ == nullptr) return {};
  std::fflush(stdout);
  dup2(saved_, STDOUT_FILENO);
  close(saved_);
  saved_ = -1;
  std::string text;
  std::rewind(file_);
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file_)) > 0;) text.append(chunk, n);
  std::fclose(file_);
  file_ = nullptr;
  return text;
}

}  // namespace warpsim::cuda

// Empties the GPU's L2 of everything a launch could use, as Nsight Compute's default cache
// control does before each pass: a kernel reads scratch memory of four times the L2's size, so
// every line the L2 held is evicted (dirty ones written back) and replaced by clean scratch
// lines that cost nothing to evict. The host's copies that follow do not bring lines into the
// L2 (they update only lines already there), so the launch's buffers then start in DRAM.
#pragma once

#include <cuda.h>

#include <string>

#include "cuda_backend/driver.hpp"

namespace warpsim::cuda {

class L2Flush {
 public:
  L2Flush(const Driver& d, std::string& error) : d_(d), error_(error) {}
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Loads the reading kernel and allocates its scratch memory on `device` (whose context is
  // current); false and `error` when that fails.
  bool prepare(CUdevice device);
  // Runs the reading kernel to its end; false and `error` when it fails.
  bool flush();

 private:
  bool ok(CUresult r, const char* what);

  const Driver& d_;
  std::string& error_;
  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUdeviceptr scratch_ = 0, sink_ = 0;
  unsigned long long scratch_words_ = 0;
  unsigned blocks_ = 0;
};

}  // namespace warpsim::cuda

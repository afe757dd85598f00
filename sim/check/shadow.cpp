#include "sim/check/shadow.hpp"

#include <sys/mman.h>

#include <new>

namespace warpsim::check {

ShadowRegion::ShadowRegion(std::uint64_t bytes, std::uint8_t start_unwritten)
    : length_((bytes / 4 + 1) * sizeof(ShadowWord)), start_unwritten_(start_unwritten) {
  void* p = mmap(nullptr, length_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, length_, MADV_HUGEPAGE);  // a hint: without it, ordinary pages
  words_ = static_cast<ShadowWord*>(p);
}

ShadowRegion::~ShadowRegion() {
  munmap(words_, length_);
}

}  // namespace warpsim::check

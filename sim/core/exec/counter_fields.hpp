// Statistics structs list their counters once, as member pointers, so that adding up the
// counters of several SMs is written once for all of them and cannot miss a counter.
#pragma once

#include <cstdint>

namespace warpsim::exec {

// The std::uint64_t counters of T, as an array of member pointers; specialised beside T.
template <class T>
inline constexpr auto kCounterFields = nullptr;

// Whether T holds its listed counters and nothing else (so none is left off the list).
template <class T>
constexpr bool all_counters_listed() {
  return sizeof(T) == kCounterFields<T>.size() * sizeof(std::uint64_t);
}

template <class T>
void add_counters(T& total, const T& part) {
  for (auto field : kCounterFields<T>) total.*field += part.*field;
}

}  // namespace warpsim::exec

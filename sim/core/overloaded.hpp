// The usual visitor helper: Overloaded{[](A){...}, [](B){...}} for std::visit.
#pragma once

namespace warpsim {

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
// Needed by compilers without aggregate deduction (clang before 17).
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace warpsim

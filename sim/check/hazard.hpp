// What the hazard checks find, in the spirit of compute-sanitizer's racecheck, synccheck,
// initcheck and memcheck: each hazard once (by kind and the instructions involved), with the
// first occurrence's threads and address and how often it occurred.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::check {

enum class Category : std::uint8_t { Race, Sync, Init, Memory };
inline constexpr std::size_t kCategories = 4;
const char* category_name(Category c);  // "race", "sync", "init", "memory"

// Which checks run.
struct CheckSet {
  std::array<bool, kCategories> on{};
  bool has(Category c) const { return on[static_cast<std::size_t>(c)]; }
};

enum class Space : std::uint8_t { Shared, Global, Local };
const char* space_name(Space s);

// One thread's access or arrival: its block (linear), thread (linear in the block) and the
// instruction (index into the program).
struct ThreadAccess {
  std::uint64_t block = 0;
  std::uint32_t thread = 0;
  std::uint32_t inst = 0;
  bool write = false;
  bool atomic = false;
  const ir::Instruction* source = nullptr;  // the IR instruction (in the checked module)
};

struct Hazard {
  Category category = Category::Race;
  std::string kind;   // RAW, WAR, WAW; divergent barrier; partial member mask; uninitialised read
  std::string scope;  // races: between blocks, between warps, within a warp, within an instruction
  bool error = true;  // false: a warning (code that relies on a warp's lockstep, and the like)
  Space space = Space::Shared;
  std::uint64_t address = 0;  // global: the address; shared and local: the offset
  std::string where;          // the array or buffer element, e.g. tile[3][5]
  ThreadAccess earlier;       // races: the access it conflicts with
  ThreadAccess access;        // the access (or arrival) found
  std::string detail;
  std::uint64_t count = 1;  // occurrences with the same kind and instructions
};

struct HazardReport {
  std::vector<Hazard> hazards;  // each once, in the order first found
  std::array<std::uint64_t, kCategories> occurrences{};
  std::uint64_t errors() const {
    std::uint64_t n = 0;
    for (const Hazard& h : hazards) n += h.error ? 1 : 0;
    return n;
  }
};

}  // namespace warpsim::check

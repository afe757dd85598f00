// `warpsim banks`: the bank map of one warp's access to a shaped shared array, without writing
// a kernel. E.g. --array 'f32[32][32]' --index '[lane][0]' is a 32-way conflict;
// --array 'f32[32][33]' makes it conflict-free.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <regex>

#include "sim/core/exec/launch.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/memory/shared_banks.hpp"
#include "tools/warpsim/bank_picture.hpp"
#include "tools/warpsim/cli.hpp"
#include "tools/warpsim/commands.hpp"
#include "tools/warpsim/index_expression.hpp"
#include "tools/warpsim/launch_options.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

struct ArrayShape {
  ir::ScalarType element = ir::ScalarType::F32;
  std::vector<std::uint64_t> dims;
};

std::optional<ArrayShape> parse_array(const std::string& text) {
  static const std::regex whole(R"(^\s*([a-z0-9]+)\s*((\[\s*[0-9]+\s*\]\s*)+)$)");
  std::smatch m;
  if (!std::regex_match(text, m, whole)) return std::nullopt;
  const auto type = ir::parse_scalar_type(m[1].str());
  if (!type || ir::size_bytes(*type) == 0) return std::nullopt;
  ArrayShape shape{*type, {}};
  static const std::regex dim(R"(\[\s*([0-9]+)\s*\])");
  const std::string dims = m[2].str();
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), dim); it != std::sregex_iterator();
       ++it) {
    const std::string digits = (*it)[1].str();
    if (digits.size() > 9) return std::nullopt;
    const std::uint64_t d = std::stoull(digits);
    if (d == 0) return std::nullopt;
    shape.dims.push_back(d);
  }
  return shape;
}

// User text quoted in a message, shortened when it is long (a pasted expression of pages).
std::string abbreviated(const std::string& text) {
  return text.size() <= 80
             ? text
             : text.substr(0, 60) + "... (" + std::to_string(text.size()) + " characters)";
}

nlohmann::json bank_json(const memory::BankMap& map, const std::string& array,
                         const std::string& index, std::uint64_t warp, unsigned bytes) {
  nlohmann::json slots = nlohmann::json::array();
  for (const memory::BankSlot& s : map.slots) {
    nlohmann::json lanes = nlohmann::json::array();
    for (unsigned l = 0; l < 32; ++l) {
      if (s.lanes >> l & 1u) lanes.push_back(l);
    }
    slots.push_back({{"bank", s.bank},
                     {"word", s.word},
                     {"phase", s.phase},
                     {"wavefront", s.wavefront},
                     {"lanes", lanes}});
  }
  return {{"array", array},
          {"index", index},
          {"warp", warp},
          {"access_bytes", bytes},
          {"phases", map.phases},
          {"wavefronts", map.wavefronts},
          {"passes", map.passes},
          {"ideal_wavefronts", map.passes},
          {"bank_conflicts", map.wavefronts - map.passes},
          {"conflict_degree", std::max(1u, map.max_words_per_bank)},
          {"slots", slots}};
}

int fail(std::ostream& err, const std::string& message) {
  err << "warpsim banks: error: " << message << '\n';
  return kExitBadInput;
}

po::options_description banks_options() {
  po::options_description desc("options");
  desc.add_options()("array", po::value<std::string>(),
                     "element type and shape, e.g. 'f32[32][33]' (padding included)")(
      "index", po::value<std::string>(),
      (std::string("index expression per lane, e.g. '[lane][0]', '[tid.x][tid.y]' or the "
                   "swizzle '[row][col ^ row]'; variables ") +
       kIndexVariables + "; operators " + kIndexOperators + " (C's precedence)")
          .c_str())("block", po::value<std::string>()->default_value("32"),
                    "block dimensions x[,y[,z]], for tid")(
      "warp", count_value(0, 31)->default_value(0), "which warp of the block")(
      "vector", count_value(1, 4)->default_value(1),
      "elements per lane: 1, 2 or 4 (a 64- or 128-bit vector access)")(
      "access", po::value<std::string>()->default_value("load"),
      "what the lanes do: load, store, atomic (add, min, max, exch: every lane served apart), "
      "cas (twice that), or increment (a reduction adding the constant 1)")(
      "svg", po::value<std::string>(), "also draw the bank map as SVG to this file")(
      "json", po::value<std::string>(),
      "also write the result as JSON to this file (-: to standard output, the text then on "
      "standard error)");
  return desc;
}

// Each lane's byte offset in the array, and the lanes the block has; an error naming the lane
// whose index is outside the array or misaligned, else "".
std::string lane_offsets(const ArrayShape& shape, const IndexExpression& index,
                         const ir::Dim3& block, std::uint64_t warp, unsigned vector,
                         std::uint64_t* offsets, std::uint32_t& mask) {
  std::string error;
  const unsigned element = ir::size_bytes(shape.element);
  std::uint64_t total = 1;
  for (std::uint64_t d : shape.dims) total *= d;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const std::uint64_t thread = warp * kWarpSize + lane;
    if (thread >= block.count()) break;
    const ir::Dim3 tid = exec::unflatten(thread, block);
    const LaneCoordinates at{lane, static_cast<std::int64_t>(warp),
                             static_cast<std::int64_t>(tid.x), static_cast<std::int64_t>(tid.y),
                             static_cast<std::int64_t>(tid.z)};
    const auto indices = index.evaluate(at, error);
    if (!indices) return fmt::format("lane {}: {}", lane, error);
    std::uint64_t linear = 0;
    for (std::size_t k = 0; k < indices->size(); ++k) {
      const std::int64_t i = (*indices)[k];
      if (i < 0 || static_cast<std::uint64_t>(i) >= shape.dims[k]) {
        return fmt::format("lane {}: index {} is outside dimension {} (size {})", lane, i, k,
                           shape.dims[k]);
      }
      linear = linear * shape.dims[k] + static_cast<std::uint64_t>(i);
    }
    if (linear % vector != 0 || linear + vector > total) {
      return fmt::format(
          "lane {}: a {}-element access at element {} is misaligned or runs past "
          "the array",
          lane, vector, linear);
    }
    offsets[lane] = linear * element;
    mask |= 1u << lane;
  }

  return "";
}

void write_banks_text(std::ostream& text, const memory::BankMap& map, const std::string& array_text,
                      unsigned element, const std::string& index_text, const ir::Dim3& block,
                      std::uint64_t warp, std::uint32_t mask, unsigned bytes) {
  const unsigned conflicts = map.wavefronts - map.passes;
  text << fmt::format("array {} ({}-byte elements), index {}, block ({}, {}, {}), warp {}\n",
                      array_text, element, index_text, block.x, block.y, block.z, warp);
  text << fmt::format("{} active lanes, {}-bit accesses, processed as {} phase{} of {} lanes\n",
                      std::popcount(mask), bytes * 8, map.phases, map.phases == 1 ? "" : "s",
                      kWarpSize / std::max(1u, bytes / 4));
  if (map.passes != map.phases) {
    text << fmt::format("the {} phases merge pairwise into {} passes (lanes share addresses)\n",
                        map.phases, map.passes);
  }
  text << fmt::format("wavefronts {} (ideal {}), bank conflicts {}, conflict degree: {}\n\n",
                      map.wavefronts, map.passes, conflicts,
                      map.max_words_per_bank <= 1 ? std::string("none (conflict-free)")
                                                  : fmt::format("{}-way", map.max_words_per_bank));
  write_bank_grid(text, map);
}

}  // namespace

int run_banks(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const po::options_description desc = banks_options();
  auto cl = parse_command_line("banks --array TYPE[..] --index '[..]'", desc, {}, args, out, err);
  if (!cl) return kExitBadInput;
  if (cl->help) return kExitOk;
  if (!cl->vars.count("array") || !cl->vars.count("index")) {
    return fail(err, "--array and --index are required");
  }
  if (cl->vars.count("svg") &&
      !extension_of(cl->vars["svg"].as<std::string>(), {".svg"}, "banks", "--svg", err)) {
    return kExitBadInput;
  }
  const std::string array_text = cl->vars["array"].as<std::string>();
  const auto shape = parse_array(array_text);
  if (!shape) {
    return fail(err, "--array '" + array_text +
                         "': expected a type (s32, u32, s64, u64, f32, f64) and positive "
                         "dimensions, e.g. f32[32][33]");
  }
  std::string error;
  const std::string index_text = cl->vars["index"].as<std::string>();
  const auto index = IndexExpression::parse(index_text, error);
  if (!index) return fail(err, "--index '" + abbreviated(index_text) + "': " + error);
  if (index->dimensions() != shape->dims.size()) {
    return fail(err, fmt::format("--index has {} indices but the array has {} dimensions",
                                 index->dimensions(), shape->dims.size()));
  }
  const auto block = parse_dim3(cl->vars["block"].as<std::string>());
  if (!block || block->count() == 0 || block->count() > 1024) {
    return fail(err, "--block must be x[,y[,z]] with 1 to 1024 threads");
  }
  const std::uint64_t warp = cl->vars["warp"].as<std::uint64_t>();
  if (warp * kWarpSize >= block->count()) return fail(err, "--warp is outside the block");
  const auto vector = static_cast<unsigned>(cl->vars["vector"].as<std::uint64_t>());
  const unsigned element = ir::size_bytes(shape->element);
  if ((vector != 1 && vector != 2 && vector != 4) || vector * element > 16) {
    return fail(err, "--vector must be 1, 2 or 4, for an access of at most 16 bytes");
  }

  std::uint64_t offsets[kWarpSize] = {};
  std::uint32_t mask = 0;
  if (const std::string why = lane_offsets(*shape, *index, *block, warp, vector, offsets, mask);
      !why.empty())
    return fail(err, why);
  const unsigned bytes = vector * element;
  static const std::pair<const char*, memory::SharedAccess> kAccesses[] = {
      {"load", memory::SharedAccess::Load},
      {"store", memory::SharedAccess::Store},
      {"atomic", memory::SharedAccess::Atomic},
      {"cas", memory::SharedAccess::CompareSwap},
      {"increment", memory::SharedAccess::CountingIncrement}};
  const std::string access_text = cl->vars["access"].as<std::string>();
  const auto* access = std::find_if(std::begin(kAccesses), std::end(kAccesses),
                                    [&](const auto& a) { return access_text == a.first; });
  if (access == std::end(kAccesses)) {
    return fail(
        err, "--access must be load, store, atomic, cas or increment, not '" + access_text + "'");
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (mask >> lane & 1u)
      spdlog::debug("banks: lane {} reads byte offset {}", lane, offsets[lane]);
  }
  const memory::BankMap map = memory::bank_map(offsets, mask, bytes, access->second);
  const unsigned conflicts = map.wavefronts - map.passes;
  const std::string title =
      fmt::format("{} {}, warp {}: {} wavefronts (ideal {}), {} bank conflicts", array_text,
                  index_text, warp, map.wavefronts, map.passes, conflicts);
  const bool json_to_stdout = cl->vars.count("json") && cl->vars["json"].as<std::string>() == "-";
  std::ostream& text = json_to_stdout ? err : out;
  write_banks_text(text, map, array_text, element, index_text, *block, warp, mask, bytes);
  if (cl->vars.count("json")) {
    const nlohmann::json j = bank_json(map, array_text, index_text, warp, bytes);
    if (json_to_stdout) {
      out << j.dump(2) << '\n';
    } else {
      std::ofstream file(cl->vars["json"].as<std::string>());
      file << j.dump(2) << '\n';
      if (!file) return fail(err, "cannot write the JSON file");
    }
  }
  if (cl->vars.count("svg")) {
    std::ofstream svg(cl->vars["svg"].as<std::string>());
    write_bank_svg(svg, map, title);
    if (!svg) return fail(err, "cannot write the SVG file");
  }
  return kExitOk;
}

}  // namespace warpsim::cli

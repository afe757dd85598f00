#include "tools/warpsim/activity_options.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <ostream>

#include "tools/warpsim/timeline_picture.hpp"

namespace warpsim::cli {
namespace {

namespace po = boost::program_options;

std::optional<std::uint32_t> sm_number(std::string_view text, std::uint32_t sm_count) {
  std::uint32_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v >= sm_count) return std::nullopt;
  return v;
}

// "all", or a comma-separated list of SMs and ranges ("0,4-7").
std::optional<std::vector<std::uint32_t>> parse_sm_list(const std::string& text,
                                                        std::uint32_t sm_count) {
  std::vector<std::uint32_t> sms;
  if (text == "all") {
    for (std::uint32_t s = 0; s < sm_count; ++s) sms.push_back(s);
    return sms;
  }
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const std::size_t dash = item.find('-');
    const auto first = sm_number(item.substr(0, dash), sm_count);
    const auto last =
        dash == std::string_view::npos ? first : sm_number(item.substr(dash + 1), sm_count);
    if (!first || !last || *last < *first) return std::nullopt;
    for (std::uint32_t s = *first; s <= *last; ++s) sms.push_back(s);
  }
  std::sort(sms.begin(), sms.end());
  sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
  if (sms.empty()) return std::nullopt;
  return sms;
}

}  // namespace

std::vector<std::uint32_t> ActivityRequest::recorded_sms() const {
  std::vector<std::uint32_t> sms;
  if (trace) sms = trace_sms;
  if (timeline) sms.push_back(timeline_sm);
  std::sort(sms.begin(), sms.end());
  sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
  return sms;
}

void add_activity_options(po::options_description& desc) {
  desc.add_options()("timeline", po::value<std::string>(),
                     "timing: write one SM's blocks and per-warp states over time to this .svg "
                     "or .html file")("timeline-sm", count_value(0, 4095)->default_value(0),
                                      "timing: which SM the timeline shows")(
      "trace", po::value<std::string>(),
      "timing: write a trace of the SMs' blocks, warp states and counters to this .json file "
      "(Chrome trace events: open in Perfetto or chrome://tracing)")(
      "trace-sms", po::value<std::string>()->default_value("all"),
      "timing: the SMs the trace shows: all, or a list such as 0,4-7")(
      "trace-tracks", po::value<std::string>()->default_value("warp"),
      "timing: warp (a track per warp, of its states) or block (block slots only: smaller)");
}

std::optional<ActivityRequest> activity_request(const CommandLine& cl, bool timing,
                                                std::uint32_t sm_count, std::ostream& err) {
  ActivityRequest r;
  const po::variables_map& v = cl.vars;
  if (v.count("timeline")) {
    r.timeline = v["timeline"].as<std::string>();
    if (!extension_of(*r.timeline, {".svg", ".html"}, "run", "--timeline", err))
      return std::nullopt;
  }
  if (v.count("trace")) {
    r.trace = v["trace"].as<std::string>();
    if (!extension_of(*r.trace, {".json"}, "run", "--trace", err)) return std::nullopt;
  }
  const bool trace_details = !v["trace-sms"].defaulted() || !v["trace-tracks"].defaulted();
  if (!timing && (r.any() || trace_details || !v["timeline-sm"].defaulted())) {
    err << "warpsim run: error: --timeline, --trace and their options need --mode timing\n";
    return std::nullopt;
  }
  if (trace_details && !r.trace) {
    err << "warpsim run: error: --trace-sms and --trace-tracks need --trace FILE.json\n";
    return std::nullopt;
  }
  if (!timing) return r;
  if (v["timeline-sm"].as<std::uint64_t>() >= sm_count) {
    err << "warpsim run: error: --timeline-sm must be below the GPU's " << sm_count << " SMs\n";
    return std::nullopt;
  }
  r.timeline_sm = static_cast<std::uint32_t>(v["timeline-sm"].as<std::uint64_t>());
  const auto sms = parse_sm_list(v["trace-sms"].as<std::string>(), sm_count);
  if (!sms) {
    err << "warpsim run: error: --trace-sms '" << v["trace-sms"].as<std::string>()
        << "': expected all, or SMs and ranges below " << sm_count << " such as 0,4-7\n";
    return std::nullopt;
  }
  r.trace_sms = *sms;
  const std::string tracks = v["trace-tracks"].as<std::string>();
  if (tracks != "warp" && tracks != "block") {
    err << "warpsim run: error: --trace-tracks must be warp or block, not '" << tracks << "'\n";
    return std::nullopt;
  }
  r.tracks = tracks == "warp" ? TraceTracks::Warps : TraceTracks::Blocks;
  return r;
}

bool write_activity(const ActivityRequest& request, const scheduler::TimingStats& t,
                    const std::string& kernel, std::ostream& err) {
  if (request.timeline) {
    const auto sm = std::find_if(t.activity.begin(), t.activity.end(),
                                 [&](const auto& a) { return a.sm == request.timeline_sm; });
    std::ofstream picture(*request.timeline);
    if (sm != t.activity.end()) {
      picture << timeline_picture(t, *sm, kernel, request.timeline->ends_with(".html"));
    }
    if (!picture) {
      err << "warpsim run: error: cannot write '" << *request.timeline << "'\n";
      return false;
    }
  }
  if (request.trace) {
    std::ofstream trace(*request.trace);
    write_trace(trace, t, kernel, request.tracks, request.trace_sms);
    if (!trace) {
      err << "warpsim run: error: cannot write '" << *request.trace << "'\n";
      return false;
    }
  }
  return true;
}

}  // namespace warpsim::cli

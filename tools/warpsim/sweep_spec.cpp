#include "tools/warpsim/sweep_spec.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace warpsim::cli {
namespace {

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const std::size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

std::optional<SweepSpec> read_sweep_spec(const std::string& path, std::ostream& err) {
  std::ifstream in(path);
  if (!in) {
    err << "warpsim sweep: error: cannot read the spec '" << path << "'\n";
    return std::nullopt;
  }
  SweepSpec spec;
  spec.path = path;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::string section, line;
  bool ok = true;
  auto fail = [&](int n, const std::string& what) {
    err << fmt::format("{}:{}: error: {}\n", path, n, what);
    ok = false;
  };
  for (int n = 1; std::getline(in, line); ++n) {
    const std::size_t hash = line.find('#');
    const std::string text = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (text.empty()) continue;
    if (text.front() == '[') {
      section = text.back() == ']' ? trim(text.substr(1, text.size() - 2)) : "";
      if (section != "sweep" && section != "axes") {
        fail(n, "unknown section '" + text + "' (expected [sweep] or [axes])");
      }
      continue;
    }
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || section.empty()) {
      fail(n, section.empty() ? "a key before any section" : "expected key = value");
      continue;
    }
    const std::string key = trim(text.substr(0, eq)), value = trim(text.substr(eq + 1));
    if (section == "axes") {
      if (key.find('.') == std::string::npos) {
        fail(n,
             "an axis is a config key as section.name (e.g. timing.scheduler), not '" + key + "'");
      }
      SweepAxis axis{key, split_list(value, ',')};
      if (axis.values.empty()) fail(n, "axis '" + key + "' has no values");
      spec.axes.push_back(std::move(axis));
    } else if (key == "mode") {
      if (value != "timing" && value != "functional") fail(n, "mode must be timing or functional");
      spec.mode = value;
    } else if (key == "kernels") {
      for (const std::string& k : split_list(value, ',')) {
        const std::size_t at = k.find('@');
        const std::string file = at == std::string::npos ? k : k.substr(0, at);
        const std::filesystem::path resolved =
            std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : folder / file;
        if (!std::filesystem::is_regular_file(resolved)) fail(n, "no kernel file '" + file + "'");
        spec.kernels.push_back({resolved.string(), at == std::string::npos ? "" : k.substr(at + 1),
                                std::filesystem::path(k).filename().string()});
      }
    } else if (key == "configs") {
      for (const std::string& c : split_list(value, ',')) {
        const bool file = c.find('/') != std::string::npos || c.ends_with(".ini");
        spec.configs.push_back(
            file && std::filesystem::path(c).is_relative() ? (folder / c).string() : c);
      }
    } else if (key == "run") {
      spec.run_options = split_words(value);
    } else if (key == "metric") {
      spec.metric = value;
    } else if (key == "points") {
      if (value != "product" && value != "listed") fail(n, "points must be product or listed");
      spec.listed = value == "listed";
    } else {
      fail(n, "unknown key '" + key + "' in [sweep] (mode, kernels, configs, run, metric, points)");
    }
  }
  if (ok && spec.kernels.empty()) {
    err << path << ": error: the spec names no kernels ([sweep] kernels = FILE, ...)\n";
    ok = false;
  }
  if (spec.configs.empty()) spec.configs.emplace_back("h200");
  if (ok && spec.listed) {
    for (const SweepAxis& a : spec.axes) {
      if (a.values.size() != spec.axes.front().values.size()) {
        err << path
            << ": error: points = listed takes the axes side by side, so each needs as "
               "many values as the first ('"
            << spec.axes.front().key << "' has " << spec.axes.front().values.size() << ", '"
            << a.key << "' " << a.values.size() << ")\n";
        ok = false;
        break;
      }
    }
  }
  if (!ok) return std::nullopt;
  return spec;
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  std::vector<SweepPoint> points;
  std::vector<std::vector<std::string>> combos;
  if (spec.listed) {
    const std::size_t n = spec.axes.empty() ? 1 : spec.axes.front().values.size();
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::string> v;
      for (const SweepAxis& a : spec.axes) v.push_back(a.values[i]);
      combos.push_back(std::move(v));
    }
  } else {
    combos.emplace_back();
    for (const SweepAxis& a : spec.axes) {
      std::vector<std::vector<std::string>> next;
      for (const auto& c : combos) {
        for (const std::string& v : a.values) {
          next.push_back(c);
          next.back().push_back(v);
        }
      }
      combos = std::move(next);
    }
  }
  for (const SweepKernel& k : spec.kernels) {
    for (const std::string& config : spec.configs) {
      for (const auto& values : combos) {
        points.push_back({points.size(), &k, config, values});
      }
    }
  }
  return points;
}

std::vector<std::string> point_arguments(const SweepSpec& spec, const SweepPoint& p,
                                         const std::string& json) {
  std::vector<std::string> args = {"run",     p.kernel->file, "--mode",
                                   spec.mode, "--config",     p.config};
  if (!p.kernel->launch.empty()) {
    args.emplace_back("--launch");
    args.push_back(p.kernel->launch);
  }
  for (std::size_t k = 0; k < spec.axes.size(); ++k) {
    args.emplace_back("--set");
    args.push_back(spec.axes[k].key + "=" + p.values[k]);
  }
  if (spec.mode == "timing") {
    args.emplace_back("--threads");  // one per point: the sweep runs points side by side
    args.emplace_back("1");
  }
  args.insert(args.end(), spec.run_options.begin(), spec.run_options.end());
  args.emplace_back("--json");
  args.push_back(json);
  return args;
}

std::string default_metric(const SweepSpec& spec) {
  if (!spec.metric.empty()) return spec.metric;
  return spec.mode == "timing" ? "gpc__cycles_elapsed.max" : "smsp__inst_executed.sum";
}

}  // namespace warpsim::cli

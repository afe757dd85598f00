#include "tools/warpsim/sweep_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>

#include "tools/warpsim/picture_style.hpp"
#include "tools/warpsim/sweep_runner.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string value_text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// Tol's bright and muted colours: distinct for colour-blind readers, one per line.
constexpr const char* kSeries[] = {"#4477AA", "#EE6677", "#228833", "#CCBB44",
                                   "#66CCEE", "#AA3377", "#332288", "#EE7733",
                                   "#882255", "#999933", "#44AA99", "#BBBBBB"};

}  // namespace

std::size_t SweepTable::missing() const {
  return static_cast<std::size_t>(std::count_if(
      rows.begin(), rows.end(), [](const SweepRow& r) { return r.status == "missing"; }));
}
std::size_t SweepTable::failed() const {
  return static_cast<std::size_t>(std::count_if(
      rows.begin(), rows.end(), [](const SweepRow& r) { return r.status == "failed"; }));
}

SweepTable gather_results(const std::vector<SweepPoint>& points, const std::string& out) {
  SweepTable table;
  std::set<std::string> names;
  for (const SweepPoint& p : points) {
    SweepRow row;
    row.point = &p;
    const std::string stem = point_stem(out, p.index);
    std::ifstream json(stem + ".json");
    if (json) {
      const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
      row.status = j.is_discarded() || !j.contains("metrics") ? "failed" : "ok";
      if (row.status == "ok") {
        for (const auto& m : j["metrics"].items()) {
          row.metrics[m.key()] = m.value();
          names.insert(m.key());
        }
      }
    } else {
      row.status = fs::exists(stem + ".err") ? "failed" : "missing";
    }
    table.rows.push_back(std::move(row));
  }
  table.metric_names.assign(names.begin(), names.end());
  return table;
}

void write_results_csv(std::ostream& csv, const SweepSpec& spec, const SweepTable& table) {
  csv << "point,kernel,launch,config";
  for (const SweepAxis& a : spec.axes) csv << ',' << csv_field(a.key);
  csv << ",status";
  for (const std::string& m : table.metric_names) csv << ',' << csv_field(m);
  csv << '\n';
  for (const SweepRow& r : table.rows) {
    const SweepPoint& p = *r.point;
    csv << p.index << ',' << csv_field(p.kernel->label) << ',' << csv_field(p.kernel->launch) << ','
        << csv_field(p.config);
    for (const std::string& v : p.values) csv << ',' << csv_field(v);
    csv << ',' << r.status;
    for (const std::string& m : table.metric_names) {
      const auto it = r.metrics.find(m);
      csv << ',' << (it == r.metrics.end() ? "" : csv_field(value_text(it->second)));
    }
    csv << '\n';
  }
}

std::vector<std::string> write_axis_plots(const SweepSpec& spec, const SweepTable& table,
                                          const std::string& out) {
  std::vector<std::string> written;
  const std::string metric = default_metric(spec);
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const SweepAxis& axis = spec.axes[a];
    // Lines: rows with the same kernel, config and other axes' values, by this axis's value.
    std::map<std::string, std::vector<std::pair<std::size_t, double>>> lines;
    for (const SweepRow& r : table.rows) {
      const auto m = r.metrics.find(metric);
      if (r.status != "ok" || m == r.metrics.end() || !m->second.is_number()) continue;
      std::string name = r.point->kernel->label;
      if (spec.configs.size() > 1) name += " " + r.point->config;
      for (std::size_t k = 0; k < spec.axes.size(); ++k) {
        if (k != a) name += " " + spec.axes[k].key + "=" + r.point->values[k];
      }
      const auto x = static_cast<std::size_t>(
          std::find(axis.values.begin(), axis.values.end(), r.point->values[a]) -
          axis.values.begin());
      lines[name].emplace_back(x, m->second.get<double>());
    }
    constexpr int kW = 900, kH = 420, kLeft = 70, kRight = 330, kTop = 46, kBottom = 56;
    const int plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
    double lo = 1, hi = 1;
    for (auto& [name, pts] : lines) {
      std::sort(pts.begin(), pts.end());
      const double base = pts.front().second;
      for (auto& [x, y] : pts) {
        y = base == 0 ? 1 : y / base;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
    }
    const double pad = std::max(0.05, (hi - lo) * 0.1);
    lo -= pad;
    hi += pad;
    const std::size_t n = axis.values.size();
    auto px = [&](std::size_t x) {
      return kLeft +
             (n <= 1 ? plot_w / 2.0 : static_cast<double>(x) * plot_w / static_cast<double>(n - 1));
    };
    auto py = [&](double y) { return kTop + (hi - y) / (hi - lo) * plot_h; };
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{0}\" height=\"{1}\" "
        "fill=\"white\"/>\n<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2} "
        "against {3}</text>\n<text x=\"8\" y=\"36\">each line relative to its value at {3} = "
        "{4}</text>\n",
        kW, kH, svg_escape(metric), svg_escape(axis.key), svg_escape(axis.values.front()));
    for (int t = 0; t <= 4; ++t) {
      const double y = lo + (hi - lo) * t / 4;
      svg += fmt::format(
          "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/><text "
          "x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:.2f}x</text>\n",
          kLeft, kLeft + plot_w, py(y), kLeft - 6, py(y) + 4, y);
    }
    for (std::size_t x = 0; x < n; ++x) {
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(x),
                         kTop + plot_h + 18, svg_escape(axis.values[x]));
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       kLeft + plot_w / 2, kH - 12, svg_escape(axis.key));
    std::size_t i = 0;
    for (const auto& [name, pts] : lines) {
      if (i == std::size(kSeries)) {
        svg +=
            fmt::format("<text x=\"{}\" y=\"{}\">and {} more lines (results.csv)</text>\n",
                        kLeft + plot_w + 16, kTop + 8 + static_cast<int>(i) * 18, lines.size() - i);
        break;
      }
      std::string d;
      for (const auto& [x, y] : pts)
        d += fmt::format("{}{:.1f},{:.1f} ", d.empty() ? "M" : "L", px(x), py(y));
      svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", d,
                         kSeries[i]);
      for (const auto& [x, y] : pts) {
        svg += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"><title>{}: "
            "{:.3f}x</title></circle>\n",
            px(x), py(y), kSeries[i], svg_escape(name), y);
      }
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{}\"/><text "
          "x=\"{}\" y=\"{}\">{}</text>\n",
          kLeft + plot_w + 16, kTop + 4 + static_cast<int>(i) * 18, kSeries[i], kLeft + plot_w + 34,
          kTop + 8 + static_cast<int>(i) * 18, svg_escape(name));
      ++i;
    }
    svg += "</svg>\n";
    std::string file = axis.key;
    std::replace(file.begin(), file.end(), '.', '_');
    const std::string path = (fs::path(out) / ("plot_" + file + ".svg")).string();
    std::ofstream(path) << svg;
    written.push_back(path);
  }
  return written;
}

}  // namespace warpsim::cli

#include "sim/core/ir/diagnostics.hpp"

#include <algorithm>
#include <ostream>

namespace warpsim::ir {
namespace {

constexpr std::size_t kShownColumns = 120;

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

// One printable character per byte, so the caret stays under the column it marks.
char printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (c == '\t') return ' ';
  return (u >= 0x20 && u < 0x7f) ? c : '?';
}

}  // namespace

Diagnostics::Diagnostics(std::string file, std::string source)
    : file_(std::move(file)), source_(std::move(source)) {}

void Diagnostics::error(SourceLoc loc, std::string message) {
  ++error_count_;
  if (error_count_ > kMaxErrors) return;
  add(Severity::Error, loc, std::move(message));
}
void Diagnostics::warning(SourceLoc loc, std::string message) {
  add(Severity::Warning, loc, std::move(message));
}
void Diagnostics::note(SourceLoc loc, std::string message) {
  add(Severity::Note, loc, std::move(message));
}

std::size_t Diagnostics::warning_count() const {
  return static_cast<std::size_t>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

void Diagnostics::add(Severity severity, SourceLoc loc, std::string message) {
  diagnostics_.push_back(Diagnostic{severity, loc.line, loc.column, std::move(message)});
}

std::string_view Diagnostics::source_line(std::uint32_t line) const {
  const std::string_view src = source_;
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    start = src.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  std::size_t end = src.find('\n', start);
  if (end == std::string_view::npos) end = src.size();
  return src.substr(start, end - start);
}

void Diagnostics::render(std::ostream& out) const {
  std::vector<const Diagnostic*> ordered;
  ordered.reserve(diagnostics_.size());
  for (const Diagnostic& d : diagnostics_) ordered.push_back(&d);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return a->line != b->line ? a->line < b->line : a->column < b->column;
  });
  for (const Diagnostic* d : ordered) {
    if (d->line == 0) {  // about the file as a whole
      out << file_ << ": " << severity_name(d->severity) << ": " << d->message << '\n';
      continue;
    }
    out << file_ << ':' << d->line << ':' << d->column << ": " << severity_name(d->severity) << ": "
        << d->message << '\n';
    const std::string_view text = source_line(d->line);
    // Show a window of the line around the column, so a megabyte-long line prints briefly.
    const std::size_t col = d->column > 0 ? d->column - 1 : 0;
    const std::size_t first = col > kShownColumns / 2 ? col - kShownColumns / 2 : 0;
    const std::string_view shown = text.substr(std::min(first, text.size()), kShownColumns);
    std::string line = "  ";
    for (char c : shown) line += printable(c);
    out << line << '\n' << std::string(2 + col - first, ' ') << "^\n";
  }
  if (error_count_ > kMaxErrors) {
    out << file_ << ": note: " << (error_count_ - kMaxErrors)
        << " more errors not shown (stopped after " << kMaxErrors << ")\n";
  }
}

}  // namespace warpsim::ir

// Located messages about one source file, rendered as
//   file:line:col: error: message
//     the source line
//         ^
// Contract: at most kMaxErrors errors are kept per file; later ones are counted, not stored, so
// a file of junk costs bounded memory and output. Messages are printed in source order.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
};

class Diagnostics {
 public:
  static constexpr std::size_t kMaxErrors = 50;

  // Keeps its own copy of `source`, read only to show the offending line.
  Diagnostics(std::string file, std::string source);

  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  std::size_t error_count() const { return error_count_; }
  std::size_t warning_count() const;
  bool error_limit_reached() const { return error_count_ >= kMaxErrors; }
  const std::vector<Diagnostic>& all() const { return diagnostics_; }
  const std::string& file() const { return file_; }
  const std::string& source() const { return source_; }

  void render(std::ostream& out) const;

 private:
  void add(Severity severity, SourceLoc loc, std::string message);
  std::string_view source_line(std::uint32_t line) const;

  std::string file_;
  std::string source_;
  std::vector<Diagnostic> diagnostics_;
  std::size_t error_count_ = 0;
};

}  // namespace warpsim::ir

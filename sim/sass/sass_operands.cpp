#include "sim/sass/sass_operands.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace warpsim::sass {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::uint64_t> number(std::string_view s) {
  int base = 10;
  if (s.starts_with("0x")) {
    base = 16;
    s.remove_prefix(2);
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// "R12" -> 12, "RZ" -> kZeroReg, for the prefix `p` ("R", "UR", "P", "UP", "B").
std::optional<std::uint8_t> numbered(std::string_view s, std::string_view p, std::uint8_t zero,
                                     std::string_view zero_name) {
  if (!zero_name.empty() && s == zero_name) return zero;
  if (!s.starts_with(p)) return std::nullopt;
  s.remove_prefix(p.size());
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  const auto v = number(s);
  if (!v || *v >= zero) return std::nullopt;
  return static_cast<std::uint8_t>(*v);
}

std::optional<Special> special(std::string_view s) {
  static constexpr std::array<std::pair<std::string_view, Special>, 22> kNames{{
      {"SR_TID.X", Special::TidX},
      {"SR_TID.Y", Special::TidY},
      {"SR_TID.Z", Special::TidZ},
      {"SR_CTAID.X", Special::CtaidX},
      {"SR_CTAID.Y", Special::CtaidY},
      {"SR_CTAID.Z", Special::CtaidZ},
      {"SR_LANEID", Special::LaneId},
      {"SR_CgaCtaId", Special::CgaCtaId},
      {"SR_CLOCKLO", Special::ClockLo},
      {"SR_CLOCKHI", Special::ClockHi},
      {"SR_GLOBALTIMERLO", Special::GlobalTimerLo},
      {"SR_GLOBALTIMERHI", Special::GlobalTimerHi},
      {"SR_LTMASK", Special::LtMask},
      {"SR_LEMASK", Special::LeMask},
      {"SR_EQMASK", Special::EqMask},
      {"SR_GEMASK", Special::GeMask},
      {"SR_GTMASK", Special::GtMask},
      {"SRZ", Special::Zero},
      {"SR_VIRTUALSMID", Special::VirtualSm},
      {"SR_VIRTID", Special::WarpId},
      {"SR_SWINHI", Special::SharedWindowHigh},
      {"SR_TID", Special::TidX},
  }};
  for (const auto& [name, value] : kNames) {
    if (s == name) return value;
  }
  return std::nullopt;
}

// The inside of an address's brackets: "R2.64+0x10", "R5+UR4+-0x80", "R3.X4+UR6", "0x100".
bool parse_address(std::string_view s, Operand& op, std::string& why) {
  op.reg = kNoReg;
  op.ureg = kNoReg;
  std::int64_t offset = 0;
  while (!s.empty()) {
    bool minus = false;
    if (s.front() == '-') {
      minus = true;
      s.remove_prefix(1);
    }
    const std::size_t plus = s.find_first_of("+-");
    std::string_view term = trim(s.substr(0, plus));
    s = plus == std::string_view::npos ? std::string_view{} : s.substr(plus);
    if (s.starts_with("+")) s.remove_prefix(1);
    if (term.empty()) continue;
    if (term.ends_with(".64")) {
      op.wide = true;
      term.remove_suffix(3);
    }
    for (const auto& [suffix, scale] : std::array<std::pair<std::string_view, std::uint8_t>, 3>{
             {{".X4", 4}, {".X8", 8}, {".X16", 16}}}) {
      if (term.ends_with(suffix)) {
        op.scale = scale;
        term.remove_suffix(suffix.size());
      }
    }
    if (const auto r = numbered(term, "R", kZeroReg, "RZ"); r && !minus) {
      op.reg = *r;
    } else if (const auto u = numbered(term, "UR", kZeroUReg, "URZ"); u && !minus) {
      op.ureg = *u;
    } else if (const auto v = number(term)) {
      offset += minus ? -static_cast<std::int64_t>(*v) : static_cast<std::int64_t>(*v);
    } else {
      why = "address term '" + std::string(term) + "'";
      return false;
    }
  }
  op.value = static_cast<std::uint64_t>(offset);
  return true;
}

std::optional<double> real_literal(std::string_view s) {
  std::string_view body = s;
  const bool minus = body.starts_with("-");
  if (minus || body.starts_with("+")) body.remove_prefix(1);
  double v = 0;
  if (body == "INF") {
    v = std::numeric_limits<double>::infinity();
  } else if (body == "QNAN" || body == "NAN") {
    v = std::numeric_limits<double>::quiet_NaN();
  } else {
    const std::string text(body);
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  }
  return minus ? -v : v;
}

}  // namespace

std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  auto flush = [&] {
    std::string piece(trim(current));
    for (std::size_t at; (at = piece.find(".reuse")) != std::string::npos;) piece.erase(at, 6);
    // IMMA's A.ROW and B.COL: the only layout mma.sync's integer shapes have.
    if (piece.ends_with(".ROW") || piece.ends_with(".COL")) piece.resize(piece.size() - 4);
    if (!piece.empty()) out.push_back(std::move(piece));
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // "R14 `(softmax)": RET's return register and the function it returns from.
    if (c == ' ' && depth == 0 && text.substr(i + 1).starts_with("`(")) {
      flush();
      continue;
    }
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return out;
}

std::optional<std::string> target_label(std::string_view text) {
  if (!text.starts_with("`(") || !text.ends_with(")")) return std::nullopt;
  return std::string(text.substr(2, text.size() - 3));
}

std::optional<Operand> parse_operand(std::string_view text, std::string& why) {
  std::string_view s = trim(text);
  Operand op;
  if (s.starts_with("!")) {
    op.negate = true;
    s.remove_prefix(1);
  } else if (s.starts_with("~")) {
    op.invert = true;
    s.remove_prefix(1);
  }
  const bool minus_prefix = s.starts_with("-");
  std::string_view body = minus_prefix ? s.substr(1) : s;
  // |R2| or, of one half, |R7|.H1_H1: the bars close before a part's suffix.
  std::string absolute_body;
  if (const auto close = body.rfind('|');
      body.starts_with("|") && close != std::string_view::npos && close > 1) {
    op.absolute = true;
    absolute_body = std::string(body.substr(1, close - 1)) + std::string(body.substr(close + 1));
    body = absolute_body;
  }
  auto fail = [&](const std::string& what) -> std::optional<Operand> {
    why = what.empty() ? "operand '" + std::string(text) + "'" : what;
    return std::nullopt;
  };
  auto registered = [&](OperandKind kind, std::uint8_t index) -> std::optional<Operand> {
    op.kind = kind;
    op.index = index;
    op.negate = op.negate || minus_prefix;
    return op;
  };
  // One half of a register for both halves of a packed operand: R2.H0_H0, R8.H1_H1 (HADD2.F32
  // reads it as one half); a swizzle of two different halves is not modelled.
  if (body.ends_with(".H0_H0") || body.ends_with(".H1_H1")) {
    op.part_bytes = 2;
    op.part = static_cast<std::uint8_t>(body.back() - '0');
    body.remove_suffix(6);
    if (const auto r = numbered(body, "R", kZeroReg, "RZ")) return registered(OperandKind::Reg, *r);
    return fail("");
  }
  // A byte or half of a register: R5.B1, R2.H0.
  if (body.size() > 3 && body[body.size() - 3] == '.' &&
      (body.ends_with("B0") || body.ends_with("B1") || body.ends_with("B2") ||
       body.ends_with("B3") || body.ends_with("H0") || body.ends_with("H1"))) {
    op.part_bytes = body[body.size() - 2] == 'B' ? 1 : 2;
    op.part = static_cast<std::uint8_t>(body.back() - '0');
    body.remove_suffix(3);
    if (const auto r = numbered(body, "R", kZeroReg, "RZ")) return registered(OperandKind::Reg, *r);
    return fail("");
  }
  if (const auto r = numbered(body, "R", kZeroReg, "RZ")) return registered(OperandKind::Reg, *r);
  if (const auto u = numbered(body, "UR", kZeroUReg, "URZ"))
    return registered(OperandKind::UReg, *u);
  if (body == "PR") return registered(OperandKind::Pred, kPredicateWord);
  if (const auto p = numbered(body, "P", kTruePred, "PT")) return registered(OperandKind::Pred, *p);
  if (const auto p = numbered(body, "UP", kTruePred, "UPT"))
    return registered(OperandKind::UPred, *p);
  if (const auto b = numbered(body, "B", 16, "")) return registered(OperandKind::Barrier, *b);
  if (const auto sr = special(body)) {
    if (minus_prefix) return fail("");
    op.kind = OperandKind::Special;
    op.index = static_cast<std::uint8_t>(*sr);
    return op;
  }
  if (body.starts_with("c[")) {
    const auto close = body.find(']');
    const auto bank = number(body.substr(2, close - 2));
    if (close == std::string_view::npos || !bank || body.substr(close + 1, 1) != "[" ||
        !body.ends_with("]")) {
      return fail("");
    }
    op.kind = OperandKind::Const;
    op.bank = static_cast<std::uint8_t>(*bank);
    if (!parse_address(body.substr(close + 2, body.size() - close - 3), op, why)) return fail(why);
    op.negate = minus_prefix;
    return op;
  }
  if (body.starts_with("desc[") || body.starts_with("[")) {
    op.kind = OperandKind::Mem;
    std::uint8_t desc = kNoReg;
    if (body.starts_with("desc[")) {
      const auto close = body.find(']');
      const auto u = numbered(body.substr(5, close - 5), "UR", kZeroUReg, "URZ");
      if (!u) return fail("");
      desc = *u;
      body.remove_prefix(close + 1);
    }
    if (!body.starts_with("[") || !body.ends_with("]")) return fail("");
    if (!parse_address(body.substr(1, body.size() - 2), op, why)) return fail(why);
    op.bank = desc;  // the descriptor's uniform register (global accesses)
    return op;
  }
  // nvdisasm writes integer immediates in hex and floating-point ones in decimal ("2", "1.5").
  if (const auto v = body.starts_with("0x") ? number(body) : std::nullopt) {
    op.kind = OperandKind::Imm;
    op.value = minus_prefix ? ~*v + 1 : *v;
    return op;
  }
  if (const auto r = real_literal(s)) {
    op.kind = OperandKind::Imm;
    op.is_real = true;
    op.real = *r;
    return op;
  }
  return fail("");
}

}  // namespace warpsim::sass

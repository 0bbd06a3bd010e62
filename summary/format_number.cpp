#include "format_number.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sync_summary {
namespace {

std::string printf_double(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

int decimals_for(double v) {
  const double a = std::abs(v);
  if (a >= 1000) return 0;
  if (a >= 100) return 1;
  if (a >= 10) return 2;
  return 3;
}

}  // namespace

std::string fmt_fixed(double v, int decimals) {
  if (!std::isfinite(v)) return std::isnan(v) ? "-" : (v > 0 ? "inf" : "-inf");
  // std::to_chars: correctly rounded like printf, and many times faster on 100,000 rows.
  char buf[400];
  // Beyond 1e15 no measured time or rate fits a column, and 1e308 would be 309 digits: such a
  // value (crafted input, a division by a tiny baseline) is written as 1.700e+308.
  if (std::abs(v) >= 1e15) {
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 3);
    return std::string(buf, res.ptr);
  }
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  std::string s(buf, res.ptr);
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // no "-0.0"
  return s;
}

std::string fmt_value(double v) {
  return fmt_fixed(v, decimals_for(v));
}

std::string fmt_signed(double v) {
  std::string s = fmt_fixed(v, decimals_for(v));
  if (std::isfinite(v) && s[0] != '-') s.insert(0, "+");
  return s;
}

std::string fmt_percent(double frac) {
  if (!std::isfinite(frac)) return fmt_fixed(frac, 0);
  const double pct = frac * 100.0;
  std::string s = fmt_fixed(pct, std::abs(pct) >= 1000 ? 0 : 1);
  if (s[0] != '-') s.insert(0, "+");
  return s + "%";
}

std::string fmt_speedup(double v) {
  return std::isfinite(v) ? fmt_fixed(v, 2) + "x" : "-";
}

std::string fmt_p(double p) {
  return std::isnan(p) ? "n/a" : fmt_fixed(p, 4);
}

std::string fmt_summary(const Summary& s) {
  if (!s.valid()) return "-";
  std::string out = fmt_value(s.center);
  if (s.n > 1 && std::isfinite(s.cv)) out += " ±" + fmt_fixed(std::abs(s.cv) * 100.0, 1) + "%";
  return out;
}

std::string fmt_axis(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) {
    const long long i = static_cast<long long>(v);
    if (i >= 1048576 && i % 1048576 == 0) return std::to_string(i / 1048576) + "Mi";
    if (i >= 65536 && i % 1024 == 0) return std::to_string(i / 1024) + "Ki";
    return std::to_string(i);
  }
  return printf_double("%g", v);
}

std::string fmt_exact(double v) {
  if (std::isnan(v)) return "";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back
  return std::string(buf, res.ptr);
}

std::string printable(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;  // U+0080..U+009F
    if (c < 0x20 || c == 0x7F || c1) {
      const auto code = c1 ? static_cast<unsigned char>(text[++i]) : c;
      out += "\\x";
      out += hex[code >> 4];
      out += hex[code & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace sync_summary

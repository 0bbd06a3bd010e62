#pragma once
// How numbers are written in tables: fixed notation, digits by magnitude, "-" for no value
// (from 1e15 on, scientific with 3 decimals whatever `decimals` asks: fixed notation would run to
// hundreds of digits).

#include <string>
#include <string_view>

#include "benchmarks.hpp"

namespace sync_summary {

std::string fmt_value(double v);       // 0.123, 1.234, 12.34, 123.4, 1234
std::string fmt_signed(double v);      // +1.234, -12.34
std::string fmt_percent(double frac);  // a fraction as +12.3%
std::string fmt_fixed(double v, int decimals);
std::string fmt_speedup(double v);  // 1.23x
std::string fmt_p(double p);        // 0.0079
// A summary's center, with its CV when it has repetitions: "12.34 ±1.2%".
std::string fmt_summary(const Summary& s);
// An arg value for axis labels: integers plainly, large powers of two as 4Ki / 256Mi.
std::string fmt_axis(double v);
// The same double as text that reads back exactly (for csv).
std::string fmt_exact(double v);

// Text from the input (names, labels, context, messages) made safe for a terminal: C0 and C1
// control characters and DEL as \xNN; everything else, UTF-8 included, unchanged.
std::string printable(std::string_view text);

}  // namespace sync_summary

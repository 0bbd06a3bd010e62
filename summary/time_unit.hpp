#pragma once
// Google Benchmark's time units; everything inside sync_summary is converted to microseconds.

#include <optional>
#include <string_view>

namespace sync_summary {

enum class TimeUnit { ns, us, ms, s };

std::optional<TimeUnit> parse_time_unit(std::string_view text);
std::string_view unit_name(TimeUnit unit);
double to_us(double value, TimeUnit unit);

}  // namespace sync_summary

#include "time_unit.hpp"

namespace sync_summary {

std::optional<TimeUnit> parse_time_unit(std::string_view text) {
  if (text == "ns") return TimeUnit::ns;
  if (text == "us") return TimeUnit::us;
  if (text == "ms") return TimeUnit::ms;
  if (text == "s") return TimeUnit::s;
  return std::nullopt;
}

std::string_view unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::ns:
      return "ns";
    case TimeUnit::us:
      return "us";
    case TimeUnit::ms:
      return "ms";
    case TimeUnit::s:
      return "s";
  }
  return "?";
}

double to_us(double value, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::ns:
      return value * 1e-3;
    case TimeUnit::us:
      return value;
    case TimeUnit::ms:
      return value * 1e3;
    case TimeUnit::s:
      return value * 1e6;
  }
  return value;
}

}  // namespace sync_summary

#include "measure_config.hpp"

#include <cstdio>
#include <cstdlib>

namespace sync_bench {

bool Injection::chosen(const std::string& benchmark) const {
  return kind != Kind::none && (filter.empty() || std::regex_search(benchmark, std::regex(filter)));
}

double Injection::seconds_for(const std::string& benchmark, double step_seconds) const {
  if (kind == Kind::fail || !chosen(benchmark)) return 0.0;
  return percent ? step_seconds * amount / 100.0 : amount * 1e-6;
}

std::string describe(const StoppingRule& rule) {
  char text[128];
  std::snprintf(text, sizeof(text), "min_rounds=%d min_time=%gs max_time=%gs max_noise=%g%%",
                rule.min_rounds, rule.min_seconds, rule.max_seconds, rule.max_noise_pct);
  return text;
}

std::string Injection::describe() const {
  if (kind == Kind::none) return "none";
  if (kind == Kind::fail) return "fail";
  char text[64];
  std::snprintf(text, sizeof(text), "%s +%g%s", kind == Kind::host ? "host" : "gpu", amount,
                percent ? "%" : " us");
  return text;
}

std::optional<Injection> parse_injection(const std::string& text, std::string* error) {
  const std::size_t colon = text.find(':');
  Injection inj;
  if (text == "fail") {
    inj.kind = Injection::Kind::fail;
    return inj;
  }
  const std::string kind = text.substr(0, colon);
  if (kind == "host")
    inj.kind = Injection::Kind::host;
  else if (kind == "gpu")
    inj.kind = Injection::Kind::gpu;
  if (inj.kind == Injection::Kind::none || colon == std::string::npos) {
    *error = "host:<amount>, gpu:<amount> (in us, 1us or 2.5, or %, 10%) or fail";
    return std::nullopt;
  }
  std::string amount = text.substr(colon + 1);
  if (amount.size() > 2 && amount.compare(amount.size() - 2, 2, "us") == 0) {
    amount.resize(amount.size() - 2);
  } else if (!amount.empty() && amount.back() == '%') {
    inj.percent = true;
    amount.pop_back();
  }
  char* end = nullptr;
  inj.amount = std::strtod(amount.c_str(), &end);
  if (amount.empty() || *end != '\0' || !(inj.amount > 0.0) || inj.amount > 1e6) {
    *error = "a positive amount in us (1us, 2.5) or % (10%), not '" + amount + "'";
    return std::nullopt;
  }
  return inj;
}

StoppingRule& stopping_rule() {
  static StoppingRule rule;
  return rule;
}

Injection& injection() {
  static Injection inj;
  return inj;
}

std::string& current_benchmark_name() {
  thread_local std::string name;
  return name;
}

}  // namespace sync_bench

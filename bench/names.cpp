#include "names.hpp"

namespace sync_bench {

std::string bench_name(std::initializer_list<std::string_view> words,
                       std::initializer_list<NameArg> args) {
  std::string name;
  for (std::string_view word : words) {
    if (word.empty()) continue;
    if (!name.empty()) name += '/';
    name += word;
  }
  for (const NameArg& arg : args) {
    name += '/';
    name += arg.key;
    name += ':';
    name += std::to_string(arg.value);
  }
  return name;
}

}  // namespace sync_bench

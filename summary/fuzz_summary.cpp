// libFuzzer target: any bytes through sync_summary's whole pipeline (fuzz_target.hpp). Built and
// run by scripts/fuzz_summary.sh with clang++ -fsanitize=fuzzer,address,undefined; not part of
// the CMake build (it needs clang's libFuzzer).

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sync_summary::fuzz_one_input(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}

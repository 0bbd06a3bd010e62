# Sourced by run.sh and test.sh: installs what is missing (Debian packages), skips what is present,
# then configures and builds sync_bench. The GPU machine has everything and can install nothing.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

have_header() {  # have_header <header>: can the C++ compiler include it?
  echo "#include <$1>" | c++ -std=c++17 -E -x c++ - >/dev/null 2>&1
}

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
if command -v c++ >/dev/null 2>&1; then
  have_header benchmark/benchmark.h || missing+=(libbenchmark-dev)
  have_header gtest/gtest.h || missing+=(libgtest-dev)
  have_header nlohmann/json.hpp || missing+=(nlohmann-json3-dev)
else  # no compiler to ask: the libraries come with it
  missing+=(g++ libbenchmark-dev libgtest-dev nlohmann-json3-dev)
fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: missing ${missing[*]} and no apt-get to install them" >&2
    exit 2
  fi
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: the CUDA toolkit (nvcc) is required and cannot be installed by this script" >&2
  exit 2
fi
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"

# Configure where there is no build yet, where an earlier configure failed (a cache and no build
# file), or where CMAKE_ARGS asks for settings (a cache keeps the old ones otherwise). The generator
# is chosen once: CMake refuses another on an existing cache.
generator=()
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
fi
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || [ -n "${CMAKE_ARGS:-}" ] ||
  { [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; }; then
  cmake -S "$ROOT" -B "$BUILD_DIR" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR" -j "$(nproc)"

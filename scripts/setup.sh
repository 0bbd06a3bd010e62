# shellcheck shell=bash
# Sourced by run.sh and test.sh: installs what is missing (Debian packages), skips what is present,
# then configures and builds sync_bench. The GPU machine has everything and can install nothing.
# The CUDA toolkit must be there already: nvcc on PATH, or in $CUDA_HOME/bin (default
# /usr/local/cuda/bin). A sourcing script may name more packages it needs in SETUP_PACKAGES (only
# those it found missing): they are installed with the rest.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

# First what no package here can give: nothing is installed for a build that cannot be made.
cuda_bin="${CUDA_HOME:-/usr/local/cuda}/bin"
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "$cuda_bin/nvcc" ]; then
  echo "setup: the CUDA toolkit (nvcc) is required and cannot be installed by this script" \
    "(not on PATH nor in $cuda_bin)" >&2
  exit 2
fi
command -v nvcc >/dev/null 2>&1 || export PATH="$cuda_bin:$PATH"

have_header() {  # have_header <header>: can the C++ compiler include it?
  echo "#include <$1>" | c++ -std=c++17 -E -x c++ - >/dev/null 2>&1
}

# shellcheck disable=SC2206  # SETUP_PACKAGES is a list of package names, split on spaces
missing=(${SETUP_PACKAGES:-})
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
  # Through env: sudo resets the environment, and a variable set before it would not reach apt-get.
  { $SUDO apt-get update -qq &&
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
    { echo "setup: could not install ${missing[*]} (above)" >&2; exit 2; }
fi

# The distribution's cmake may be older than CMakeLists.txt's minimum (Ubuntu 22.04's is 3.22):
# say so here rather than in a failed configure. A version it cannot read is left to configure.
cmake_min="$(sed -nE 's/^cmake_minimum_required\(VERSION ([0-9]+(\.[0-9]+)*).*/\1/p' \
  "$ROOT/CMakeLists.txt")"
cmake_have="$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9][0-9.]*\).*/\1/p')" ||
  cmake_have=''
if [ -n "$cmake_min" ] && [ -n "$cmake_have" ] &&
  [ "$(printf '%s\n' "$cmake_min" "$cmake_have" | sort -V | head -1)" != "$cmake_min" ]; then
  echo "setup: CMake $cmake_min or newer is required (CMakeLists.txt), $(command -v cmake) is" \
    "$cmake_have. Get a newer one with \`pip install cmake\` (its cmake first on PATH) or from" \
    "Kitware's apt repository (https://apt.kitware.com)" >&2
  exit 2
fi

# Configure where there is no build yet, where an earlier configure failed (a cache and no build
# file), or where CMAKE_ARGS asks for settings (a cache keeps the old ones otherwise). The generator
# is chosen once: CMake refuses another on an existing cache.
generator=()
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
fi
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || [ -n "${CMAKE_ARGS:-}" ] ||
  { [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; }; then
  # shellcheck disable=SC2086  # CMAKE_ARGS is several arguments, split on spaces
  cmake -S "$ROOT" -B "$BUILD_DIR" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_ARGS:-} || { echo "setup: configuring $BUILD_DIR failed (above)" >&2; exit 3; }
fi
# Exit 3, not the build tool's own status (make's 2, ninja's 1): run.sh's 1 and 2 are sync_bench's.
# Ctrl-C or a TERM reaches the build tool too, which exits as from a failure: 130 or 143 instead.
setup_interrupted=0
trap 'setup_interrupted=130' INT
trap 'setup_interrupted=143' TERM
setup_build_status=0
cmake --build "$BUILD_DIR" -j "$(nproc)" || setup_build_status=$?
trap - INT TERM
if [ $setup_interrupted -ne 0 ]; then
  echo "setup: building $BUILD_DIR interrupted" >&2
  exit $setup_interrupted
fi
[ $setup_build_status -eq 0 ] || { echo "setup: building $BUILD_DIR failed (above)" >&2; exit 3; }

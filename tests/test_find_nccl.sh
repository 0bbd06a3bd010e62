#!/usr/bin/env bash
# cmake/FindNCCL.cmake on made-up installs, no GPU and no real NCCL needed: the Python packages'
# NCCL is found through the Python it asks (here a stand-in script), NCCL_ROOT comes first, and a
# place with a header but no library is passed over rather than mixed with another place's library.
#
#   tests/test_find_nccl.sh SOURCE_DIR
set -uo pipefail
src="${1:?usage: test_find_nccl.sh SOURCE_DIR}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# make_nccl DIR VERSION [nolib]: a fake NCCL install (nccl.h with its version, libnccl.so.2).
make_nccl() {
  mkdir -p "$1/include" "$1/lib"
  local major minor patch
  IFS=. read -r major minor patch <<<"$2"
  printf '#define NCCL_MAJOR %s\n#define NCCL_MINOR %s\n#define NCCL_PATCH %s\n' \
    "$major" "$minor" "$patch" > "$1/include/nccl.h"
  [ "${3:-}" = nolib ] || : > "$1/lib/libnccl.so.2"
}
# A Python whose nvidia.nccl package lives in $work/site/nvidia/nccl.
python="$work/python3"
printf '#!/bin/sh\necho "%s"\n' "$work/site/nvidia/nccl" > "$python"
chmod +x "$python"

# probe NAME EXPECTED_LIBRARY EXPECTED_VERSION [cmake args...]
probe() {
  local name="$1" want_lib="$2" want_version="$3"
  shift 3
  local out
  out="$(cmake -S "$src/tests/find_nccl" -B "$work/build-$name" -DNCCL_PYTHON="$python" "$@" 2>&1)"
  local lib version
  lib="$(sed -n 's/^-- probe: library=//p' <<<"$out")"
  version="$(sed -n 's/^-- probe: found=TRUE version=//p' <<<"$out")"
  if [ "$lib" = "$want_lib" ] && [ "$version" = "$want_version" ]; then
    echo "ok: $name"
  else
    echo "FAILED: $name: library '$lib' version '$version', expected '$want_lib' '$want_version'"
    while IFS= read -r line; do echo "    $line"; done <<<"$out"
    failures=$((failures + 1))
  fi
}

make_nccl "$work/site/nvidia/nccl" 2.28.3
probe python_package "$work/site/nvidia/nccl/lib/libnccl.so.2" 2.28.3

make_nccl "$work/root" 2.27.7
probe nccl_root_first "$work/root/lib/libnccl.so.2" 2.27.7 -DNCCL_ROOT="$work/root"
NCCL_ROOT="$work/root" probe nccl_root_from_environment "$work/root/lib/libnccl.so.2" 2.27.7

make_nccl "$work/headers_only" 2.26.1 nolib
probe header_without_library_passed_over "$work/site/nvidia/nccl/lib/libnccl.so.2" 2.28.3 \
  -DNCCL_ROOT="$work/headers_only"

[ $failures -eq 0 ] || exit 1

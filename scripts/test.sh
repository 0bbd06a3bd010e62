#!/usr/bin/env bash
# Builds sync_bench and runs every test. Tests labelled `gpu` skip, saying why, where there is no
# GPU. Extra arguments go to ctest (e.g. -LE gpu for the CPU subset).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure "$@"

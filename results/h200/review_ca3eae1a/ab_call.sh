#!/usr/bin/env bash
# One device call: the session's tree built and tested (scripts/test.sh on a fresh copy, no build
# folder), and Alloc's paired overhead in alternating processes of the tree before this session
# (ce597b5, old_src.tar: the baseline read no clock) and of this tree (the baseline reads the clock
# as a pattern's step does). Everything under OUT; the last lines a summary.
#   ab_call.sh OUT [PROCESSES]
set -uo pipefail
out="$1"; k="${2:-5}"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
src="$(pwd)"
work=/tmp/ab; rm -rf "$work"; mkdir -p "$work/runs"
t0=$(date +%s)
# Old sync_bench (only its benchmarks: the tests are not part of the A/B).
mkdir -p "$work/old" && tar -xf "$src/old_src.tar" -C "$work/old"
{ cmake -S "$work/old" -B "$work/old/build" -DCMAKE_BUILD_TYPE=Release -DSYNC_BENCH_BUILD_TESTS=OFF &&
  cmake --build "$work/old/build" -j16 --target sync_bench; } >"$work/old_build.log" 2>&1 ||
  echo "old build failed"
# This tree, on a fresh copy, as a new user runs the test command (it builds too).
mkdir -p "$work/new" && cp -r "$src"/. "$work/new/" && rm -rf "$work/new/build" "$work/new/old_src.tar"
(cd "$work/new" && timeout 420 scripts/test.sh) >"$work/test.txt" 2>&1
test_rc=$?
t1=$(date +%s)
old="$work/old/build/bench/sync_bench" new="$work/new/build/bench/sync_bench"
for i in $(seq 1 "$k"); do
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    "$bin" --benchmark_filter='^Alloc/' --benchmark_out="$work/runs/$side-$i.json" \
      --benchmark_out_format=json >"$work/runs/$side-$i.log" 2>&1 || echo "$side-$i failed"
  done
done
t2=$(date +%s)
summary="$work/new/build/summary/sync_summary"
for side in old new; do
  "$summary" merge --output="$out/alloc_$side.json" "$work/runs/$side"-*.json >/dev/null 2>&1 ||
    echo "merge $side failed"
done
"$summary" compare "$out/alloc_old.json" "$out/alloc_new.json" --gate=all >"$out/alloc_compare.txt" 2>&1
cp "$work/test.txt" "$out/test.txt"
tar -czf "$out/logs.tar.gz" -C "$work" runs old_build.log test.txt 2>/dev/null
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader >"$out/gpu.txt"
{
  echo "gpu: $(cat "$out/gpu.txt")"
  echo "test.sh: exit $test_rc, $((t1 - t0)) s with the builds; $(grep -E 'tests passed|tests failed' "$work/test.txt" | tail -1)"
  grep -E '^fidelity: ' "$work/test.txt" | head -3
  echo "A/B: $k processes a side, $((t2 - t1)) s"
  for side in old new; do
    python3 - "$out/alloc_$side.json" "$side" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
rows = {}
for b in d["benchmarks"]:
    if b.get("run_type") != "iteration" or "overhead_us" not in b: continue
    rows.setdefault(b["run_name"].replace("/manual_time", ""), []).append(b["overhead_us"])
for name, v in rows.items():
    print(f"{sys.argv[2]} {name}: overhead median {statistics.median(v):.3f} us, {min(v):.3f}-{max(v):.3f}")
PY
  done
} | tee "$out/summary.txt"

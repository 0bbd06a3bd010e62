#!/usr/bin/env bash
# One device call on a machine with two or more GPUs (2026-11-27): the MultiGpu family on the
# present code, which last ran on two GPUs on 2026-11-23 (results/h200x2/), before SyncAll was
# paired, CrossDevice's baseline changed and DataParallel's batches became whole periods.
#   results/two_gpus/call.sh OUT [test|notest] [SETTINGS]
# Run from the repository root with results/ moved aside. `test` (the default) runs
# scripts/test.sh on a fresh copy first; then test_gpu_multigpu in 3 more processes; then
# for each of SETTINGS (default: "default", sync_bench's default pair; else --devices values, e.g.
# "default all"), PROCESSES (default 6) fresh sync_bench processes of '^MultiGpu/' at 0.5 s a
# benchmark, merged (merged-SETTING.json), with sync_summary's report of the merge. FILTER and
# MIN_TIME replace the filter and the 0.5 s (call 5: DataParallel alone at 2 s).
# Calls 1 and 2 ran an earlier form of this script that had one setting, the default, and wrote
# merged.json and report.txt and json/multigpu-N.json.
set -uo pipefail
OUT="$1"
RUN_TEST="${2:-test}"
DEVICES="${3:-default}"
PROCESSES=${PROCESSES:-6}
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
t() { echo "[$(($(date +%s) - start))s] $*"; }
summary="$OUT/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
W=/tmp/w
rm -rf "$W" && mkdir -p "$W/logs" "$W/json"
nvidia-smi --query-gpu=index,name,uuid,driver_version --format=csv,noheader | tee "$summary"
nvidia-smi topo -m >"$W/logs/topo.txt" 2>&1
grep -E '^GPU[0-9]' "$W/logs/topo.txt" | tee -a "$summary"
tar --exclude=./build --exclude=./results -cf - . | (mkdir -p "$W/tree" && cd "$W/tree" && tar xf -)
cd "$W/tree" || exit 1
if [ "$RUN_TEST" = test ]; then
  t "test.sh"
  scripts/test.sh >"$W/logs/test.log" 2>&1
  note "test.sh exit $?: $(grep -E 'tests passed|tests failed' "$W/logs/test.log")"
  note "  multigpu in ctest: $(grep -E 'test_gpu_multigpu' "$W/logs/test.log" | grep -E 'Passed|Failed|Skipped|Not Run' | tr -s ' ')"
else
  t "build"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$W/logs/build.log" 2>&1 &&
    cmake --build build -j"$(nproc)" >>"$W/logs/build.log" 2>&1
  note "build exit $?; $(grep -iE 'NCCL' "$W/logs/build.log" | head -2 | tr '\n' ' ')"
fi
[ -x build/bench/sync_bench ] || { note "no sync_bench built"; (cd "$W" && tar czf "$OUT/logs.tar.gz" logs); exit 1; }
for i in 1 2 3; do
  build/tests/test_gpu_multigpu >"$W/logs/multigpu-test-$i.log" 2>&1
  rc=$?
  note "test_gpu_multigpu process $i: exit $rc, $(grep -cE '^\[       OK \]' "$W/logs/multigpu-test-$i.log") ok, $(grep -cE '^\[  SKIPPED \]' "$W/logs/multigpu-test-$i.log") skipped, $(grep -cE '^\[  FAILED  \]' "$W/logs/multigpu-test-$i.log") failed lines"
done
t "measure"
for setting in ${DEVICES:-default}; do
  args=(--benchmark_filter="${FILTER:-^MultiGpu/}" --benchmark_min_time="${MIN_TIME:-0.5}")
  [ "$setting" != default ] && args+=(--devices="$setting")
  for r in $(seq 1 "$PROCESSES"); do
    s=$(date +%s)
    build/bench/sync_bench "${args[@]}" --benchmark_out="$W/json/$setting-$r.json" \
      --benchmark_out_format=json >"$W/logs/$setting-$r.txt" 2>&1
    note "sync_bench --devices=$setting process $r: exit $?, $(($(date +%s) - s)) s"
  done
  build/summary/sync_summary merge --output="$OUT/merged-$setting.json" "$W"/json/"$setting"-*.json >"$W/logs/merge-$setting.log" 2>&1 || cat "$W/logs/merge-$setting.log"
  build/summary/sync_summary report "$OUT/merged-$setting.json" >"$OUT/report-$setting.txt" 2>&1
done
# One line a benchmark a process: paired overhead (or GB/s), for the table.
for f in "$W"/json/*.json; do
  python3 - "$f" <<'PY' 2>/dev/null || jq -r '.benchmarks[] | select(.run_type=="iteration") | [.name, .real_time, .overhead_us, .bytes_per_second] | @tsv' "$f"
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    if b.get("run_type") != "iteration": continue
    n = b["name"].replace("/manual_time", "")
    v = [f"{b.get('real_time', 0):.2f}us"]
    if "overhead_us" in b: v.append(f"+{b['overhead_us']:.2f}")
    if "bytes_per_second" in b: v.append(f"{b['bytes_per_second'] * 1e-9:.1f}GB/s")
    if b.get("error_occurred") or b.get("skipped"): v.append("SKIP/ERR " + (b.get("skip_message") or b.get("error_message", ""))[:60])
    print(sys.argv[1].rsplit("/", 1)[1], n, " ".join(v))
PY
done >"$W/logs/rows.txt"
(cd "$W" && tar czf "$OUT/logs.tar.gz" logs json)
t "done"
note "total $(($(date +%s) - start)) s"
grep -E "CrossDevice|SyncAll|DataParallel|bytes:268" "$W/logs/rows.txt" | grep -v SKIP | sort -k2,2 -k1,1 | tail -70

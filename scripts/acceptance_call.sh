#!/usr/bin/env bash
# One device call's share of the runs that decide whether sync_bench's numbers reproduce on a GPU
# machine (issue 8's "done" list); scripts/acceptance.sh judges the folders of several calls.
# Run it on the GPU machine from the repository root. The parts run one after the other, on a fresh
# copy of the tree (no build folder, no .git, no results/) that the last `test` part made and
# built (or, with no `test` part before, one built for them):
#   test      scripts/test.sh on a new fresh copy (the build the later parts use)
#   fidelity  test_fidelity alone again (ctest), on the last build
#   gate      scripts/gate_runs.sh: clean, host1us, host10, gpu10 (PROCESSES processes each)
#   headline  NullKernel and SmallGemm fp16 n=512 Async/DeviceSync in HEADLINE_PROCESSES processes
#   headline_long  the same, each benchmark measured for 2 s of timed steps (--benchmark_min_time=2,
#             as the README says to quote a number)
#   biggemm   BigGemm DeviceSync n=8192, every dtype, in BIGGEMM_PROCESSES processes, each benchmark
#             measured for 2 s: the default rule stops a millisecond step after 8 rounds, whose
#             per-round differences lay up to 6% of the step apart (p25 to p75) on an H100, loose
#             for a 3% criterion (results/h100/longer/). Each DeviceSync row carries its paired
#             Async baseline, so no Async row is run.
#   sweep     scripts/run.sh (build, default sweep, report), then --benchmark_filter=SmallGemm
#   anatomy   scripts/run.sh --anatomy=on: the default sweep with the step anatomy's passes, timed
#
#   scripts/acceptance_call.sh OUT [PART...]
#   (default: test headline headline_long biggemm fidelity fidelity)
# The gate takes a call of its own (acceptance_call.sh OUT gate): at its default 20 processes a
# run, gate_runs.sh took 317-384 s on four H100s, 349-432 s with the build.
#
# A part repeats as often as it is named. A part that would not end within BUDGET_S seconds of the
# start (default 570: a device call may run 600) is skipped, and says so; each part also runs under
# a timeout of what is left, so the call ends in time and keeps what it measured. OUT gets at most
# 8 files (what a device call brings back): summary.txt (one line per part, what acceptance.sh
# reads), clean/host1us/host10/gpu10.json, headline.json, headline_long.json (each the merge of
# its processes) and logs.tar.gz (every log and process JSON, biggemm.json, the sweeps' JSON).
#
# Environment: BUDGET_S, PROCESSES (default 20, as scripts/ci_regress.sh's),
# HEADLINE_PROCESSES (6), BIGGEMM_PROCESSES (2), ACCEPTANCE_WORK (the work folder, emptied first;
# default /tmp/acceptance).
# Exit status: 0 every part ran and passed, 1 some part failed or was skipped, 2 bad arguments.
set -uo pipefail
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
bad() {
  echo "acceptance_call.sh: $*" >&2
  usage >&2
  exit 2
}
case "${1:-}" in -h | --help) usage; exit 0 ;; '' | -*) bad "missing OUT" ;; esac
out="$1"
shift
parts=("$@")
[ ${#parts[@]} -ge 1 ] || parts=(test headline headline_long biggemm fidelity fidelity)
for p in "${parts[@]}"; do
  case "$p" in test | fidelity | gate | headline | headline_long | biggemm | sweep | anatomy) ;;
    *) bad "unknown part '$p' (test, fidelity, gate, headline, headline_long, biggemm, sweep or anatomy)" ;;
  esac
done
budget="${BUDGET_S:-570}"
processes="${PROCESSES:-20}"
headline_processes="${HEADLINE_PROCESSES:-6}"
biggemm_processes="${BIGGEMM_PROCESSES:-2}"
for v in "$budget" "$processes" "$headline_processes" "$biggemm_processes"; do
  case "$v" in '' | *[!0-9]* | 0*) bad "BUDGET_S and the process counts must be whole numbers from 1, got '$v'" ;; esac
done
mkdir -p "$out" || bad "cannot make OUT '$out'"
out="$(realpath -- "$out")"  # links resolved, as for the work folder below
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${ACCEPTANCE_WORK:-/tmp/acceptance}"
# The work folder is emptied first: OUT inside it (or it inside OUT) would go with it.
work_abs="$(realpath -m -- "$work")"
case "$out/" in "$work_abs"/*) bad "OUT ($out) is inside the work folder $work_abs, which is emptied" ;; esac
case "$work_abs/" in "$out"/*) bad "the work folder $work_abs is inside OUT ($out)" ;; esac
{ rm -rf "${work:?}" && mkdir -p "$work/logs"; } || bad "cannot make the work folder '$work'"
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH

start=$(date +%s)
status=0
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $(($(date +%s) - start)); }
# What each part took on H200s, with some margin: a part starts only if it would end within the
# budget. Over results/h200/acceptance6/ and acceptance7/: test 179-203 s, test_fidelity alone
# 66-68 s, gate 143-155 s (10 processes), headline_long 52-53 s (6), biggemm 22-23 s (3), sweep
# 116 s, the build alone 34-38 s. On an H100, biggemm measured 2 s a benchmark: 21-22 s a process
# (results/h100/longer/); test took 207-246 s and test_fidelity alone 65-74 s over four H100 hosts
# (results/h100/acceptance7/, acceptance8/), and 224-259 s and 77-81 s on a fifth; the gate took
# 132-192 s (10 processes) over the H100 calls to 2026-11-27, the slowest on that fifth host
# (results/h100/lead_in_final/), and 317-384 s with 20 on four H100s
# (results/h100/gate_p20_f0463d7e/, gate_p20_eb86bf1f/, gate_p20_334ed542/, gate_p20_0634182d/).
estimate() {
  case "$1" in
    test) echo 250 ;; fidelity) echo 75 ;; gate) echo $((20 * processes)) ;;
    headline) echo $((3 * headline_processes)) ;;
    headline_long) echo $((10 * headline_processes)) ;;
    biggemm) echo $((30 * biggemm_processes)) ;; sweep) echo 130 ;; build) echo 50 ;;
    anatomy) echo 210 ;;  # 154 s on an H100, already built (results/h100/acceptance3/call4)
  esac
}
left() { echo $((budget - $(elapsed))); }

tree=''
fresh_copy() {  # a new copy of the tree, as a fresh clone has it
  tree="$work/tree$(date +%s%N)"
  mkdir -p "$tree" &&
    (cd "$src" && tar cf - --exclude='./build*' --exclude=./.git --exclude=./results .) |
    (cd "$tree" && tar xf -)
}
built() { [ -n "$tree" ] && [ -x "$tree/build/bench/sync_bench" ] && [ -x "$tree/build/summary/sync_summary" ]; }

test_runs=0
fidelity_runs=0
run_part() {
  local part="$1" t0 rc line
  t0=$(date +%s)
  case "$part" in
    test)
      test_runs=$((test_runs + 1))
      fresh_copy || { note "test.sh $test_runs: exit 1, could not copy the tree"; return 1; }
      (cd "$tree" && BUILD_DIR="$tree/build" timeout "$(left)" bash scripts/test.sh) \
        >"$work/logs/test$test_runs.txt" 2>&1
      rc=$?
      note "test.sh $test_runs: exit $rc, $(($(date +%s) - t0)) s," \
        "$(grep -o '[0-9]*% tests passed.*' "$work/logs/test$test_runs.txt" | tail -1)"
      line="$(grep -E 'Test +#[0-9]+: test_fidelity ' "$work/logs/test$test_runs.txt" | tail -1)"
      fidelity_runs=$((fidelity_runs + 1))
      note "test_fidelity $fidelity_runs (in test.sh $test_runs): $(fidelity_verdict "$line")"
      return $rc
      ;;
    fidelity)
      fidelity_runs=$((fidelity_runs + 1))
      # --verbose: the verdicts' lines (medians, intervals, rounds taken) in the log, passed or not.
      timeout "$(left)" ctest --test-dir "$tree/build" -R '^test_fidelity$' --verbose \
        >"$work/logs/fidelity$fidelity_runs.txt" 2>&1
      rc=$?
      line="$(fidelity_verdict "$(grep -E 'Test +#[0-9]+: test_fidelity ' \
        "$work/logs/fidelity$fidelity_runs.txt" | tail -1)")"
      note "test_fidelity $fidelity_runs (alone): $line, exit $rc"
      [ $rc -eq 0 ] && [[ "$line" == Passed* ]]
      return
      ;;
    gate)
      # The count given, not left to ci_regress.sh's default: the note below says what ran.
      (cd "$tree" && PROCESSES="$processes" timeout "$(left)" scripts/gate_runs.sh "$work/gate") \
        >"$work/logs/gate_runs.log" 2>&1
      rc=$?
      cp "$work"/gate/*.json "$out/" 2>/dev/null
      cp "$work"/gate/*.log "$work/logs/" 2>/dev/null
      # A failed run keeps its processes' logs and JSON (NAME.json.d), which its log points to.
      cp -r "$work"/gate/*.json.d "$work/logs/" 2>/dev/null
      note "gate_runs.sh: exit $rc, $(($(date +%s) - t0)) s, PROCESSES=$processes," \
        "runs: $(for f in "$work"/gate/*.json; do [ -e "$f" ] && printf '%s ' "${f##*/}"; done)"
      return $rc
      ;;
    headline | headline_long | biggemm)
      local k filter merged="$out/$part.json" flags=()
      case "$part" in
        headline*)
          k="$headline_processes"
          filter='^(NullKernel/(Async|DeviceSync)|SmallGemm/(Async|DeviceSync)/fp16/cublas/n:512)/'
          [ "$part" = headline_long ] && flags=(--benchmark_min_time=2)
          ;;
        biggemm)
          k="$biggemm_processes"
          filter='^BigGemm/DeviceSync/[^/]+/[^/]+/n:8192/'
          flags=(--benchmark_min_time=2)
          merged="$work/logs/biggemm.json"  # acceptance.sh reads the processes, in the logs
          ;;
      esac
      rm -rf "${work:?}/$part"
      SYNC_BENCH="$tree/build/bench/sync_bench" timeout "$(left)" \
        "$tree/scripts/processes.sh" "$k" "$work/$part" --benchmark_filter="$filter" "${flags[@]}" \
        >"$work/logs/$part.log" 2>&1
      rc=$?
      mkdir -p "$work/logs/$part" && cp "$work/$part"/run-* "$work/logs/$part/" 2>/dev/null
      # A process the budget's timeout cut off left a JSON cut short, which merge refuses: the
      # complete ones (salvage's exit 3) are merged, and the others said (kept in the logs).
      local complete=() cut=0 f
      for f in "$work/$part"/run-*.json; do
        [ -e "$f" ] || continue
        "$tree/build/summary/sync_summary" salvage "$f" --output="$f.salvaged" >/dev/null 2>&1
        if [ $? -eq 3 ]; then
          complete+=("$f")
        else
          # Kept in the logs, but not as a process acceptance.sh reads (run-*.json).
          cut=$((cut + 1))
          mv "$work/logs/$part/${f##*/}" "$work/logs/$part/${f##*/}.partial" 2>/dev/null
        fi
        rm -f "$f.salvaged"
      done
      "$tree/build/summary/sync_summary" merge --output="$merged" ${complete[@]+"${complete[@]}"} \
        >>"$work/logs/$part.log" 2>&1 || { [ $rc -ne 0 ] || rc=1; }
      local left_out=""
      [ $cut -eq 0 ] || left_out=" ($cut cut short, left out of the merge)"
      note "$part: exit $rc, $k processes, $(($(date +%s) - t0)) s$left_out"
      return $rc
      ;;
    sweep)
      (cd "$tree" && BUILD_DIR="$tree/build" OUT_JSON="$work/logs/sweep.json" \
        timeout "$(left)" bash scripts/run.sh) >"$work/logs/sweep.txt" 2>&1
      rc=$?
      note "sweep: run.sh exit $rc, $(($(date +%s) - t0)) s"
      local t1 rest
      t1=$(date +%s)
      rest=$(left)
      # run.sh may have used the budget up: `timeout 0` would not limit the run at all, and a
      # negative time fails (exit 125).
      if [ "$rest" -lt 1 ]; then
        note "skipped smallgemm: $rest s left of the budget after run.sh" |
          tee "$work/logs/smallgemm.txt"
        return 1
      fi
      timeout "$rest" "$tree/build/bench/sync_bench" --benchmark_filter=SmallGemm \
        --benchmark_out="$work/logs/smallgemm.json" --benchmark_out_format=json \
        >"$work/logs/smallgemm.txt" 2>&1
      local rc2=$?
      note "smallgemm: exit $rc2, $(($(date +%s) - t1)) s"
      [ $rc -eq 0 ] && [ $rc2 -eq 0 ]
      return
      ;;
    anatomy)
      (cd "$tree" && BUILD_DIR="$tree/build" OUT_JSON="$work/logs/anatomy_sweep.json" \
        timeout "$(left)" bash scripts/run.sh --anatomy=on) >"$work/logs/anatomy_sweep.txt" 2>&1
      rc=$?
      note "anatomy sweep: run.sh --anatomy=on exit $rc, $(($(date +%s) - t0)) s"
      return $rc
      ;;
  esac
}
# fidelity_verdict CTEST_LINE: "Passed 62.6 sec", "Failed ...", or what was missing.
fidelity_verdict() {
  local v
  v="$(sed -E 's/.*test_fidelity \.*[ *]*//; s/ +/ /g' <<<"$1")"
  [ -n "$1" ] && echo "$v" || echo "no result (test_fidelity did not run)"
}

note "acceptance_call.sh: parts: ${parts[*]}; budget ${budget} s"
note "gpu: $(nvidia-smi -L 2>&1 | head -1)"
# The copy here has no .git: the source fingerprint names the build (scripts/source_hash.sh REV).
note "source: $(SOURCE_ROOT="$src" "$src/scripts/source_hash.sh" 2>/dev/null ||
  echo "unknown (scripts/source_hash.sh failed)")"
# The tests and scripts are outside it: the tree fingerprint names what test.sh ran.
note "tree: $(SOURCE_ROOT="$src" "$src/scripts/source_hash.sh" --tree 2>/dev/null ||
  echo "unknown (scripts/source_hash.sh --tree failed)")"
for part in "${parts[@]}"; do
  need=$(estimate "$part")
  [ "$part" != test ] && ! built && need=$((need + $(estimate build)))
  if [ "$need" -gt "$(left)" ]; then
    note "skipped $part: $(left) s left of the budget, it needs about $need"
    status=1
    continue
  fi
  if [ "$part" != test ] && ! built; then  # the later parts' build, when no test part made one
    if ! { fresh_copy && (cd "$tree" && BUILD_DIR="$tree/build" bash scripts/setup.sh); } \
      >"$work/logs/build.txt" 2>&1; then
      note "build: failed (logs.tar.gz: build.txt)"
      status=1
      break
    fi
  fi
  run_part "$part" || status=1
done
note "acceptance_call.sh: exit $status, $(elapsed) s"
(cd "$work/logs" && tar czf "$out/logs.tar.gz" .)
exit $status

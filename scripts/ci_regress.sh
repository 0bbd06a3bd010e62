#!/usr/bin/env bash
# The CI regression gate: runs sync_bench as PROCESSES fresh processes, merges them into one run
# whose repetitions are the processes (sync_summary merge), and compares it with a stored baseline
# made the same way. The gate is on what reproduces (sync_summary compare --help): paired overheads
# and GPU-bound times, against the noise measured between processes. Prints the comparison as a
# markdown table and fails on a regression.
#
#   scripts/ci_regress.sh BASE.json [sync_bench flags...]
#   scripts/ci_regress.sh --make-baseline BASE.json [sync_bench flags...]
#   scripts/ci_regress.sh --add-to-baseline BASE.json [sync_bench flags...]
#
# --make-baseline writes BASE.json from this machine's processes alone. --add-to-baseline merges
# this machine's processes into BASE.json (creating it), for a baseline from several CI runners:
# run it once on each; it says how many GPUs BASE.json then holds. A run that does not merge
# (other GPU model, driver, CPU model, wait mode, --devices or benchmark set) leaves BASE.json as
# it was.
#
# Without --benchmark_filter among the flags, the default gated set runs: a few benchmarks of every
# family, chosen so that each family has gated rows (43 benchmarks, ~4 s a process on an H200).
# Left out: Overlap/DoubleBuffer (how its two streams interleave moved its time by 8% between two
# H100 machines, beyond what its processes show: a false alarm in results/h100/gate/), the
# EventSync/blocking rows (an OS wake-up, bimodal from one set of processes to the next: 17-27 us
# in all 10 processes of one run, 40-46 us in 8 of 10 of the next, minutes apart on one H200,
# results/h200/gate/call1), and SmallGemm/BulkRead/pageable (512 KiB staged through the host's
# memory: its overhead was 70-86 us on six H200 machines and 94 us on a seventh, 22% of the step,
# a false alarm in results/h200/gate/call8 against call4), and NullKernel's Print and ScalarRead
# rows: a 10-15 us step that is mostly host work (formatting, the copy's return), so the host's
# speed, which differs between machines, is more than 5% of it. Each raised a false alarm against
# call4's machine, the slowest host of fourteen (NullKernel/Async 4.87 us against 3.45-4.70;
# Print: call11 against call4; ScalarRead pageable and pinned: call12 against call4). Also left
# out, after a false alarm between H200 machines in results/h200/acceptance2/: TrainLoop/
# ItemEveryStep at n=512 (a race the host's speed sets: 7.5-9.7 us in all 10 processes of one call,
# 12.5-15.2 in 7 of 10 of the next on the same GPU). And after results/h200/acceptance4/call1's
# machine, whose host was the slowest of 38 H200 calls (SmallGemm/Async 14 us a step, 7-12
# elsewhere): SmallGemm's Print and ScalarRead/pageable (a pageable read that cost 13-14 us there
# and 16.7-19.5 on every other machine, a race like ItemEveryStep's: 65 false alarms with that run
# as BASE in results/h200/gate_pool/) and HostCopy/H2D/pinned (the DMA reads the host's memory: 328
# us there and on acceptance2/call3's, 310-315 on 36 others, 29 false alarms). SmallGemm's
# ScalarRead/pinned and BulkRead/pinned stay, and HostCopy's D2H. SpinKernel's DeviceSync and
# ScalarRead/pinned after a 10 us spin are back (they left after acceptance2: their GPU-bound Async
# baseline said nothing of the host's speed, and the overhead moved 19% between machines): between
# machines compare now host-adjusts them on baseline_host_us, and on four H200s
# (results/h200/spin10/) they moved at most 0.19 us between machines, against limits of 1.0-2.0 us.
# BigGemm's Async step at bf16 n=4096 left too: a GEMM that keeps the GPU at its power limit runs as
# fast as that GPU's silicon, 168.9 us a step on spin10/call1's machine and 177.7-178.7 on four
# others (+5.2-5.8%, over the 5% between machines; results/h200/gate_pool/); BigGemm's paired syncs,
# whose overhead the GEMM's speed does not enter, stay. GraphReplay of 100 null kernels left after
# three calls on one H200 (results/h200/acceptance8/): each process lands in one of two speeds
# 2.2-2.5% apart (66.8 or 68.3 us a step there, 70.6 or 72.3 on another H200), 5 of 10 processes
# of one call in the fast one and 2 of 10 of the next, so the median moved 2.0% between calls, over
# the 2% that holds on one GPU; its 10 null kernels and the GEMM graphs stay. DataDependent's
# DeviceSized step at 8M elements left after two calls on one H100 (results/h100/acceptance/): its
# GPU time itself (gpu_busy_us) moved 1.8% between the calls, and its median 2.1%, more than the
# 2.3-2.7% spread of its 10 processes in a call allows for a median; over 18 H200 calls its call
# medians spanned 2.3%. Its 64M step (0.5%) stays, and its 1M step, host-bound and never gated,
# went with it. Of the lagged reads, TrainLoop/LaggedItem at n=512 is in, after seven calls on seven
# H200s (results/h200/lagged_gate/): its step is the host's (the GPU's 23-25 us under the host's
# 35-55), its overhead 3.8-4.9 us in every call, no false alarm in 42 ordered pairs of calls, +10%
# host caught in each of 4. Left out: LaggedItem at n=1024, where host and GPU take about as long
# (38-40 us of GPU a step, 36-56 of host): its overhead read 8.8 us in a call whose host was the
# faster, 5.2-5.7 elsewhere, and 5.6 then 9.0 in two runs 20 s apart on one machine; the
# LaggedRead rows after a GEMM the GPU sets (BigGemm, SpinKernel at 1000 us), whose queued step
# hides a host cost (+10% host moved them -3.6% to +14.2%: caught in 0 of 3 calls); SmallGemm's,
# which let +1 us and +10% host through in 1 of 3 calls (+0.28 and +0.86 us against limits of 0.88
# and 0.93); NullKernel's, whose processes fell in two groups in 2 of 3 calls, and SpinKernel's
# after 10 us, too noisy between processes to gate in 2 of 3. The reads handed over by a kernel
# (LaggedRead/mapped, TrainLoop/LaggedItem/mapped) are out after two calls of gate runs on two
# H200s (results/h200/mapped_gate/): no false alarm, and the host-paced rows (the null kernel's,
# SmallGemm's, TrainLoop's) caught +10% host in both; but two calls make two ordered pairs, against
# the 42 that admitted LaggedItem n=512, and neither had a slow host. After BigGemm and a 1000 us
# spin a host cost hides behind the queued step, as for the copied read. Make the baseline with the
# same flags as the runs it gates.
#
# CI runners that are different machines: --add-to-baseline on each of 5 or more of them (or make
# a baseline on each and sync_summary merge --output=BASE.json base-*.json). compare then measures,
# row by row, how much the machines differ, instead of assuming --machine-threshold (sync_summary
# compare --help).
#
# Environment:
#   SYNC_BENCH     the sync_bench binary          (default $BUILD_DIR/bench/sync_bench)
#   SYNC_SUMMARY   the sync_summary binary        (default $BUILD_DIR/summary/sync_summary;
#                  BUILD_DIR: default the repository's build/)
#   PROCESSES      sync_bench processes to merge  (default 20: the host's speed differs from one
#                  process to the next. With 5 a side the gate caught 88-91% of the injected +1 us
#                  on the H100, with 10, 95.6% (86 of 90 over 9 calls on 5 H100s). With 20 it
#                  caught 117 of 119 in 12 calls on four H100s, and 50 of 50 in five pairs of
#                  those 10-process calls merged, each pair from one machine; no false alarm in
#                  either: results/h100/gate_p20_f0463d7e/, gate_p20_eb86bf1f/,
#                  gate_p20_334ed542/, gate_p20_0634182d/)
#   OUT            where the merged new run goes  (default sync_bench_ci.json; runs in OUT.d/;
#                  not BASE.json, refused)
#   THRESHOLD, MACHINE_THRESHOLD, MIN_EFFECT_US, NOISE_K, ALPHA, MAX_NOISE, HOST_ADJUST,
#   WAIT_ADJUST, GATE, FILTER
#                  sync_summary compare's --threshold, --machine-threshold, --min-effect-us,
#                  --noise-k, --alpha, --max-noise, --host-adjust, --wait-adjust, --gate, --filter
#                  (unset: compare's own defaults; between two GPUs its threshold is 5%, on one 2%)
#
# Exit status: 0 no regression (or baseline written), 1 regression, 2 bad input, sync_bench
# failed, or nothing gated. The sweep's own output goes to OUT.d/, so stdout is the markdown table
# alone (append it to $GITHUB_STEP_SUMMARY, a merge-request note, ...).
set -uo pipefail

# NullKernel: the plain syncs and ScalarReadIdle (after the pattern, no name part that starts with
# b: not EventSync/blocking); SmallGemm: the syncs, ScalarReadIdle and the pinned reads; BigGemm:
# the syncs; SpinKernel: Async, DeviceSync and ScalarRead/pinned at the shortest and the longest
# wait; HostCopy: D2H; TrainLoop: Async, the reads every 100 steps, ItemEveryStep at n=1024 and
# LaggedItem at n=512.
# Google Benchmark's filter is a POSIX extended regex: no look-ahead.
DEFAULT_FILTER='^(NullKernel/(Async|DeviceSync|StreamSync|EventSync|ScalarReadIdle)(/[^b]|$)|SmallGemm/(Async|DeviceSync|StreamSync|EventSync|ScalarReadIdle|ScalarRead/pinned|BulkRead/pinned)/fp16/cublas/n:512/|BigGemm/(DeviceSync|ScalarRead/pinned)/bf16/cublas/n:4096/|SpinKernel/(Async|DeviceSync|ScalarRead/pinned)/us:(10|1000)/|HostCopy/D2H/pinned/memcpy_async/bytes:16777216/|Overlap/(Serial|PageableBlocking)/bytes:16777216/|GraphReplay/Replay/(null_kernel/k:10?/|fp16/)|DataDependent/DeviceSized/elements:67108864/|Alloc/(Async|MallocAsyncPool)/bytes:67108864/|SyncEvery/StreamSync/.*/k:(1|16)/|MultiStream/LegacyMemcpy/|TrainLoop/((Async|ReadEveryN|GraphReadEveryN)/|ItemEveryStep/bf16/cublas/n:1024/|LaggedItem/bf16/cublas/n:512/))'

usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  usage
  [ $# -ge 1 ] && exit 0 || exit 2
fi
make_baseline=0
add_to_baseline=0
case "$1" in
  --make-baseline) make_baseline=1 ;;
  --add-to-baseline) add_to_baseline=1 ;;
esac
if [ $make_baseline -eq 1 ] || [ $add_to_baseline -eq 1 ]; then
  shift
  [ $# -ge 1 ] || { usage >&2; exit 2; }
fi
base="$1"
shift
build_dir="${BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build}"
bench="${SYNC_BENCH:-$build_dir/bench/sync_bench}"
summary="${SYNC_SUMMARY:-$build_dir/summary/sync_summary}"
out="${OUT:-sync_bench_ci.json}"
[ $make_baseline -eq 1 ] && out="$base"
[ $add_to_baseline -eq 1 ] && out="$base.new.json"
processes="${PROCESSES:-20}"
# The new run is written to OUT before the comparison reads BASE: the same file would be
# overwritten, and compared with itself.
if [ $make_baseline -eq 0 ] && [ "$(realpath -m -- "$out")" = "$(realpath -m -- "$base")" ]; then
  echo "ci_regress.sh: OUT ($out) is the baseline $base: set OUT to another file" >&2
  exit 2
fi

for tool in "$bench" "$summary"; do
  if [ ! -x "$tool" ]; then
    echo "ci_regress.sh: $tool not found or not executable (build first, or set SYNC_BENCH /" \
      "SYNC_SUMMARY)" >&2
    exit 2
  fi
done
if [ $make_baseline -eq 0 ] && [ $add_to_baseline -eq 0 ] && [ ! -r "$base" ]; then
  echo "ci_regress.sh: cannot read baseline $base (make one with --make-baseline)" >&2
  exit 2
fi
case "$processes" in '' | *[!0-9]* | 0*)
  echo "ci_regress.sh: PROCESSES must be a positive number, got '$processes'" >&2
  exit 2
  ;;
esac
filter=(--benchmark_filter="$DEFAULT_FILTER")
for arg in "$@"; do
  case "$arg" in --benchmark_filter=* | --benchmark_filter) filter=() ;; esac
done

runs="$out.d"
rm -rf "$runs"
mkdir -p "$runs" || exit 2
# An earlier call's OUT is not this run's: gone before the runs, so a failed run leaves none.
[ $make_baseline -eq 0 ] && rm -f "$out"
files=()
for i in $(seq 1 "$processes"); do
  "$bench" "${filter[@]}" --benchmark_out="$runs/run-$i.json" --benchmark_out_format=json "$@" \
    >"$runs/run-$i.log" 2>&1
  status=$?
  if [ $status -ge 2 ] || [ ! -s "$runs/run-$i.json" ]; then
    echo "ci_regress.sh: $bench failed (exit $status); see $runs/run-$i.log:" >&2
    tail -3 "$runs/run-$i.log" >&2
    exit 2
  fi
  # Exit 1 (a benchmark failed) keeps the JSON: the comparison reports it as a regression.
  files+=("$runs/run-$i.json")
done
"$summary" merge --output="$out" "${files[@]}" || exit 2
if [ $make_baseline -eq 1 ]; then
  echo "ci_regress.sh: baseline of $processes processes written to $base" >&2
  exit 0
fi
if [ $add_to_baseline -eq 1 ]; then
  if [ ! -e "$base" ]; then
    mv "$out" "$base" || exit 2
    echo "ci_regress.sh: baseline of $processes processes written to $base (add more runners" \
      "to it)" >&2
    exit 0
  fi
  # Into a new file first: a refused merge must not cost the baseline what it holds.
  if ! "$summary" merge --output="$base.merged.json" "$base" "$out"; then
    rm -f "$base.merged.json"
    echo "ci_regress.sh: $base left as it was; this machine's run is in $out" >&2
    exit 2
  fi
  mv "$base.merged.json" "$base" && rm -f "$out" || exit 2
  # merge said above how many GPUs the baseline now holds.
  echo "ci_regress.sh: $processes processes added to $base (compare measures how machines" \
    "differ once it holds 5 GPUs with 3 or more processes each)" >&2
  exit 0
fi

compare=(compare --format=markdown --gate="${GATE:-reproducible}")
[ -n "${THRESHOLD:-}" ] && compare+=(--threshold="$THRESHOLD")
[ -n "${MIN_EFFECT_US:-}" ] && compare+=(--min-effect-us="$MIN_EFFECT_US")
[ -n "${NOISE_K:-}" ] && compare+=(--noise-k="$NOISE_K")
[ -n "${ALPHA:-}" ] && compare+=(--alpha="$ALPHA")
[ -n "${MACHINE_THRESHOLD:-}" ] && compare+=(--machine-threshold="$MACHINE_THRESHOLD")
[ -n "${MAX_NOISE:-}" ] && compare+=(--max-noise="$MAX_NOISE")
[ -n "${HOST_ADJUST:-}" ] && compare+=(--host-adjust="$HOST_ADJUST")
[ -n "${WAIT_ADJUST:-}" ] && compare+=(--wait-adjust="$WAIT_ADJUST")
[ -n "${FILTER:-}" ] && compare+=(--filter="$FILTER")
"$summary" "${compare[@]}" "$base" "$out"
status=$?
case $status in
  0) echo "ci_regress.sh: no regression against $base" >&2 ;;
  1) echo "ci_regress.sh: REGRESSION against $base (new run kept in $out)" >&2 ;;
  *) echo "ci_regress.sh: sync_summary could not compare $base and $out" >&2 ;;
esac
exit $status

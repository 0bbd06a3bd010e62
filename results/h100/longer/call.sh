#!/usr/bin/env bash
# One device call: does measuring a benchmark for longer bring single processes closer together?
# The build and the default sweep first (scripts/acceptance_call.sh's sweep part, into OUT/sweep),
# then, with that build, in alternating order so that a drift of the host touches both alike:
#   headline: NullKernel/DeviceSync and SmallGemm/DeviceSync fp16 n=512, 6 processes measuring
#             each benchmark for 2 s of timed steps and 6 for 5 s (OUT/headline{2,5}/run-*.json)
#   biggemm:  BigGemm/DeviceSync n=8192, every dtype, 3 processes with the default stopping rule
#             and 3 for 2 s (OUT/biggemm{0,2}/run-*.json)
# Each DeviceSync row carries its own paired Async baseline, so no Async row is run.
#
#   results/h100/longer/call.sh OUT
set -uo pipefail
out="${1:?usage: call.sh OUT}"
mkdir -p "$out/runs"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BUDGET_S=220 "$src/scripts/acceptance_call.sh" "$out/sweep" sweep
built=(/tmp/acceptance/tree*/build/bench/sync_bench)
bench="${built[0]}"
[ -x "$bench" ] || { echo "call.sh: no sync_bench built" >&2; exit 1; }
head='^(NullKernel/DeviceSync|SmallGemm/DeviceSync/fp16/cublas/n:512)/'
big='^BigGemm/DeviceSync/[^/]+/[^/]+/n:8192/'
one() {  # one DIR I FILTER [FLAGS...]: one process into OUT/runs/DIR/run-I.json
  local dir="$out/runs/$1" i="$2" filter="$3"
  shift 3
  mkdir -p "$dir"
  "$bench" --benchmark_filter="$filter" --benchmark_out="$dir/run-$i.json" \
    --benchmark_out_format=json "$@" >"$dir/run-$i.log" 2>&1 || echo "call.sh: $dir/run-$i exit $?"
}
t0=$(date +%s)
for i in 1 2 3 4 5 6; do
  if [ $((i % 2)) -eq 1 ]; then
    one headline2 "$i" "$head" --benchmark_min_time=2
    one headline5 "$i" "$head" --benchmark_min_time=5
  else
    one headline5 "$i" "$head" --benchmark_min_time=5
    one headline2 "$i" "$head" --benchmark_min_time=2
  fi
done
echo "headline: $(($(date +%s) - t0)) s"
t0=$(date +%s)
for i in 1 2 3; do
  if [ $((i % 2)) -eq 1 ]; then
    one biggemm0 "$i" "$big"
    one biggemm2 "$i" "$big" --benchmark_min_time=2
  else
    one biggemm2 "$i" "$big" --benchmark_min_time=2
    one biggemm0 "$i" "$big"
  fi
done
echo "biggemm: $(($(date +%s) - t0)) s"
(cd "$out" && tar czf runs.tar.gz runs && rm -rf runs)

#!/usr/bin/env bash
# scripts/ci_regress.sh's default gated set, no GPU (sync_bench lists its benchmarks without one):
# it picks some benchmarks of every single-GPU family (MultiGpu needs two GPUs, which a CI runner
# does not have), and none of the rows left out for the false alarms its comment names; and that
# its --help prints that whole comment.
#
#   tests/test_ci_filter_sh.sh ROOT SYNC_BENCH
set -uo pipefail
root="${1:?usage: test_ci_filter_sh.sh ROOT SYNC_BENCH}"
bench="${2:?usage: test_ci_filter_sh.sh ROOT SYNC_BENCH}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

filter="$(sed -n "s/^DEFAULT_FILTER='\(.*\)'$/\1/p" "$root/scripts/ci_regress.sh")"
[ -n "$filter" ] || { echo "FAIL: no DEFAULT_FILTER='...' line in scripts/ci_regress.sh"; exit 1; }
all="$("$bench" --benchmark_list_tests)" || { echo "FAIL: $bench --benchmark_list_tests"; exit 1; }
gated="$("$bench" --benchmark_list_tests --benchmark_filter="$filter")" ||
  { echo "FAIL: $bench --benchmark_filter=DEFAULT_FILTER"; exit 1; }

families() { cut -d/ -f1 | sort -u; }
missing="$(comm -23 <(families <<<"$all" | grep -vx MultiGpu) <(families <<<"$gated"))"
[ -z "$missing" ] || fail "families with no benchmark in the default set: $(tr '\n' ' ' <<<"$missing")"

count="$(wc -l <<<"$gated")"
grep -qF "($count benchmarks," "$root/scripts/ci_regress.sh" ||
  fail "ci_regress.sh's comment does not give the default set's size ($count benchmarks)"

for left_out in 'NullKernel/EventSync/blocking/' 'NullKernel/Print/' 'SmallGemm/BulkRead/pageable/' \
  'Overlap/DoubleBuffer/' 'TrainLoop/ItemEveryStep/bf16/cublas/n:512/' \
  'TrainLoop/LaggedItem/bf16/cublas/n:1024/' 'TrainLoop/LaggedItem/mapped/' 'NullKernel/LaggedRead' \
  'SmallGemm/LaggedRead/' 'BigGemm/LaggedRead/' 'SpinKernel/LaggedRead/' \
  'SmallGemm/Print/' 'SmallGemm/ScalarRead/pageable/' 'HostCopy/H2D/' 'BigGemm/Async/' \
  'GraphReplay/Replay/null_kernel/k:100/' 'DataDependent/DeviceSized/elements:8388608/'; do
  grep -qF "$left_out" <<<"$all" || fail "no $left_out among sync_bench's benchmarks"
  ! grep -qF "$left_out" <<<"$gated" || fail "$left_out is in the default set"
done
for kept in 'SpinKernel/DeviceSync/us:1000/' 'TrainLoop/ItemEveryStep/bf16/cublas/n:1024/' \
  'TrainLoop/LaggedItem/bf16/cublas/n:512/' \
  'TrainLoop/Async/' 'TrainLoop/ReadEveryN/' 'TrainLoop/GraphReadEveryN/' \
  'NullKernel/DeviceSync/' 'BigGemm/DeviceSync/bf16/cublas/n:4096/' 'SpinKernel/DeviceSync/us:10/' \
  'SpinKernel/ScalarRead/pinned/us:10/' 'SmallGemm/ScalarRead/pinned/' 'HostCopy/D2H/' \
  'GraphReplay/Replay/null_kernel/k:10/' 'GraphReplay/Replay/fp16/cublas/n:512/k:100/' \
  'DataDependent/DeviceSized/elements:67108864/'; do
  grep -qF "$kept" <<<"$gated" || fail "$kept is not in the default set"
done

# --help prints the whole comment at the top, which says why each row is left out.
help="$("$root/scripts/ci_regress.sh" --help 2>&1)" || fail "ci_regress.sh --help: not exit 0"
header="$(awk 'NR > 1 && !/^#/ { exit } NR > 1' "$root/scripts/ci_regress.sh" | wc -l)"
[ "$(wc -l <<<"$help")" -eq "$header" ] ||
  fail "ci_regress.sh --help prints $(wc -l <<<"$help") lines of its $header-line header"

[ $failures -eq 0 ] && echo "ci_regress.sh's default set: $count benchmarks, every family"
exit $((failures > 0))

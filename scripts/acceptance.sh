#!/usr/bin/env bash
# Judges issue 8's "done" list (do sync_bench's numbers reproduce on this GPU machine?) from the
# folders of several device calls, each written by scripts/acceptance_call.sh. No GPU needed.
# One line a criterion, PASS or FAIL with the numbers behind it, then a few lines marked "info"
# that no criterion covers:
#   test.sh        every scripts/test.sh run on a fresh copy passed, and at least 5 ran
#   fidelity       every test_fidelity run (in test.sh and alone) passed, and at least 10 ran
#                  (info: what the runs whose logs keep the verdicts measured, sync_bench's step
#                  against the hand-written loop's, clean and with the injected cost)
#   false alarms   scripts/gate_rates.sh over the calls' clean runs (3 calls or more): none (info:
#                  how many processes each call's gate runs merged)
#   detection      +1 us host, +10% host and +10% GPU against the same call's clean run: each
#                  flagged on at least 95% of the gated rows it was applied to
#   headline       NullKernel/DeviceSync and SmallGemm/DeviceSync fp16 n=512 paired overheads,
#                  measured 2 s a benchmark (as a quoted number is): in every call, 6 processes or
#                  more, each within +-5% of the call's median (info: the default rule's spread;
#                  the calls' medians against each other; how fast the host was in the process
#                  rows outside +-5% and in the others)
#   biggemm        BigGemm DeviceSync n=8192, every dtype and backend: in every process, the paired
#                  overhead under 3% of that process's Async step, with the stopping rule the
#                  processes' context records (info: how fast the host was in
#                  the process rows at 3% or more and in the others, from baseline_host_us, and
#                  how the overhead follows it: slope and correlation over each row's processes)
#   sweep          scripts/run.sh (the default sweep) under 180 s, --benchmark_filter=SmallGemm
#                  under 30 s, both without error (info: the sweep with --anatomy=on, where run)
#
#   scripts/acceptance.sh DIR...
#
# A criterion with no run behind it is a FAIL ("not run"), never a PASS. Environment:
# SYNC_SUMMARY (default: the repository's build/). Exit status: 0 every criterion met, 1 some not
# met, 2 bad input (no DIR, a DIR without summary.txt, no sync_summary, a run it cannot read).
set -uo pipefail
export LC_ALL=C  # sort and join agree on the order
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
summary_tool="${SYNC_SUMMARY:-$ROOT/build/summary/sync_summary}"
usage() { sed -n '2,${/^#/!q;s/^# \{0,1\}//p}' "$0"; }  # the header comment
bad() {
  echo "acceptance.sh: $*" >&2
  exit 2
}
case "${1:-}" in -h | --help) usage; exit 0 ;; '') usage >&2; exit 2 ;; esac
dirs=("$@")
for d in "${dirs[@]}"; do
  [ -r "$d/summary.txt" ] || bad "no $d/summary.txt (a folder scripts/acceptance_call.sh wrote)"
done
[ -x "$summary_tool" ] || bad "no sync_summary at $summary_tool (build it, or set SYNC_SUMMARY)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

met=0
criteria=0
verdict() {  # verdict OK NAME TEXT: one criterion's line
  criteria=$((criteria + 1))
  if [ "$1" -eq 1 ]; then
    met=$((met + 1))
    printf 'PASS  %-13s %s\n' "$2" "$3"
  else
    printf 'FAIL  %-13s %s\n' "$2" "$3"
  fi
}
info() { printf 'info  %-13s %s\n' "$1" "$2"; }
# lines PATTERN: the matching lines of every DIR's summary.txt, in DIR order, each "DIR: line".
lines() {
  for d in "${dirs[@]}"; do grep -E "$1" "$d/summary.txt" | sed "s|^|$d: |"; done
}

echo "acceptance.sh: ${#dirs[@]} device calls: ${dirs[*]}"
gpus="$(lines '^gpu: ' | sed -E 's/^[^:]*: gpu: //' | sort | uniq -c | sed -E 's/^ +//')"
info gpus "$(echo "$gpus" | sed -E 's/\(UUID: (GPU-[0-9a-f]{8})[^)]*\)/\1/' | paste -sd ';' -)"
[ "$(echo "$gpus" | sed -E 's/.*: (.*) \(UUID.*/\1/' | sort -u | wc -l)" -le 1 ] ||
  info gpus "the calls ran on different GPU models: judge one model at a time"
# by_fingerprint KEY NAME WHAT DIFFERENT: the calls counted by their "KEY: " line, and DIFFERENT
# where they ran more than one; no line where no call has one (calls from before it was written).
by_fingerprint() {
  local counts
  counts="$(lines "^$1: " | sed -E "s/^[^:]*: $1: //" | sort | uniq -c | sed -E 's/^ +//')"
  [ -n "$counts" ] || return 0
  info "$2" "$(echo "$counts" | paste -sd ';' -) (calls by $3)"
  [ "$(echo "$counts" | wc -l)" -le 1 ] || info "$2" "$4"
}
# The build each call ran (its source fingerprint, scripts/source_hash.sh): the list is met by one
# build. The tree beside it (source_hash.sh --tree) adds the tests, scripts and summarizer: one
# source's test.sh runs can have run different tests.
by_fingerprint source sources "source fingerprint" \
  "the calls ran different builds: judge one build at a time"
by_fingerprint tree trees "tree fingerprint" \
  "the calls ran different tests or scripts: test.sh's runs below are of more than one tree"

# --- test.sh and test_fidelity: every run passed, and enough of them.
# count_runs PATTERN PASSED_REGEX NEED NAME WHAT
count_runs() {
  local all passed failed
  all="$(lines "$1")"
  [ -n "$all" ] || { verdict 0 "$4" "not run (need $3 $5)"; return; }
  passed=$(grep -cE "$2" <<<"$all")
  failed="$(grep -vE "$2" <<<"$all" | sed -E 's/^([^:]*): ([^:]*):.*/\1 \2/' | paste -sd ',' -)"
  local total
  total=$(wc -l <<<"$all")
  if [ "$passed" -eq "$total" ] && [ "$total" -ge "$3" ]; then
    verdict 1 "$4" "$passed of $total passed (need $3 $5, none failing)"
  elif [ "$passed" -eq "$total" ]; then
    verdict 0 "$4" "$passed of $total passed: too few (need $3 $5)"
  else
    verdict 0 "$4" "$passed of $total passed; failed: $failed"
  fi
}
count_runs '^test\.sh [0-9]+: ' ': exit 0,' 5 test.sh 'runs on a fresh copy'
count_runs '^test_fidelity [0-9]+ ' '\): Passed' 10 fidelity 'runs'
# What those runs measured, where their logs keep it (the runs alone, `ctest --verbose`; test.sh's
# since it prints the verdicts from CTest's log): each comparison's median per-round difference,
# sync_bench's step against the hand-written loop's, clean and with the injected cost.
fidelity_diffs() {  # lines "RUN KIND DIFF", RUN a log's number (a path may hold spaces)
  local d m verdict run=0
  # A verdict line, with ctest --verbose's "N: " in front where it ran alone (test_fidelity.cu).
  verdict='^([0-9]+: )?fidelity: (clean|host|gpu) .* \(([+-][0-9.]+)% \+- [0-9.]+%, [0-9]+ rounds\)$'
  for d in "${dirs[@]}"; do
    [ -r "$d/logs.tar.gz" ] || continue
    for m in $(tar tzf "$d/logs.tar.gz" 2>/dev/null | grep -E '^\./(test|fidelity)[0-9]+\.txt$'); do
      run=$((run + 1))
      tar xzf "$d/logs.tar.gz" -O "$m" 2>/dev/null | sed -nE "s/$verdict/$run \\2 \\3/p"
    done
  done
}
fidelity_diffs >"$work/fidelity.txt"
if [ -s "$work/fidelity.txt" ]; then
  info fidelity "$(awk '
    { k = $2 == "clean" ? "clean" : "injected"; runs[$1] = 1
      if (!(k in lo) || $3 < lo[k]) lo[k] = $3
      if (!(k in hi) || $3 > hi[k]) hi[k] = $3 }
    END {
      n = 0; for (r in runs) n++
      printf "sync_bench against the hand-written loop, %d runs whose logs keep the verdicts:", n
      sep = ""
      for (i = 1; i <= 2; i++) {
        k = i == 1 ? "clean" : "injected"
        if (k in lo) { printf "%s %s %+.1f%% to %+.1f%%", sep, k, lo[k], hi[k]; sep = "," }
      }
      printf " (the median per-round difference of each comparison)"
    }' "$work/fidelity.txt")"
else
  info fidelity "no test_fidelity verdicts in the calls' logs (test.sh's logs hold them since 6668d59)"
fi

# --- the gate: false alarms between calls, detection within a call.
gate_dirs=()
for d in "${dirs[@]}"; do [ -r "$d/clean.json" ] && gate_dirs+=("$d"); done
if [ ${#gate_dirs[@]} -lt 1 ]; then
  verdict 0 "false alarms" "not run (need clean runs from 3 device calls)"
  verdict 0 detection "not run (need the injected runs of scripts/gate_runs.sh)"
else
  # How many processes each call's gate runs merged (its clean run's repetitions): the limits
  # narrow with the count, so rates pooled over calls of different counts say neither's.
  counts="$(for d in "${gate_dirs[@]}"; do
    grep -m1 -oE '"repetitions": *[0-9]+' "$d/clean.json" | grep -oE '[0-9]+$'
  done | sort -n | uniq -c | sed -E 's/^ +//')"
  if [ -n "$counts" ]; then
    info "gate runs" "$(sed -E 's/^([0-9]+) ([0-9]+)$/\1 calls of \2 processes a run/' \
      <<<"$counts" | paste -sd ';' -)"
    [ "$(wc -l <<<"$counts")" -le 1 ] ||
      info "gate runs" "the calls merged different numbers of processes: judge one number at a time"
  fi
  SYNC_SUMMARY="$summary_tool" "$ROOT/scripts/gate_rates.sh" "${gate_dirs[@]}" >"$work/rates.txt" 2>&1 ||
    bad "scripts/gate_rates.sh failed: $(tail -3 "$work/rates.txt")"
  # total KEY: "HIT TOTAL" summed over the totals lines that start with KEY (the host cost hidden
  # behind a GPU-bound step that never blocks is not counted, as gate_rates.sh says).
  total() {
    sed -n '/^Totals:/,$p' "$work/rates.txt" | grep -F "  $1" | grep -vF '(not counted)' |
      sed -E 's/.*: ([0-9]+) of ([0-9]+) flagged/\1 \2/' | awk '{ h += $1; n += $2 } END { print h + 0, n + 0 }'
  }
  read -r fa fn < <(total 'false alarms:')
  if [ ${#gate_dirs[@]} -lt 3 ]; then
    verdict 0 "false alarms" "$fa of $fn rows flagged, but only ${#gate_dirs[@]} calls (need 3)"
  else
    [ "$fa" -eq 0 ] && [ "$fn" -gt 0 ] && ok=1 || ok=0
    verdict "$ok" "false alarms" "$fa of $fn gated rows flagged, clean vs clean over ${#gate_dirs[@]} calls (need 0)"
  fi
  pct() { awk -v h="$1" -v n="$2" 'BEGIN { printf "%.1f%%", n ? 100 * h / n : 0 }'; }
  ok=1
  text=''
  for run in host1us host10 gpu10; do
    read -r h n < <(total "detection, same call, $run:")
    [ "$n" -gt 0 ] && [ $((h * 100)) -ge $((n * 95)) ] || ok=0
    text+="$run $h of $n ($(pct "$h" "$n")), "
    read -r h n < <(total "detection, across calls, $run:")
    [ "$n" -gt 0 ] && info "across calls" "$run: $h of $n flagged ($(pct "$h" "$n")) against another call's clean run"
  done
  verdict "$ok" detection "${text%, } flagged, same call (need 95% each)"
fi

# processes_of PART DEST: the processes' JSON that each call keeps of PART (PART/run-*.json in its
# logs.tar.gz), in DEST as callI-run-J.json (I: the call's place among the DIRs).
processes_of() {
  local part="$1" dest="$2" d f i=0
  mkdir -p "$dest"
  for d in "${dirs[@]}"; do
    i=$((i + 1))
    # grep without -q: under pipefail, tar killed by SIGPIPE when grep stops early would read as "none".
    { [ -r "$d/logs.tar.gz" ] && tar tzf "$d/logs.tar.gz" 2>/dev/null | grep "^\./$part/run-" >/dev/null; } ||
      continue
    { mkdir -p "$work/x$i" && tar xzf "$d/logs.tar.gz" -C "$work/x$i" "./$part"; } ||
      bad "cannot read $part/ from $d/logs.tar.gz"
    for f in "$work/x$i/$part"/run-*.json; do mv "$f" "$dest/call$i-${f##*/}"; done
  done
}

# csv METRIC REGEX FILE...: the rows sync_summary measured, "run name median min max reps" a line
# (a run is a FILE's name without .json).
csv() {
  local metric="$1" filter="$2"
  shift 2
  "$summary_tool" report --format=csv --metric="$metric" --filter="$filter" "$@" 2>"$work/csv.err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             $col["status"] == "ok" { print $col["run"], $col["benchmark"], $col["median"], $col["min"], $col["max"], $col["repetitions"] }' ||
    bad "sync_summary report $* failed: $(cat "$work/csv.err")"
}

# by_key FORMAT: "KEY VALUE" lines in; "KEY N MEDIAN MAX MIN" out, a line a key, sorted by key,
# the values printed in FORMAT.
by_key() {
  sort -k1,1 -k2,2g |
    awk -v f="$1" '{ v[$1] = v[$1] " " $2 }
      END { for (r in v) { k = split(substr(v[r], 2), x, " ")
            m = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
            printf "%s %d " f " " f " " f "\n", r, k, m, x[k], x[1] } }' | sort
}

# --- headline overheads: each call's processes within +-5% of their median.
headline_rows='^(NullKernel/DeviceSync|SmallGemm/DeviceSync/fp16/cublas/n:512)$'
# spread FILE: over every DIR that has FILE, "OK TEXT": OK 1 when each call's processes (6 or
# more) are within +-5% of the call's median for both rows, 0 otherwise, -1 when no DIR has FILE.
spread() {
  local ok=1 text='' found=0 d rows name med lo hi reps line
  for d in "${dirs[@]}"; do
    [ -r "$d/$1" ] || continue
    found=1
    rows="$(csv overhead_us "$headline_rows" "$d/$1")" || exit 2
    [ "$(wc -l <<<"$rows")" -eq 2 ] || { ok=0; text+="$d: the two rows are not both there; "; continue; }
    while read -r _ name med lo hi reps; do
      line="$(awk -v n="$name" -v m="$med" -v l="$lo" -v h="$hi" -v r="$reps" 'BEGIN {
        dl = 100 * (l / m - 1); dh = 100 * (h / m - 1)
        printf "%s %.2f us (%.2f-%.2f, %+.1f%%/%+.1f%%, %d processes)", n, m, l, h, dl, dh, r
        exit !(r >= 6 && dl >= -5 && dh <= 5) }')" || ok=0
      text+="$d: $line; "
    done <<<"$rows"
  done
  [ $found -eq 1 ] || ok=-1
  echo "$ok ${text%; }"
}
# The criterion is on the measurement the README says to quote a number from: 2 s of timed steps
# a benchmark (headline_long.json). The default stopping rule sees a fraction of a second of a host
# whose speed drifts over seconds; its spread is shown beside it.
res="$(spread headline_long.json)" || exit 2
if [ "${res%% *}" = -1 ]; then
  verdict 0 headline "not run (need the headline rows measured 2 s a benchmark in 6 processes)"
else
  verdict "$((${res%% *} == 1))" headline "${res#* } (2 s a benchmark; need +-5% of the call's median, 6 processes or more)"
fi
res="$(spread headline.json)" || exit 2
[ "${res%% *}" = -1 ] ||
  info "default rule" "${res#* } ($([ "${res%% *}" = 1 ] && echo within || echo not within) +-5%)"
# Whether a second call (often a second machine) gives the first's number: each row's call medians
# against the median of them, over the calls that measured it 2 s a benchmark.
long=()
for d in "${dirs[@]}"; do [ -r "$d/headline_long.json" ] && long+=("$d/headline_long.json"); done
if [ ${#long[@]} -ge 2 ]; then
  rows="$(for f in "${long[@]}"; do csv overhead_us "$headline_rows" "$f" || exit 2; done)" || exit 2
  info "headline calls" "$(awk '{ print $2, $3 }' <<<"$rows" | by_key %.6g |
    awk '{ printf "%s%s: call medians %.2f-%.2f us over %d calls ", (NR > 1 ? "; " : ""), $1, $5, $4, $2
           printf "(%+.1f%%/%+.1f%% of their median %.2f)", 100 * ($5 / $3 - 1), 100 * ($4 / $3 - 1), $3 }')"
fi
# How fast each process's host was while the overheads were measured (baseline_host_us), as a
# multiple of its call's median for that row, in the process rows outside +-5% and in the others:
# a sync's cost is largely the host's work after it wakes. Runs from before sync_bench had the
# counter, or calls that kept no processes' JSON, have no such line.
processes_of headline_long "$work/head"
head=("$work"/head/*.json)
if [ -e "${head[0]}" ] && grep -q '"baseline_host_us"' "${head[@]}"; then
  over="$(csv overhead_us "$headline_rows" "${head[@]}")" || exit 2
  host="$(csv baseline_host_us "$headline_rows" "${head[@]}")" || exit 2
  # "run/benchmark VALUE" a line, sorted for join.
  awk '{ print $1 "/" $2, $3 }' <<<"$over" | sort >"$work/head_over.txt"
  awk '{ print $1 "/" $2, $3 }' <<<"$host" | sort >"$work/head_host.txt"
  # "callI|benchmark OVERHEAD HOST" a process row (its file: callI-run-J.json), and each call's
  # median of each row's overhead and host time ("callI|benchmark N MEDIAN MAX MIN").
  join "$work/head_over.txt" "$work/head_host.txt" |
    awk '{ run = $1; sub(/\/.*/, "", run); call = run; sub(/-run-[0-9]+$/, "", call)
           print call "|" substr($1, length(run) + 2), $2, $3 }' | sort >"$work/head_rows.txt"
  awk '{ print $1, $2 }' "$work/head_rows.txt" | by_key %.6g >"$work/head_over_median.txt"
  awk '{ print $1, $3 }' "$work/head_rows.txt" | by_key %.6g >"$work/head_host_median.txt"
  # Joined: $2 overhead, $3 host, $5 the call's median overhead, $9 its median host time.
  info "headline host" "host time per step against its call's median for the row:$(
    join "$work/head_rows.txt" "$work/head_over_median.txt" | join - "$work/head_host_median.txt" |
      awk '$5 > 0 && $9 > 0 { d = 100 * ($2 / $5 - 1); row = $1; sub(/^[^|]*\|/, "", row)
             print row "|" (d < -5 || d > 5 ? "outside" : "within"), $3 / $9 }' | by_key %.2f |
      awk '{ split($1, k, "|")
             if (k[1] != row) { printf "%s %s:", sep, k[1]; sep = ";"; inner = ""; row = k[1] }
             printf "%s %s%s %d %s %s-%sx (median %sx)", inner, k[2], inner ? "" : " +-5%", $2,
               $2 == 1 ? "process" : "processes", $5, $4, $3
             inner = "," }')"
fi

# --- BigGemm n=8192: the sync's cost under 3% of the step in every process. Each process's
# overhead over its own Async step: the processes' JSON is in logs.tar.gz (biggemm/run-*.json).
processes_of biggemm "$work/big"
big=("$work"/big/*.json)
if [ ! -e "${big[0]}" ]; then
  verdict 0 biggemm "not run (need BigGemm Async/DeviceSync n=8192)"
else
  # per_run METRIC: "run/benchmark value" a line, one per process and row.
  per_run() {
    local rows
    rows="$(csv "$1" '^BigGemm/DeviceSync/.*/n:8192$' "${big[@]}")" || exit 2
    awk '{ print $1 "/" $2, $3 }' <<<"$rows" | sort
  }
  per_run overhead_us >"$work/over.txt" || exit 2
  per_run baseline_us >"$work/base.txt" || exit 2
  # without_run: "run/benchmark ..." lines as "benchmark ...".
  without_run() { sed 's|^[^/ ]*/||'; }
  # "run/benchmark PERCENT" a process row: its overhead in % of its step.
  join "$work/over.txt" "$work/base.txt" | awk '{ printf "%s %.6g\n", $1, 100 * $2 / $3 }' \
    >"$work/percent.txt"
  # One line a dtype and backend: name, processes, median and largest overhead in % of the step.
  without_run <"$work/percent.txt" | by_key %.2f >"$work/big.txt"
  if [ ! -s "$work/big.txt" ]; then
    verdict 0 biggemm "no BigGemm/DeviceSync n=8192 row measured"
  else
    over="$(awk '$4 >= 3 { printf "%s%s %.2f%%", sep, $1, $4; sep = ", " }' "$work/big.txt")"
    range="$(awk 'NR == 1 || $4 > w { w = $4 } NR == 1 || $3 < m { m = $3 } NR == 1 || $3 > M { M = $3 }
      NR == 1 || $2 < p { p = $2 }
      END { printf "%d dtype/backend rows, %d processes or more: medians %.2f-%.2f%%, worst process %.2f%%", NR, p, m, M, w }' "$work/big.txt")"
    # The rule the processes were measured by, from their context: the default rule's 8 rounds of
    # a millisecond step give a loose median (results/h100/longer/), 2 s about 150 rounds.
    need="(measured by $(for f in "${big[@]}"; do
      r="$(grep -o '"stopping_rule": *"[^"]*"' "$f" | head -1 | sed 's/^[^:]*: *"//; s/"$//')"
      echo "${r:-a rule not recorded}"
    done | sort | uniq -c |
      awk '{ n = $1; sub(/^ *[0-9]+ /, ""); printf "%s%s (%d processes)", sep, $0, n; sep = "; " }'
    ); need under 3% in every process)"
    if [ -z "$over" ]; then
      verdict 1 biggemm "$range $need"
    else
      verdict 0 biggemm "$range; 3% or more: $over $need"
    fi
    # How fast each process's host was while its row was measured (baseline_host_us: the baseline's
    # host time per step, in the same rounds), as a multiple of that row's median over every
    # process: a sync's cost here is mostly the host's resubmission after it wakes. Runs from
    # before sync_bench had the counter have no such line.
    if grep -q '"baseline_host_us"' "${big[@]}"; then
      per_run baseline_host_us >"$work/host.txt" || exit 2
      # "ROW PERCENT HOST" a process row, and "ROW N MEDIAN MAX MIN" of its host times; a row is
      # at 3% or more as the verdict rounds it (+ 0: a number, or "10.50" would sort under "3").
      join "$work/percent.txt" "$work/host.txt" | without_run | sort -k1,1 >"$work/hosts.txt"
      awk '{ print $1, $3 }' "$work/hosts.txt" | by_key %.6g >"$work/row_hosts.txt"
      info "biggemm host" "host time per step against its row's median over the processes: $(
        join "$work/hosts.txt" "$work/row_hosts.txt" |
          awk '{ print (sprintf("%.2f", $2) + 0 >= 3 ? "over" : "under"), $3 / $5 }' | by_key %.2f |
          awk '{ printf "%s%s: %d rows %.2f-%.2fx, median %.2fx", sep,
                 $1 == "over" ? "3% or more" : "under 3%", $2, $5, $4, $3; sep = "; " }'
      )"
      # Does the overhead follow the host? Over each row's processes, the least-squares slope of
      # overhead_us on baseline_host_us and their correlation; a row whose processes share one
      # overhead or one host time has neither.
      join "$work/over.txt" "$work/host.txt" | without_run >"$work/over_host.txt"
      info "biggemm slope" "$(awk '
        { n[$1]++; x[$1] += $3; y[$1] += $2; xx[$1] += $3 * $3; yy[$1] += $2 * $2; xy[$1] += $2 * $3 }
        END {
          for (r in n) {
            rows++
            sxx = xx[r] - x[r] * x[r] / n[r]; syy = yy[r] - y[r] * y[r] / n[r]
            sxy = xy[r] - x[r] * y[r] / n[r]
            if (n[r] < 3 || sxx <= 1e-9 * xx[r] || syy <= 1e-9 * yy[r]) continue
            b = sxy / sxx; c = sxy / sqrt(sxx * syy); k++
            if (k == 1 || b < b0) b0 = b; if (k == 1 || b > b1) b1 = b
            if (k == 1 || c < c0) c0 = c; if (k == 1 || c > c1) c1 = c
          }
          printf "overhead against the host time per step, over each row'"'"'s processes: "
          if (k) printf "slope %.2f-%.2f us a us, correlation %.2f-%.2f (%d of %d rows)", b0, b1, c0, c1, k, rows
          else printf "no row to fit"
          if (k < rows) printf "; %d rows with under 3 processes, or one overhead or one host time", rows - k
          printf "\n"
        }' "$work/over_host.txt")"
    fi
  fi
fi

# --- the sweep's time.
# check LINES LIMIT: "SLOWEST FAILURES" over the lines ("... exit RC, T s", T whole or decimal
# seconds); false where the slowest is not under LIMIT or one failed. A line of another form
# counts as failed.
check() {
  sed -E 's/.* exit ([0-9]+), ([0-9]+(\.[0-9]+)?) s.*/\1 \2/' <<<"$1" |
    awk -v lim="$2" '{ if ($2 + 0 > w) w = $2 + 0; if ($1 != "0") f++ } END { printf "%g %d\n", w, f; exit !(w < lim && f == 0) }'
}
sweeps="$(lines '^sweep: run\.sh exit ')"
smalls="$(lines '^smallgemm: exit ')"
if [ -z "$sweeps" ] || [ -z "$smalls" ]; then
  verdict 0 sweep "not run (need scripts/run.sh and --benchmark_filter=SmallGemm timed)"
else
  ok=1
  res="$(check "$sweeps" 180)" || ok=0
  read -r ws wf <<<"$res"
  res="$(check "$smalls" 30)" || ok=0
  read -r ss sf <<<"$res"
  verdict "$ok" sweep "run.sh at most ${ws} s over $(wc -l <<<"$sweeps") runs ($wf failed), SmallGemm at most ${ss} s over $(wc -l <<<"$smalls") ($sf failed) (need under 180 s and 30 s)"
fi

# The default sweep with the anatomy's passes: information, as the anatomy is off by default.
anatomies="$(lines '^anatomy sweep: run\.sh --anatomy=on exit ')"
if [ -n "$anatomies" ]; then
  read -r aw af <<<"$(check "$anatomies" 0)"
  info anatomy "run.sh --anatomy=on at most ${aw} s over $(wc -l <<<"$anatomies") runs ($af failed)"
fi

skipped="$(lines '^skipped ')"
[ -z "$skipped" ] || info skipped "$(sed -E 's/: skipped ([a-z]+):.*/: \1/' <<<"$skipped" | paste -sd ',' -)"
echo "Result: $met of $criteria criteria met"
[ "$met" -eq "$criteria" ]

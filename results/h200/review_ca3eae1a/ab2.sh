#!/usr/bin/env bash
# Second call: the clock's cost on this host, and Alloc/MallocAsyncPool at 4 KiB (host-bound) for
# 1 s a benchmark in K alternating processes of the old and new sync_bench.
set -uo pipefail
out="$1"; k="${2:-10}"
export PATH=/usr/local/cuda/bin:$PATH
old=/tmp/ab/old/build/bench/sync_bench new=/tmp/ab/new/build/bench/sync_bench
if [ ! -x "$old" ] || [ ! -x "$new" ]; then echo "no builds left from call 1: ab_call.sh first"; exit 2; fi
cat >/tmp/clock.cpp <<'CPP'
#include <chrono>
#include <cstdio>
int main() {
  using C = std::chrono::steady_clock;
  volatile long sink = 0;
  for (int rep = 0; rep < 5; ++rep) {
    const int n = 10000000;
    const auto t0 = C::now();
    for (int i = 0; i < n; ++i) sink += C::now().time_since_epoch().count() & 1;
    const double ns = std::chrono::duration<double, std::nano>(C::now() - t0).count() / n;
    std::printf("steady_clock::now(): %.1f ns a call\n", ns);
  }
}
CPP
g++ -O2 -o /tmp/clock /tmp/clock.cpp && /tmp/clock | tee "$out/clock.txt"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource | tee -a "$out/clock.txt"
mkdir -p /tmp/ab2 && rm -f /tmp/ab2/*
for i in $(seq 1 "$k"); do
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    "$bin" --benchmark_filter='^Alloc/MallocAsyncPool/bytes:4096/' --benchmark_min_time=1 \
      --benchmark_out=/tmp/ab2/$side-$i.json --benchmark_out_format=json >/dev/null 2>&1 || echo "$side-$i failed"
  done
done
for side in old new; do
  /tmp/ab/new/build/summary/sync_summary merge --output="$out/pool4k_$side.json" /tmp/ab2/$side-*.json >/dev/null
done
python3 - "$out" <<'PY'
import json, statistics, sys
for side in ("old", "new"):
    d = json.load(open(f"{sys.argv[1]}/pool4k_{side}.json"))
    v = [b["overhead_us"] for b in d["benchmarks"] if b.get("run_type") == "iteration"]
    h = [b["baseline_host_us"] for b in d["benchmarks"] if b.get("run_type") == "iteration"]
    print(f"{side}: overhead median {statistics.median(v):.3f} us ({min(v):.3f}-{max(v):.3f}, {len(v)} processes); baseline host {statistics.median(h):.2f} us")
PY

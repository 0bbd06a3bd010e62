# What call 7 ran (from the tree's root): a seventh machine's scripts/gate_runs.sh (clean and the
# three injections, 10 processes each), judged here against the runners' baselines.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/fresh && mkdir -p /tmp/fresh
tar cf - --exclude='./build*' --exclude=./.git --exclude=./runner_base.json . | (cd /tmp/fresh && tar xf -)
cd /tmp/fresh || exit 1
nvidia-smi -L >"$OUT/gpu.txt"
start=$(date +%s)
(BUILD_DIR=/tmp/fresh/build bash scripts/setup.sh) >"$OUT/setup.txt" 2>&1
echo "setup.sh: exit $?, $(($(date +%s) - start)) s"
PROCESSES=10 scripts/gate_runs.sh "$OUT"

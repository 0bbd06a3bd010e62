# What call 6 ran (from the tree's root, with device_call.sh and runner_base.json, the baseline
# of calls 1-5, copied there): the runner that gates against the 5-GPU baseline, clean and with
# injected costs.
set -uo pipefail
cp runner_base.json /tmp/base5.json
bash device_call.sh "$OUT" runner_base.json 1
cd /tmp/fresh || exit 1
for inj in host10:--sync_inject=host:10% host1us:--sync_inject=host:1us; do
  name=${inj%%:*}; flag=${inj#*:}
  extra=(); [ "$name" = host1us ] && extra=(--sync_inject_filter='^(NullKernel|SmallGemm|SyncEvery)/')
  start=$(date +%s)
  OUT=/tmp/$name.json scripts/ci_regress.sh /tmp/base5.json "$flag" "${extra[@]}" >"$OUT/gate_$name.md" 2>/dev/null
  echo "gate $name vs 5 GPUs: exit $?, $(($(date +%s) - start)) s; $(tail -1 "$OUT/gate_$name.md")"
done

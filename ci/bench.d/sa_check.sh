#!/usr/bin/env bash
# make bench, `parcheck sa check`: 100 MB of generated text (trained like
# ci/bench.d/sa.sh), its SA and LCP written by `parcheck sa --impl
# divsufsort`, whose oracle time (the O(n) checker inside `parcheck sa`) is
# the reference; then `parcheck sa check` on those files, in the same run.
# The target: the check within 2x that oracle time. Rows go to
# report/bench.csv, the JSON to report/bench-sa-check-*.json, the verdict
# line to report/bench-sa-check.txt. SA_CHECK_BENCH_BYTES overrides the size.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
BYTES=${SA_CHECK_BENCH_BYTES:-100000000}
DATA=${PARCHECK_DATA:-../shared/data}
mkdir -p report/inputs
train=()
for f in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$f" ] && train+=(--train "$DATA/texts/$f")
done
t=report/inputs/sa-check-text
"$P" gen text --bytes "$BYTES" --kind text --seed 1 "${train[@]}" -o "$t" || exit 1
echo "load before sa divsufsort: $(cut -d' ' -f1-3 /proc/loadavg)"
"$P" sa "$t" --impl divsufsort --out-sa "$t.sa" --out-lcp "$t.lcp" \
  --json report/bench-sa-check-build.json || exit 1
echo "load before sa check: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %M' -o report/bench-sa-check-time.txt \
  "$P" sa check "$t" --sa "$t.sa" --lcp "$t.lcp" --json report/bench-sa-check.json || exit 1
python3 - "$BYTES" <<'PY' > report/bench-sa-check.txt
import json, sys
n = int(sys.argv[1])
build = json.load(open('report/bench-sa-check-build.json'))
check = json.load(open('report/bench-sa-check.json'))
wall, rss_kb = open('report/bench-sa-check-time.txt').read().split()[-2:]
oracle = build['oracle']['seconds']
r = check['results'][0]
s = r['timings']['check_s']
ratio = s / oracle if oracle > 0 else float('nan')
print('sa,check-text,sa-check,1,%d,%.4f,%.3f,MB/s,oracle in parcheck sa %.3f s; ratio %.2f (target <= 2); wall %s s; peak %.2f B/n heap, %s KB RSS'
      % (n, s, n / 1e6 / s, oracle, ratio, wall, r['memory']['peak_bytes'] / float(n), rss_kb))
PY
status=$?
cat report/bench-sa-check.txt
cat report/bench-sa-check.txt >> report/bench.csv
rm -f "$t.sa" "$t.lcp"
exit $status

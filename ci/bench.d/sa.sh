#!/usr/bin/env bash
# make bench, suffix arrays: 50 MB of generated text (order-5 Markov model
# trained on the shared English texts when present, else the built-in
# paragraph) and 50 MB of random bytes; seq, omp with 1 and 2 threads and
# divsufsort, in the same run. Rows go to report/bench.csv, the plot to
# report/bench-sa.svg, the JSON of each run to report/bench-sa-*.json, the
# load average before each run to report/bench-sa-load.txt.
# SA_BENCH_BYTES overrides the size, SA_BENCH_REPS the repetitions.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
BYTES=${SA_BENCH_BYTES:-50000000}
REPS=${SA_BENCH_REPS:-3}
DATA=${PARCHECK_DATA:-../shared/data}
mkdir -p report/inputs
: > report/bench-sa-load.txt
train=()
for f in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$f" ] && train+=(--train "$DATA/texts/$f")
done
"$P" gen text --bytes "$BYTES" --kind text --seed 1 "${train[@]}" -o report/inputs/sa-bench-text || exit 1
"$P" gen text --bytes "$BYTES" --kind random --seed 2 -o report/inputs/sa-bench-random || exit 1
status=0
row() { # case json impl-label threads
  python3 - "$@" <<'PY' >> report/bench.csv
import json, sys
case, path, label, threads = sys.argv[1:5]
impl = label.split('@')[0]
for r in json.load(open(path))['results']:
    if r['impl'] == impl and r['status'] == 'pass':
        note = 'peak %.2f B/n' % (r['memory']['peak_bytes'] / float(json.load(open(path))['input']['bytes']))
        print('sa,%s,%s,%s,%s,%.4f,%.3f,MB/s,%s' % (case, impl, threads, r['reps'], r['seconds'], r['throughput'], note))
PY
}
for c in text random; do
  f=report/inputs/sa-bench-$c
  for spec in "seq 1" "divsufsort 1" "omp 1" "omp 2"; do
    set -- $spec
    # the machine is shared: the load before each run goes with the figures
    echo "load before sa $c $1 $2 threads: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a report/bench-sa-load.txt
    j=report/bench-sa-$c-$1-$2.json
    "$P" sa "$f" --impl "$1" --threads "$2" --reps "$REPS" --json "$j" || status=1
    row "$c" "$j" "$1" "$2"
    grep -E "^sa,$c,$1,$2," report/bench.csv | tail -n 1
  done
done
# speed-ups and targets, measured in this run (the last rows: bench.csv accumulates)
python3 - <<'PY' > report/bench-sa.txt
import csv
rows = [r for r in csv.DictReader(open('report/bench.csv')) if r['domain'] == 'sa']
get = lambda c, i, t: next((float(r['throughput']) for r in reversed(rows) if r['case'] == c and r['impl'] == i and r['threads'] == t), float('nan'))
for c in ('text', 'random'):
    seq, dss, o1, o2 = get(c, 'seq', '1'), get(c, 'divsufsort', '1'), get(c, 'omp', '1'), get(c, 'omp', '2')
    print('%s: seq %.2f MB/s, divsufsort %.2f, omp1 %.2f, omp2 %.2f; seq/divsufsort %.2f (target >= 0.33), omp2/seq %.2f (target >= 1.6), omp2/omp1 %.2f'
          % (c, seq, dss, o1, o2, seq / dss, o2 / seq, o2 / o1))
PY
cat report/bench-sa.txt
if command -v gnuplot >/dev/null; then
  grep -E '^sa,' report/bench.csv | awk -F, '{print $2"-"$3"-"$4"t", $7}' > report/bench-sa.dat
  gnuplot <<'GP' || status=1
set terminal svg size 800,420
set output 'report/bench-sa.svg'
set title 'Suffix array construction, 50 MB inputs (higher is better)'
set ylabel 'MB/s'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -35
set grid ytics
plot 'report/bench-sa.dat' using 0:2:xtic(1) with boxes notitle
GP
fi
exit $status

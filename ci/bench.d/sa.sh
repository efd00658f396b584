#!/usr/bin/env bash
# make bench, suffix arrays: 50 MB of generated text (order-5 Markov model
# trained on the shared English texts when present, else the built-in
# paragraph) and 50 MB of random bytes; seq, omp and sais with 1 and 2
# threads and divsufsort, in the same run. Then the repetitive classes
# (a random block of BYTES/64 repeated 64 times, dna, a long period,
# Fibonacci, Thue-Morse, all-zero bytes): sais with 1 and 2 threads beside
# divsufsort (seq and omp double for minutes there; SA_BENCH_SEED_REP=1
# adds them). Rows go to report/bench.csv, the plot to
# report/bench-sa.svg, the JSON of each run to report/bench-sa-*.json, the
# load average before each run to report/bench-sa-load.txt.
# SA_BENCH_BYTES overrides the size, SA_BENCH_REPS the repetitions.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
BYTES=${SA_BENCH_BYTES:-50000000}
REPS=${SA_BENCH_REPS:-3}
DATA=${PARCHECK_DATA:-../shared/data}
mkdir -p report/inputs
# run alone (not through ci/bench.sh): the table's header, which the
# summary below reads by name
[ -s report/bench.csv ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv
: > report/bench-sa-load.txt
train=()
for f in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$f" ] && train+=(--train "$DATA/texts/$f")
done
"$P" gen text --bytes "$BYTES" --kind text --seed 1 "${train[@]}" -o report/inputs/sa-bench-text || exit 1
"$P" gen text --bytes "$BYTES" --kind random --seed 2 -o report/inputs/sa-bench-random || exit 1
REP_CLASSES="repeat dna longperiod fibonacci thuemorse zeros"
for c in $REP_CLASSES; do
  blk=()
  [ "$c" = repeat ] && blk=(--block $((BYTES / 64)))
  "$P" gen text --bytes "$BYTES" --kind "$c" --seed 3 "${blk[@]}" -o "report/inputs/sa-bench-$c" || exit 1
done
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
for c in text random $REP_CLASSES; do
  f=report/inputs/sa-bench-$c
  specs=("seq 1" "divsufsort 1" "omp 1" "omp 2" "sais 1" "sais 2")
  case " $REP_CLASSES " in
    *" $c "*) [ "${SA_BENCH_SEED_REP:-0}" = 1 ] || specs=("divsufsort 1" "sais 1" "sais 2") ;;
  esac
  for spec in "${specs[@]}"; do
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
# sais against divsufsort: text >= 1.0x (1 thread) and >= 1.6x (2 threads),
# repetitive classes >= 0.5x and >= 0.8x
for c in ('text', 'random', 'repeat', 'dna', 'longperiod', 'fibonacci', 'thuemorse', 'zeros'):
    dss, s1, s2 = get(c, 'divsufsort', '1'), get(c, 'sais', '1'), get(c, 'sais', '2')
    t1, t2 = (1.0, 1.6) if c in ('text', 'random') else (0.5, 0.8)
    print('%s: sais1 %.2f MB/s, sais2 %.2f, divsufsort %.2f; sais1/divsufsort %.2f (target >= %.1f), sais2/divsufsort %.2f (target >= %.1f)'
          % (c, s1, s2, dss, s1 / dss, t1, s2 / dss, t2))
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

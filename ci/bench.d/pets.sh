#!/usr/bin/env bash
# make bench, PETS: generated graphs with v = 2^13 .. 2^19 (PETS_BENCH_MAX=e
# stops at 2^e), beta 3, alpha 1, CCR 1, eta 0.5, 8 processors. Rows of
# report/bench.csv: the time of each phase per implementation (case
# phase-<name>), metrics+sort (the kernels' share), the total, and schedule
# quality (case slr-insertion / slr-append: seconds column = SLR).
# Plots: report/bench-pets-phases.svg, report/bench-pets-slr.svg, and
# report/bench-pets-stacked.svg (ci/pets_phases.py: where the time of each
# implementation goes at the largest v).
set -u
: "${PARCHECK:?PARCHECK must name the parcheck binary}"
max=${PETS_BENCH_MAX:-19}
reps=${PETS_BENCH_REPS:-3}
mkdir -p report/inputs report/runs
csv=report/bench.csv
[ -f "$csv" ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > "$csv"
tsv=report/bench-pets.tsv
echo -e "v\timpl\tmetrics_sort_s\ttotal_s\tslr_insertion\tslr_append" > "$tsv"
status=0
for e in $(seq 13 "$max"); do
  v=$((1 << e)); f=report/inputs/pets-bench-$e.dag
  "$PARCHECK" gen dag --tasks $v --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 8 --seed $e -o "$f" >/dev/null || { status=1; continue; }
  for pol in insertion append; do
    "$PARCHECK" pets "$f" --impl all --reps "$reps" --$pol --json "report/runs/pets-bench-$e-$pol.json" >/dev/null || status=1
  done
  python3 - "$v" "report/runs/pets-bench-$e-insertion.json" "report/runs/pets-bench-$e-append.json" "$csv" "$tsv" <<'PY' || status=1
import json, sys
v, ins, app, csv, tsv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
ji, ja = json.load(open(ins)), json.load(open(app))
app_by = {r['impl']: r for r in ja['results']}
with open(csv, 'a') as c, open(tsv, 'a') as t:
    for r in ji['results']:
        if r['status'] != 'pass':
            c.write('pets,total,%s,1,%s,,,tasks/s,%s %s\n' % (r['impl'], v, r['status'], r['reason'].replace(',', ';')))
            continue
        tm = r['timings']
        for ph in ('h2d', 'entry', 'metrics', 'sort', 'd2h', 'select'):
            c.write('pets,phase-%s,%s,1,%s,%.6g,,s,\n' % (ph, r['impl'], v, tm.get(ph + '_s', 0)))
        ms = tm.get('metrics_s', 0) + tm.get('sort_s', 0)
        c.write('pets,metrics+sort,%s,1,%s,%.6g,%.6g,tasks/s,\n' % (r['impl'], v, ms, float(v) / ms if ms else 0))
        c.write('pets,total,%s,1,%s,%.6g,%.6g,tasks/s,insertion\n' % (r['impl'], v, r['seconds'], r['throughput']))
        a = app_by.get(r['impl'], {}).get('metrics', {})
        si, sa = r['metrics'].get('slr', 0), a.get('slr', 0)
        c.write('pets,slr-insertion,%s,1,%s,%.6g,,ratio,makespan=%s lower_bound=%s\n' % (r['impl'], v, si, r['metrics'].get('makespan'), r['metrics'].get('lower_bound')))
        c.write('pets,slr-append,%s,1,%s,%.6g,,ratio,makespan=%s\n' % (r['impl'], v, sa, a.get('makespan')))
        t.write('%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\n' % (v, r['impl'], ms, r['seconds'], si, sa))
PY
done
if command -v gnuplot >/dev/null; then
  gnuplot <<GP || status=1
set terminal svg size 800,500
set datafile separator "\t"
set key autotitle columnhead left top
set logscale xy 2
set xlabel "tasks v"
set output "report/bench-pets-phases.svg"
set ylabel "seconds (metrics + sort)"
plot for [im in "serial omp ocl ocl-vec8"] "$tsv" using (strcol(2) eq im ? \$1 : 1/0):3 with linespoints title im
set output "report/bench-pets-slr.svg"
unset logscale y
set ylabel "SLR (makespan / critical-path bound)"
plot "$tsv" using (strcol(2) eq "serial" ? \$1 : 1/0):5 with linespoints title "insertion", \
     "$tsv" using (strcol(2) eq "serial" ? \$1 : 1/0):6 with linespoints title "append"
GP
else
  echo "pets: gnuplot not found, no plots"
fi
python3 ci/pets_phases.py report "report/runs/pets-bench-$max-insertion.json" bench-pets-stacked || status=1
exit $status

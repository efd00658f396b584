#!/usr/bin/env bash
# SpMM host benchmark: STREAM-like copy bandwidth, then the issue's case
# (2,097,152-row banded matrix, 27 entries per row) for the CPU kernels at
# 1 and 2 threads and K in {1, 4, 16, 64}, plus uniform and power-law shapes.
# SPMM_BENCH_ROWS shrinks the matrices for a quick run.
set -u
. ci/plugin_args.sh
rows=${SPMM_BENCH_ROWS:-2097152}
csv=report/bench.csv
tmp=$(mktemp)
export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
"$PARCHECK" bench stream --mib 512 --threads 1,2 | tee -a "$tmp" || exit 1
"$PARCHECK" bench spmm --shape banded --rows "$rows" --per-row 27 --k 1,4,16,64 --threads 1,2 \
  --impl csr-serial,csr-omp,ell-omp,ellnp-omp --reps 10 ${plugin_args[@]+"${plugin_args[@]}"} |
  tee -a "$tmp" || exit 1
"$PARCHECK" bench spmm --shape uniform --rows "$rows" --per-row 16 --k 1,16 --threads 1,2 \
  --impl csr-omp,ell-omp,ellnp-omp --reps 5 ${plugin_args[@]+"${plugin_args[@]}"} | tee -a "$tmp" || exit 1
"$PARCHECK" bench spmm --shape powerlaw --rows "$rows" --per-row 8 --max-row 10000 --k 1,16 \
  --threads 1,2 --impl csr-omp,ellnp-omp --reps 5 ${plugin_args[@]+"${plugin_args[@]}"} | tee -a "$tmp" || exit 1
cat "$tmp" >> "$csv"
# The issue's two figures: share of copy bandwidth and 2-thread speed-up.
python3 - "$tmp" <<'PY' | tee report/bench-spmm-summary.txt
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
copy = max(float(r[6]) for r in rows if r[0] == 'stream')
def get(impl, t, k, case='banded'):
    for r in rows:
        if r[0] == 'spmm' and r[1].startswith(case) and r[2] == impl and r[3] == str(t) and r[4] == 'K=%d' % k:
            return float(r[5]), float(r[8].split()[0])
s1, _ = get('csr-omp', 1, 1); s2, bw2 = get('csr-omp', 2, 1)
print('copy bandwidth (best of 1 and 2 threads): %.2f GB/s' % copy)
print('csr-omp K=1, 2 threads: %.2f GB/s = %.0f%% of copy bandwidth (target >= 70%%)' % (bw2, 100 * bw2 / copy))
print('csr-omp K=1 speed-up 2 threads vs 1: %.2fx (target >= 1.6x)' % (s1 / s2))
for k in (4, 16, 64):
    a, _ = get('csr-omp', 1, k); b, _ = get('csr-omp', 2, k)
    print('csr-omp K=%d speed-up 2 threads vs 1: %.2fx' % (k, a / b))
PY
# Plot: GFLOP/s per implementation and K on the banded case, 1 vs 2 threads.
python3 - "$tmp" <<'PY'
import csv, subprocess, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r[0] == 'spmm' and r[1].startswith('banded')]
impls = sorted({r[2] for r in rows}); ks = ['K=1', 'K=4', 'K=16', 'K=64']
with open('report/bench-spmm-banded.dat', 'w') as f:
    f.write('case ' + ' '.join('"%s/%st"' % (i, t) for i in impls for t in ('1', '2')) + '\n')
    for k in ks:
        vals = []
        for i in impls:
            for t in ('1', '2'):
                v = [r[6] for r in rows if r[2] == i and r[3] == t and r[4] == k]
                vals.append(v[0] if v else '-')
        f.write('"%s" %s\n' % (k, ' '.join(vals)))
n = 2 * len(impls) + 1
script = '''set terminal svg size 1000,450 dynamic font "sans,10"
set output "report/bench-spmm-banded.svg"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set datafile missing "-"
set key outside right
set ylabel "GFLOP/s"
set title "SpMM host kernels, banded 2M rows x 27/row: 1 and 2 threads"
plot for [c=2:%d] "report/bench-spmm-banded.dat" using c:xtic(1) title columnheader(c)
''' % n
subprocess.run(['gnuplot'], input=script, text=True, check=False)
PY
rm -f "$tmp"

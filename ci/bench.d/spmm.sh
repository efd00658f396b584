#!/usr/bin/env bash
# SpMM host benchmark: STREAM-like copy bandwidth, then the banded case
# (2,097,152 rows, 27 entries per row) for the CPU kernels at 1 and 2
# threads and K in {1, 4, 16, 64}, then the CPU designs against librsb on
# four shapes (banded, uniform, power law, dense rows) at K in {1, 4, 16,
# 64}: GFLOP/s, bytes moved, % of the copy bandwidth, ratio to librsb
# (ci/spmm_cpu_summary.py, report/bench-spmm-cpu.md and its plot).
# SPMM_BENCH_ROWS shrinks the banded matrix for a quick run, SPMM_BENCH_SCALE
# (default 1048576) the rows of the other shapes; SPMM_BENCH_THREADS is the
# thread count of the librsb comparison (default 2).
set -u
. ci/plugin_args.sh
rows=${SPMM_BENCH_ROWS:-2097152}
scale=${SPMM_BENCH_SCALE:-1048576}
cmp_t=${SPMM_BENCH_THREADS:-2}
csv=report/bench.csv
tmp=$(mktemp)
export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
"$PARCHECK" bench stream --mib 512 --threads "$(printf '%s\n' 1 2 "$cmp_t" | sort -nu | paste -sd,)" |
  tee -a "$tmp" || exit 1
"$PARCHECK" bench spmm --shape banded --rows "$rows" --per-row 27 --k 1,4,16,64 --threads 1,2 \
  --impl csr-serial,csr-omp,ell-omp,ellnp-omp,csr-cpu-fast,librsb --reps 10 \
  ${plugin_args[@]+"${plugin_args[@]}"} | tee -a "$tmp" || exit 1
# The scattered shapes against librsb (1M x 1M, 16 per row; dense rows of
# 10,000 entries in one row out of 1000): parcheck's CPU designs and librsb
# side by side, taking turns rep after rep.
for shape in uniform powerlaw denserows; do
  extra=(); [ "$shape" = denserows ] && extra=(--max-row 10000)
  "$PARCHECK" bench spmm --shape "$shape" --rows "$scale" --per-row 16 "${extra[@]}" --k 1,4,16,64 \
    --threads "$cmp_t" --impl csr-omp,ellnp-omp,csr-cpu-fast,librsb --reps 5 | tee -a "$tmp" || exit 1
done
[ "$cmp_t" != 2 ] && "$PARCHECK" bench spmm --shape banded --rows "$rows" --per-row 27 --k 1,4,16,64 \
  --threads "$cmp_t" --impl csr-omp,csr-cpu-fast,librsb --reps 10 | tee -a "$tmp"
cat "$tmp" >> "$csv"
python3 ci/spmm_cpu_summary.py "$tmp" | tee report/bench-spmm-cpu.md
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
# Plot: ratio of the best parcheck CPU design to librsb per shape and K.
python3 - "$tmp" "$cmp_t" <<'PY'
import csv, subprocess, sys
t = sys.argv[2]
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0] == 'spmm' and r[3] == t]
cases = []
for r in rows:
    if r[1] not in cases:
        cases.append(r[1])
ks = ['K=1', 'K=4', 'K=16', 'K=64']
with open('report/bench-spmm-vs-librsb.dat', 'w') as f:
    f.write('case ' + ' '.join('"%s"' % k for k in ks) + '\n')
    for c in cases:
        vals = []
        for k in ks:
            ours = [float(r[5]) for r in rows if r[1] == c and r[4] == k and r[2] != 'librsb']
            rsb = [float(r[5]) for r in rows if r[1] == c and r[4] == k and r[2] == 'librsb']
            vals.append('%.3f' % (rsb[0] / min(ours)) if ours and rsb else '-')
        f.write('"%s" %s\n' % (c, ' '.join(vals)))
script = """set terminal svg size 900,420 dynamic font "sans,10"
set output "report/bench-spmm-vs-librsb.svg"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set datafile missing "-"
set key outside right
set ylabel "librsb time / best parcheck time"
set title "SpMM on the CPU, %s threads: best parcheck design against librsb (above 1: parcheck faster)"
plot for [c=2:5] "report/bench-spmm-vs-librsb.dat" using c:xtic(1) title columnheader(c), 1.2 with lines dt 2 title "target 1.2x"
""" % t
subprocess.run(['gnuplot'], input=script, text=True, check=False)
PY
rm -f "$tmp"

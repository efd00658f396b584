#!/usr/bin/env bash
# make bench, SpMM check: `parcheck spmm check` judging a Y written to a
# file, against `parcheck spmm --impl csr-serial` computing that Y, on the
# same case in the same run: the issue's banded matrix (2,000,000 rows,
# 54,000,000 entries, about 1.9 GB of Matrix Market text) with K = 16.
# csr-serial writes its Y with --out-y; check regenerates X from the seed.
# Target: the check (oracle seconds of its JSON) within 3x csr-serial's
# kernel median. Rows go to report/bench.csv (domain spmm, impls csr-serial
# and spmm-check), the figures to report/bench-spmm-check.txt, the two JSON
# files to report/bench-spmm-check-*.json. About 90 s and 3.5 GB of memory
# at the full size; SPMM_CHECK_BENCH_ROWS shrinks it (27 entries a row),
# SPMM_CHECK_BENCH_KEEP=1 keeps the matrix and Y under report/inputs.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
ROWS=${SPMM_CHECK_BENCH_ROWS:-2000000}
NNZ=$((ROWS * 27))
K=16
mkdir -p report/inputs
m=report/inputs/spmm-check-banded.mtx
y=report/inputs/spmm-check-banded-y.npy
case=banded-$ROWS
status=0
"$P" gen matrix --rows "$ROWS" --cols "$ROWS" --nnz "$NNZ" --shape banded --seed 1 -o "$m" || exit 1
echo "load before csr-serial: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s.%N)
"$P" spmm "$m" --impl csr-serial --k "$K" --reps 5 --seed 1 --x real --out-y "$y" \
  --json report/bench-spmm-check-serial.json > /dev/null || status=1
t1=$(date +%s.%N)
echo "load before spmm check: $(cut -d' ' -f1-3 /proc/loadavg)"
"$P" spmm check "$m" --y "$y" --seed 1 --x-kind real --json report/bench-spmm-check.json || status=1
t2=$(date +%s.%N)
python3 - "$case" "$t0" "$t1" "$t2" <<'PY' | tee report/bench-spmm-check.txt
import json, sys
case, t0, t1, t2 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
s = json.load(open('report/bench-spmm-check-serial.json'))
c = json.load(open('report/bench-spmm-check.json'))
ser, chk = s['results'][0], c['results'][0]
ratio = c['oracle']['seconds'] / ser['seconds']
m = chk['metrics']
with open('report/bench.csv', 'a') as f:
    f.write('spmm,%s,csr-serial,1,K=16,%.4f,%.3f,GFLOP/s,wall %.1f s with reading and the double-double oracle %.2f s\n'
            % (case, ser['seconds'], ser['throughput'], t1 - t0, s['oracle']['seconds']))
    f.write('spmm,%s,spmm-check,%d,K=16,%.4f,%.3f,Mentries/s,%.2fx csr-serial; wall %.1f s; slow path %d entries\n'
            % (case, c['input']['threads'], c['oracle']['seconds'], chk['throughput'], ratio, t2 - t1,
               m['slow_path_entries']))
print('spmm check on %s (%d x %d, %d entries, K = 16), %s' % (case, c['input']['rows'], c['input']['cols'],
      c['input']['nnz'], chk['status']))
print('  check %.3f s (%d threads) vs csr-serial kernel median %.3f s: %.2fx (target <= 3x)'
      % (c['oracle']['seconds'], c['input']['threads'], ser['seconds'], ratio))
print('  double-double oracle inside parcheck spmm: %.2f s (%.1fx csr-serial)'
      % (s['oracle']['seconds'], s['oracle']['seconds'] / ser['seconds']))
print('  end to end: parcheck spmm %.1f s, parcheck spmm check %.1f s (reading %.1f s, preparing %.2f s)'
      % (t1 - t0, t2 - t1, chk['timings']['read_s'], chk['timings']['prepare_s']))
print('  slow path: %d undecided, %d special; metrics equal: max_rel_err %.3g / %.3g, max_err_over_bound %.3g / %.3g'
      % (m['slow_undecided'], m['slow_special'], m['max_rel_err'], ser['metrics']['max_rel_err'],
         m['max_err_over_bound'], ser['metrics']['max_err_over_bound']))
sys.exit(0 if chk['status'] == 'pass' and ratio <= 3.0 else 1)
PY
[ "${PIPESTATUS[0]}" = 0 ] || status=1
[ -n "${SPMM_CHECK_BENCH_KEEP:-}" ] || rm -f "$m" "$y"
exit $status

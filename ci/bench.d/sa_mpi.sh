#!/usr/bin/env bash
# make bench, MPI suffix arrays: generated text (order-5 Markov
# model trained on the shared English texts when present), seq once, then
# parcheck-sa-mpi under mpirun at np = 1 2 4 8 16 (one thread per rank) and
# mpi-omp at 4x4 and 2x8 (ranks x threads). Every distributed SA and LCP is
# compared with seq's, which parcheck checks with the oracles. Rows go to
# report/bench.csv (domain sa_mpi, param = np, threads = per rank; note:
# speed-up and efficiency against seq, per-rank peaks), a summary with the
# targets to report/bench-sa_mpi.txt, the plot to report/bench-sa_mpi.svg.
#
# Knobs: SA_MPI_BENCH_BYTES (default 100000000), SA_MPI_BENCH_NP (default
# "1 2 4 8 16"), SA_MPI_BENCH_HYBRID (default "4x4 2x8"), SA_MPI_BENCH_REPS
# (default 1), SA_MPI_BENCH_WARM (default 1: ci/bench.d/warm_memory.py
# touches 48 bytes per input byte right before each mpirun, so that a run
# does not wait for a hypervisor to back memory it took back, see
# docs/README-sa-mpi.md; 0: cold), PARCHECK_MPIRUN_ARGS (extra mpirun options). Runs needing
# more than max(4, cores) processes x threads are left out (this shares
# the cores, it measures nothing), and reported as such.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
M=$(dirname "$P")/parcheck-sa-mpi
BYTES=${SA_MPI_BENCH_BYTES:-100000000}
NPS=${SA_MPI_BENCH_NP:-1 2 4 8 16}
HYB=${SA_MPI_BENCH_HYBRID:-4x4 2x8}
REPS=${SA_MPI_BENCH_REPS:-1}
DATA=${PARCHECK_DATA:-../shared/data}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v mpirun >/dev/null || [ ! -x "$M" ]; then
  echo "sa_mpi bench: skipped (no mpirun or $M)"
  exit 0
fi
cores=$(nproc)
cap=$(( cores > 4 ? cores : 4 ))
# shellcheck disable=SC2206
MPIRUN=(mpirun --oversubscribe ${PARCHECK_MPIRUN_ARGS:-})
mkdir -p report/inputs
# run alone (not through ci/bench.sh): the table's header, which the
# summary below reads by name
[ -s report/bench.csv ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv
W=$(mktemp -d /tmp/pc-sa-mpi-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
f=report/inputs/sa-mpi-bench-text
train=()
for t in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$t" ] && train+=(--train "$DATA/texts/$t")
done
if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" != "$BYTES" ]; then
  "$P" gen text --bytes "$BYTES" --kind text --seed 1 "${train[@]}" -o "$f" || exit 1
fi
status=0
echo "sa_mpi bench: $BYTES bytes, $cores cores (runs up to $cap processes x threads)"
# seq: the reference arrays (oracle-checked) and the time to beat
"$P" sa "$f" --impl seq --reps "$REPS" --json "$W/seq.json" --out-sa "$W/ref.sa" \
     --out-lcp "$W/ref.lcp" >/dev/null || { echo "seq failed"; exit 1; }
seq_s=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r['seconds'])" "$W/seq.json")
echo "sa_mpi,text,seq,1,1,$seq_s,$(python3 -c "print('%.3f' % ($BYTES/1e6/$seq_s))"),MB/s,reference" >> report/bench.csv
echo "seq: $seq_s s"

# run NP THREADS IMPL: best of REPS runs, checked against seq
run() {
  local np=$1 thr=$2 impl=$3 best="" line=""
  if [ $((np * thr)) -gt "$cap" ]; then
    echo "$impl ${np}x$thr: left out ($((np * thr)) > $cap processes x threads here)"
    return
  fi
  for _ in $(seq "$REPS"); do
    rm -f "$W"/m.*
    local bind=()
    [ "$thr" -gt 1 ] && bind=(--bind-to none)
    [ "${SA_MPI_BENCH_WARM:-1}" = 1 ] && python3 "$(dirname "$0")/warm_memory.py" $((BYTES * 48 / 1048576))
    if ! OMP_NUM_THREADS=$thr "${MPIRUN[@]}" "${bind[@]}" -x OMP_NUM_THREADS -np "$np" "$M" "$f" \
         --sa "$W/m.sa" --lcp "$W/m.lcp" --stats "$W/m.st" --quiet >"$W/m.log" 2>&1; then
      echo "FAIL $impl ${np}x$thr: $(head -c 300 "$W/m.log")"; status=1; return
    fi
    if ! cmp -s "$W/m.sa" "$W/ref.sa" || ! cmp -s "$W/m.lcp" "$W/ref.lcp"; then
      echo "FAIL $impl ${np}x$thr: SA or LCP differs from seq"; status=1; return
    fi
    local s
    s=$(grep -o ' seconds=[0-9.]*' "$W/m.st" | cut -d= -f2)
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $s < $best)"; then
      best=$s; line=$(cat "$W/m.st")
    fi
  done
  python3 - "$BYTES" "$seq_s" "$impl" "$np" "$thr" "$line" <<'PY' | tee -a report/bench.csv
import sys
n, seq, impl, np_, thr, line = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
st = dict(kv.split('=', 1) for kv in line.split()[1:])
s = float(st['seconds'])
MODEL = 36.0  # bytes per input byte over all ranks, construction (docs/README-sa-mpi.md)
target = 2 * MODEL * n / np_ + 62
build = int(st['build_alloc_bytes'])
rss = (int(st['build_rss_kb']) - int(st['base_rss_kb'])) * 1024
note = ('speedup %.2f eff %.0f%% rank peak: alloc %.0f MB rss %.0f MB (+%.0f MB MPI base) target %.0f MB%s; '
        'lcp %.2f s peak rss %.0f MB; rounds %s'
        % (seq / s, 100 * seq / s / (np_ * thr), build / 1e6, rss / 1e6, int(st['base_rss_kb']) / 1e3,
           target / 1e6, '' if max(build, rss) <= target else ' OVER', float(st['lcp_s']),
           int(st['peak_rss_kb']) / 1e3, st['rounds']))
print('sa_mpi,text,%s,%d,%d,%.4f,%.3f,MB/s,%s' % (impl, thr, np_, s, n / 1e6 / s, note))
PY
}
for np in $NPS; do run "$np" 1 mpi; done
for spec in $HYB; do run "${spec%x*}" "${spec#*x}" mpi-omp; done
if ! grep -q '^sa_mpi,text,mpi-omp' report/bench.csv && [ "$cores" -lt 16 ]; then
  run 2 2 mpi-omp
fi

python3 - "$BYTES" <<'PY' > report/bench-sa_mpi.txt
import csv, re, sys
rows = [r for r in csv.DictReader(open('report/bench.csv')) if r['domain'] == 'sa_mpi' and r['impl'] != 'seq']
print('MPI suffix arrays, %s bytes of generated text' % sys.argv[1])
for r in rows:
    print('%-8s %3s x %-2s %9.3f s %8.2f MB/s  %s' % (r['impl'], r['param'], r['threads'], float(r['seconds']), float(r['throughput']), r['note']))
e8 = [r for r in rows if r['impl'] == 'mpi' and r['param'] == '8']
if e8:
    eff = float(re.search(r'eff (\d+)%', e8[0]['note']).group(1))
    print('target: efficiency >= 50%% at 8 ranks: %.0f%% %s' % (eff, 'met' if eff >= 50 else 'NOT met'))
else:
    print('target: efficiency at 8 ranks: not measured here (too few cores)')
over = [r for r in rows if 'OVER' in r['note']]
print('target: per-rank peak <= 2 x model / np + window: %s' % ('met by every run' if not over else 'NOT met by %d runs' % len(over)))
PY
cat report/bench-sa_mpi.txt
if command -v gnuplot >/dev/null; then
  python3 - "$seq_s" <<'PY' > "$W/plot.dat"
import csv, sys
seq = float(sys.argv[1])
for r in csv.DictReader(open('report/bench.csv')):
    if r['domain'] == 'sa_mpi' and r['impl'] != 'seq':
        cores = int(r['param']) * int(r['threads'])
        print('%d %.4f %.4f "%s %sx%s"' % (cores, seq / float(r['seconds']), seq / float(r['seconds']) / cores, r['impl'], r['param'], r['threads']))
PY
  gnuplot <<GP || status=1
set terminal svg size 820,440
set output 'report/bench-sa_mpi.svg'
set title 'MPI suffix arrays, $BYTES bytes of text: speed-up against seq (labels: ranks x threads)'
set xlabel 'cores used (ranks x threads)'
set ylabel 'speed-up'
set y2label 'efficiency'
set y2tics
set logscale x 2
set grid
set key left top
plot x title 'ideal' with lines dt 2, \
     '$W/plot.dat' using 1:2 title 'speed-up' with points pt 7, \
     '' using 1:2:4 with labels offset 0,1 font ',8' notitle, \
     '' using 1:3 axes x1y2 title 'efficiency' with points pt 5, \
     0.5 axes x1y2 title '50% efficiency' with lines dt 3
GP
fi
exit $status

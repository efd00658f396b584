#!/usr/bin/env bash
# The suffix-array table: every implementation of this machine on every
# input class, side by side in one run, divsufsort among them. Classes:
# Markov text (trained on the shared English texts when present), random
# bytes, and the repetitive kinds of `parcheck gen text` (a random block
# of BYTES/64 repeated 64 times, dna, longperiod, periodic, fibonacci,
# thuemorse, zeros), SA_TABLE_BYTES each (default 32 MiB). Every run is
# `parcheck sa FILE --impl I` (validated by the oracles: a wrong SA is a
# `fail` cell) under `timeout SA_TABLE_LIMIT` (default 120 s): a run past
# it is the cell "> N s", so the prefix-doubling rows on repetitive
# inputs show how far they are from finishing instead of holding the
# table up. Threads: SA_TABLE_THREADS (default nproc) for omp and sais,
# ranks SA_TABLE_NP (default nproc) for mpi and dc3-mpi, mpi-omp as
# SA_TABLE_HYBRID ranks x threads (default: 4 x nproc/4, or 1 x nproc
# below 4 cores). The table (MB/s of the construction, median of
# SA_TABLE_REPS, default 1; the LCP is not in it) goes to
# report/bench-sa-table.md, each run's JSON to report/sa-table-BYTES/, which
# also makes the script resumable: a cell whose JSON exists is not run
# again (SA_TABLE_FRESH=1 clears them). SA_TABLE_IMPLS (a list) runs only
# those implementations. Right before each cell, ci/bench.d/warm_memory.py
# touches 80 bytes per input byte of memory and frees it, so that a run
# does not wait for a hypervisor to back memory it took back
# (docs/README-sa-mpi.md, "Benchmark on a 16-core host"); SA_TABLE_WARM=0
# runs them cold.
# Usage: ci/bench.d/sa_table.sh [BUILD]  (also run by make bench)
set -u
B=${1:-${BUILD:-build}}
P=${PARCHECK:-$PWD/$B/bin/parcheck}
[ -x "$P" ] || { echo "sa_table: $P not built"; exit 1; }
BYTES=${SA_TABLE_BYTES:-33554432}
LIMIT=${SA_TABLE_LIMIT:-120}
REPS=${SA_TABLE_REPS:-1}
WARM=${SA_TABLE_WARM:-1}
NC=$(nproc)
T=${SA_TABLE_THREADS:-$NC}
NP=${SA_TABLE_NP:-$NC}
if [ -n "${SA_TABLE_HYBRID:-}" ]; then HYB=$SA_TABLE_HYBRID
elif [ "$NC" -ge 4 ]; then HYB="4x$((NC / 4))"
else HYB="1x$NC"; fi
HNP=${HYB%x*}; HT=${HYB#*x}
DATA=${PARCHECK_DATA:-../shared/data}
OUTD=report/sa-table-$BYTES
mkdir -p report/inputs "$OUTD"
[ "${SA_TABLE_FRESH:-0}" = 1 ] && rm -f "$OUTD"/*.json
train=()
for f in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$f" ] && train+=(--train "$DATA/texts/$f")
done
CLASSES="text random repeat dna longperiod periodic fibonacci thuemorse zeros"
for c in $CLASSES; do
  f=report/inputs/sa-table-$c-$BYTES
  [ -f "$f" ] && continue
  extra=()
  [ "$c" = text ] && extra=("${train[@]}")
  [ "$c" = repeat ] && extra=(--block $((BYTES / 64)))
  "$P" gen text --bytes "$BYTES" --kind "$c" --seed 3 ${extra[@]+"${extra[@]}"} -o "$f" >/dev/null || exit 1
done
# the implementations this build can run here, in the table's order
IMPLS=""
# (SA_TABLE_IMPLS="sais divsufsort" keeps those only: a column refreshed
# without rerunning the rest)
for i in seq omp mpi mpi-omp dc3-mpi sais cuda cuda-ms cuda-dc divsufsort; do
  case " ${SA_TABLE_IMPLS:-$i} " in *" $i "*) ;; *) continue ;; esac
  "$P" list 2>/dev/null | grep -qE "^  $i +available" && IMPLS="$IMPLS $i"
done
opts_of() { # impl -> the options of its run
  case $1 in
    omp|sais) echo "--threads $T" ;;
    mpi) echo "--np $NP" ;;
    dc3-mpi) echo "--np $NP --threads 1" ;;
    mpi-omp) echo "--np $HNP --threads $HT" ;;
    *) echo "" ;;
  esac
}
echo "sa_table: $BYTES bytes, limit $LIMIT s, threads $T, np $NP, mpi-omp $HYB, memory $([ "$WARM" = 1 ] && echo warmed || echo cold) before each cell; implementations:$IMPLS"
for c in $CLASSES; do
  for i in $IMPLS; do
    j=$OUTD/$c-$i.json
    [ -s "$j" ] && continue
    echo "load $(cut -d' ' -f1-3 /proc/loadavg): $c $i $(opts_of "$i")"
    [ "$WARM" = 1 ] && python3 "$(dirname "$0")/warm_memory.py" $((BYTES * 80 / 1048576))
    # shellcheck disable=SC2046
    timeout -k 10 "$LIMIT" "$P" sa "report/inputs/sa-table-$c-$BYTES" --impl "$i" $(opts_of "$i") \
      --reps "$REPS" --quiet --json "$j.part" >/dev/null 2>"$OUTD/$c-$i.err"
    rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      echo "{\"timeout\": $LIMIT}" > "$j"
    elif [ -s "$j.part" ]; then
      mv "$j.part" "$j"
    else
      echo "{\"error\": $rc}" > "$j"
    fi
    rm -f "$j.part"
  done
done
python3 - "$OUTD" "$BYTES" "$LIMIT" "$T" "$NP" "$HYB" "$CLASSES" $IMPLS <<'PY' | tee report/bench-sa-table.md
import json, os, sys
d, nbytes, limit, T, NP, hyb, classes = sys.argv[1:8]
impls = sys.argv[8:]
classes = classes.split()
def cell(c, i):
    p = os.path.join(d, '%s-%s.json' % (c, i))
    if not os.path.exists(p):
        return 'not run'
    j = json.load(open(p))
    if 'timeout' in j:
        return '> %s s' % j['timeout']
    if 'error' in j:
        return 'error %s' % j['error']
    r = j['results'][0]
    if r['status'] != 'pass':
        return r['status']
    return '%.1f' % r['throughput']
def label(i):
    return {'omp': 'omp T=%s' % T, 'sais': 'sais T=%s' % T, 'mpi': 'mpi np=%s' % NP,
            'dc3-mpi': 'dc3-mpi np=%s' % NP, 'mpi-omp': 'mpi-omp %s' % hyb}.get(i, i)
print('Suffix array construction, MB/s (median of the runs; LCP not included), %s bytes per input, '
      'each run validated; "> N s": stopped after N seconds.' % nbytes)
print()
print('| class | ' + ' | '.join(label(i) for i in impls) + ' |')
print('|---' * (len(impls) + 1) + '|')
for c in classes:
    print('| %s | ' % c + ' | '.join(cell(c, i) for i in impls) + ' |')
PY

#!/usr/bin/env bash
# The distributed suffix-array targets on one many-core host:
#   ci/bench.d/sa_mpi_host.sh [BUILD]          (BUILD defaults to build)
# generates 64 MiB of Markov text (`gen text --kind text`, trained on the
# shared English texts when $PARCHECK_DATA/texts (default ../shared/data)
# has them: order-5 English, the text of the targets) and a 1 MiB
# random block repeated 64 times (`--kind repeat`), builds the reference
# SA once with `parcheck sa --impl sais` (checked by the oracles), then runs
# dc3-mpi (parcheck-sa-mpi --algo auto: DC3, or prefix doubling where its
# probe of the text says so; one thread per rank) at np = 1 2 4 8 16 and
# compares every SA with the reference byte for byte. For orientation,
# both algorithms forced (--algo dc3, --algo doubling) run at the largest
# np on both inputs (doubling on the repeat under a time limit: it needs
# log2(1 MiB) more rounds).
# Every run but the forced doubling is repeated SA_MPI_HOST_REPS times,
# the repetitions interleaved: on the GPU machine's host the same binary
# took 1.8 to 2.8 s for one input from call to call, and phases of equal
# work up to 1.7 times longer on one core than on another, so one run
# says little. Prints one row per configuration (the median of its runs
# and their range; seconds = the program's own construction time, MB/s =
# bytes / 10^6 / seconds), the 8 -> 16 speed-up and the targets, judged
# on the medians: >= 30 MB/s at 16 ranks on both inputs, 8 -> 16 ranks
# >= 1.6x. About 6-8 minutes on a 16-core machine (2-3 with one
# repetition). Under `make bench` (no BUILD argument, PARCHECK set) it
# runs only on machines with >= 16 cores.
# Open MPI's shared-memory transport copies a large message once
# (process_vm_readv, "cma") unless its environment says
# btl_vader_single_copy_mechanism=none, as the GPU machine's does (a
# container setting: CMA needs ptrace rights between the ranks). Where
# that is so, a probe run (4 MiB of the repeat at 16 ranks with cma, its
# SA compared with sais's) decides: if it works the benchmark uses cma and
# says so on its transport line (2026-11-27 on that machine: 2.15-2.23 s
# against 2.25-2.57 s for the repeat at 16 ranks), else it keeps none.
# Each run starts a fresh set of processes. On a virtual machine whose
# balloon reports free pages to the host, memory left free for a couple
# of seconds goes back to the host and the next run waits for the host to
# back it again (here, 16 MiB at 2 ranks: 1.66-2.53 s cold against
# 1.17-1.26 s warm, the difference all system time). So right before
# each timed run, ci/bench.d/warm_memory.py touches SA_MPI_HOST_WARM_MB of
# memory (default 80 bytes per input byte, the ranks' peaks together,
# at most half of MemAvailable) and frees it: the run then gets memory
# the host still backs, as a machine without a hypervisor would give it.
# SA_MPI_HOST_WARM=0 times them cold; the header line says which.
# Knobs: SA_MPI_HOST_BYTES (67108864), SA_MPI_HOST_NP ("1 2 4 8 16"),
# SA_MPI_HOST_REPS (3), SA_MPI_HOST_LIMIT (seconds per run, 150),
# SA_MPI_HOST_CMA (auto; 0: never probe), SA_MPI_HOST_WARM (1),
# SA_MPI_HOST_WARM_MB, PARCHECK_MPIRUN_ARGS.
set -u
if [ $# -ge 1 ]; then
  BUILD=$1
elif [ -n "${PARCHECK:-}" ]; then
  BUILD=$(dirname "$(dirname "$PARCHECK")")
  if [ "$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" -lt 16 ]; then
    echo "sa_mpi_host bench: skipped ($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores; it measures 16 ranks)"
    exit 0
  fi
else
  BUILD=build
fi
P=$BUILD/bin/parcheck
M=$BUILD/bin/parcheck-sa-mpi
BYTES=${SA_MPI_HOST_BYTES:-67108864}
NPS=${SA_MPI_HOST_NP:-1 2 4 8 16}
REPS=${SA_MPI_HOST_REPS:-3}
LIMIT=${SA_MPI_HOST_LIMIT:-150}
WARM=${SA_MPI_HOST_WARM:-1}
WARM_MB=${SA_MPI_HOST_WARM_MB:-$((BYTES * 80 / 1048576))}
WARM_PY=$(dirname "$0")/warm_memory.py
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
[ -x "$P" ] || { echo "$P not built"; exit 2; }
[ -x "$M" ] || { echo "$M not built (no mpicc?)"; exit 2; }
command -v mpirun >/dev/null || { echo "no mpirun"; exit 2; }
# shellcheck disable=SC2206
MPIRUN=(mpirun --oversubscribe -x OMP_NUM_THREADS ${PARCHECK_MPIRUN_ARGS:-})
W=$(mktemp -d /tmp/pc-sa-mpi-host-XXXXXX)
trap 'rm -rf "$W"' EXIT
start=$(date +%s)
DATA=${PARCHECK_DATA:-../shared/data}
train=()
for t in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$t" ] && train+=(--train "$DATA/texts/$t")
done
[ ${#train[@]} -gt 0 ] || echo "sa_mpi_host: no English texts in $DATA/texts: the text is the generator's own model"
"$P" gen text --kind text --bytes "$BYTES" --seed 1 ${train[@]+"${train[@]}"} -o "$W/text" >/dev/null || exit 2
"$P" gen text --kind repeat --bytes "$BYTES" --block $((BYTES / 64)) --seed 2 -o "$W/repeat" \
  >/dev/null || exit 2
CORES=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
echo "host: $CORES cores, $(mpirun --version 2>&1 | head -n 1), load: $(uptime | sed 's/.*load/load/')"
echo "machine memory: $(bash "$(dirname "$0")/../machine_memory.sh")"
if [ "$WARM" = 1 ]; then
  echo "memory: $WARM_MB MiB (at most half of MemAvailable) touched and freed right before each timed run ($WARM_PY; SA_MPI_HOST_WARM=0: cold)"
else
  echo "memory: cold (no warm-up before the runs)"
fi
# the transport (see the top): cma where the environment turned it off
# and a probe shows that it works
copy=$(ompi_info --param btl vader --level 9 2>/dev/null |
       sed -n 's/.*"btl_vader_single_copy_mechanism" (current value: "\([a-z]*\)".*/\1/p')
if [ "${SA_MPI_HOST_CMA:-auto}" != 0 ] && [ "$copy" = none ]; then
  head -c 4194304 "$W/repeat" >"$W/probe"
  if "$P" sa "$W/probe" --impl sais --out-sa "$W/probe.ref" >/dev/null 2>&1 &&
     timeout 60 "${MPIRUN[@]}" --mca btl_vader_single_copy_mechanism cma -np 16 "$M" "$W/probe" \
       --algo dc3 --no-lcp --sa "$W/probe.sa" --quiet >"$W/probe.log" 2>&1 &&
     cmp -s "$W/probe.sa" "$W/probe.ref"; then
    MPIRUN+=(--mca btl_vader_single_copy_mechanism cma)
    echo "transport: vader, single copy by cma (the environment's choice, none, overridden: the probe at 16 ranks worked)"
  else
    echo "transport: vader, single copy none (the environment's choice; cma failed its probe: $(head -c 200 "$W/probe.log"))"
  fi
  rm -f "$W/probe" "$W/probe.ref" "$W/probe.sa"
else
  echo "transport: vader, single copy ${copy:-unknown (not Open MPI, or no ompi_info)}"
fi
status=0
last_np=${NPS##* }
declare -A secs runs note
# once KIND ALGO NP: one mpirun; appends its seconds to runs[KIND-ALGO-NP]
once() {
  local kind=$1 algo=$2 np=$3 out key=$1-$2-$3
  rm -f "$W/m.sa" "$W/m.st"
  [ "$WARM" = 1 ] && python3 "$WARM_PY" "$WARM_MB"
  if ! out=$(timeout "$LIMIT" "${MPIRUN[@]}" -np "$np" "$M" "$W/$kind" --algo "$algo" --no-lcp \
             --sa "$W/m.sa" --stats "$W/m.st" --quiet 2>&1); then
    note[$key]="did not finish in $LIMIT s (or failed): $(echo "$out" | head -c 200)"
    [ "$algo" = doubling ] || status=1
    return
  fi
  cmp -s "$W/m.sa" "$W/$kind.ref" || { note[$key]="SA DIFFERS from sais"; status=1; }
  runs[$key]="${runs[$key]:-} $(grep -o ' seconds=[0-9.]*' "$W/m.st" | cut -d= -f2)"
  [ "$algo" = auto ] && note[$key]="${note[$key]:-} (ran $(grep -o ' algo=[a-z0-9]*' "$W/m.st" | cut -d= -f2), probe $(grep -o 'probe_sorts=[0-9.]*' "$W/m.st" | cut -d= -f2) sorts)"
}
# row KIND ALGO NP: the median of its runs (kept in secs), their range
row() {
  local kind=$1 algo=$2 np=$3 key=$1-$2-$3 stats
  if [ -z "${runs[$key]:-}" ]; then
    printf '%-7s %-9s np=%-3s %s\n' "$kind" "$algo" "$np" "${note[$key]:-no run}"
    return
  fi
  stats=$(echo "${runs[$key]}" | tr ' ' '\n' | grep . | sort -g | awk '
    { v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                         printf "%s %s %s %d", m, v[1], v[NR], NR }')
  # shellcheck disable=SC2086 # four numbers, split on purpose
  set -- $stats
  secs[$key]=$1
  local same="SA identical"
  case "${note[$key]:-}" in *DIFFERS*) same="SA DIFFERS from sais" ;; esac
  printf '%-7s %-9s np=%-3s %8.2f s %8.1f MB/s  (median of %d: %.2f-%.2f s)  %s%s\n' "$kind" "$algo" "$np" \
    "$1" "$(awk -v b="$BYTES" -v s="$1" 'BEGIN { print b / 1e6 / s }')" "$4" "$2" "$3" "$same" \
    "$(echo "${note[$key]:-}" | sed 's/SA DIFFERS from sais//; s/^\( (ran [^)]*)\).*/\1/')"
}
for kind in text repeat; do
  if ! "$P" sa "$W/$kind" --impl sais --threads "$CORES" --out-sa "$W/$kind.ref" \
       >"$W/ref.log" 2>&1; then
    echo "reference (sais) failed on $kind: $(head -c 300 "$W/ref.log")"
    exit 1
  fi
  # the repetitions interleaved, so that a host that slows down for a
  # while slows every rank count alike
  for _ in $(seq "$REPS"); do
    for np in $NPS; do once "$kind" auto "$np"; done
    once "$kind" dc3 "$last_np"
  done
  once "$kind" doubling "$last_np"
  for np in $NPS; do row "$kind" auto "$np"; done
  row "$kind" dc3 "$last_np"
  row "$kind" doubling "$last_np"
done
echo "targets (dc3-mpi, --algo auto; medians):"
for kind in text repeat; do
  s16=${secs[$kind-auto-16]:-} s8=${secs[$kind-auto-8]:-}
  if [ -n "$s16" ]; then
    mbs=$(awk -v b="$BYTES" -v s="$s16" 'BEGIN { print b / 1e6 / s }')
    ok=$(awk -v x="$mbs" 'BEGIN { print (x >= 30) }')
    printf '  %-7s 16 ranks: %.1f MB/s (target >= 30): %s\n' "$kind" "$mbs" \
      "$([ "$ok" = 1 ] && echo met || echo MISSED)"
  fi
  if [ -n "$s16" ] && [ -n "$s8" ]; then
    r=$(awk -v a="$s8" -v b="$s16" 'BEGIN { print a / b }')
    ok=$(awk -v x="$r" 'BEGIN { print (x >= 1.6) }')
    printf '  %-7s 8 -> 16 ranks: %.2fx (target >= 1.6): %s\n' "$kind" "$r" \
      "$([ "$ok" = 1 ] && echo met || echo MISSED)"
  fi
done
echo "($(( $(date +%s) - start )) s)"
exit $status

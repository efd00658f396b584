#!/usr/bin/env bash
# sais on a many-core host: MB/s of suffix array construction (LCP and the
# oracle checks not counted) per input class at 1, 8 and 16 threads, beside
# divsufsort at 1 thread when the build has it (the line says so when not).
#
#   ci/bench.d/sa_sais_host.sh [BUILD_DIR]      (default: build, or $BUILD)
#
# Classes: Markov text (gen text --kind text, 64 MiB, trained on the
# shared English texts when $PARCHECK_DATA/texts has them: the issue's
# 16-core targets are for 64-100 MB inputs), a random block of 1 MiB
# repeated 64 times (64 MiB), dna, fibonacci, thuemorse, zeros,
# longperiod (32 MiB each). Targets checked at 16 threads: text >= 45 MB/s,
# repeat >= 40 MB/s. The table goes to stdout and to
# report/bench-sa_sais_host.txt, the JSON of each run to
# report/bench-sa_sais_host-*.json, with the load average before each run.
#
# Knobs: SA_HOST_THREADS (default "1 8 16"), SA_HOST_REPS (default 3),
# SA_HOST_KINDS (default all seven), SA_HOST_BYTES (default 33554432: the
# size of the classes but text and the repeat, half theirs; smaller for a
# smoke run; the targets hold at the defaults only), SA_HOST_TEXT_BYTES
# (the text's size, default twice SA_HOST_BYTES), SA_HOST_REPEAT_BYTES (the
# repeat's size, default twice SA_HOST_BYTES; its block is a 64th of it:
# 33554432 gives the 512 KiB block x 64 of the 2-core targets). Run by `make bench` too, where it
# measures only on hosts of at least 8 cores (on fewer the threads would
# share cores and measure nothing): SA_HOST_FORCE=1 runs it anyway.
set -u
BUILD_DIR=${1:-${BUILD:-build}}
P=${PARCHECK:-$BUILD_DIR/bin/parcheck}
THREADS=${SA_HOST_THREADS:-1 8 16}
REPS=${SA_HOST_REPS:-3}
KINDS=${SA_HOST_KINDS:-text repeat dna fibonacci thuemorse zeros longperiod}
DATA=${PARCHECK_DATA:-../shared/data}
B=${SA_HOST_BYTES:-33554432}
RB=${SA_HOST_REPEAT_BYTES:-$((2 * B))}
TB=${SA_HOST_TEXT_BYTES:-$((2 * B))}
if [ ! -x "$P" ]; then
  echo "sa_sais_host: $P is not an executable parcheck (give the build dir)" >&2
  exit 2
fi
if [ "$(nproc)" -lt 8 ] && [ "${SA_HOST_FORCE:-0}" != 1 ]; then
  echo "sa_sais_host: skipped ($(nproc) cores; for hosts of >= 8 cores, SA_HOST_FORCE=1 to run)"
  exit 0
fi
have_dss=0
"$P" list 2>/dev/null | grep -Eq '^ *divsufsort +available' && have_dss=1
mkdir -p report/inputs
out=report/bench-sa_sais_host.txt
: > "$out"
say() { echo "$*" | tee -a "$out"; }
train=()
for t in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$t" ] && train+=(--train "$DATA/texts/$t")
done
say "sa_sais_host: $(nproc) cores, $("$P" --version 2>/dev/null | head -n 1), $(date -u '+%F %T') UTC"
say "memory: $(bash "$(dirname "$0")/../machine_memory.sh")"
[ "$have_dss" = 1 ] || say "divsufsort: not in this build (no column)"
status=0
# MB/s of one impl at T threads on file F (JSON kept); empty on failure
mbs() { # impl threads file tag
  local j=report/bench-sa_sais_host-$4-$1-$2.json
  echo "load before $4 $1 $2 threads: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
  if ! "$P" sa "$3" --impl "$1" --threads "$2" --reps "$REPS" --json "$j" --quiet >/dev/null; then
    status=1
    return
  fi
  python3 - "$j" "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))['results']:
    if r['impl'] == sys.argv[2] and r['status'] == 'pass':
        print('%.1f' % r['throughput'])
PY
}
hdr=$(printf '%-11s' class)
for t in $THREADS; do hdr+=$(printf ' %10s' "sais T=$t"); done
[ "$have_dss" = 1 ] && hdr+=$(printf ' %11s' "divsufsort")
say "MB/s (construction only, median of $REPS):"
say "$hdr"
declare -A last
for k in $KINDS; do
  f=report/inputs/sa-host-$k
  case $k in
    text) args=(--seed 1 --bytes "$TB" "${train[@]}") ;;
    repeat) args=(--seed 2 --bytes "$RB" --block $((RB / 64))) ;;
    *) args=(--seed 3 --bytes "$B") ;;
  esac
  f=$f-$B
  [ "$k" = repeat ] && f=$f-$RB
  [ "$k" = text ] && f=$f-$TB-${#train[@]}
  [ -f "$f" ] || "$P" gen text --kind "$k" "${args[@]}" -o "$f" >/dev/null || { status=1; continue; }
  line=$(printf '%-11s' "$k")
  for t in $THREADS; do
    v=$(mbs sais "$t" "$f" "$k")
    line+=$(printf ' %10s' "${v:-FAIL}")
    last[$k]=${v:-0}
  done
  if [ "$have_dss" = 1 ]; then
    v=$(mbs divsufsort 1 "$f" "$k")
    line+=$(printf ' %11s' "${v:-FAIL}")
  fi
  say "$line"
done
# the 16-thread targets, when the largest thread count measured is 16 or
# more (a run at 1 and 2 threads compares with divsufsort instead: its
# 2-core targets are ratios, read off the table)
tmax=$(echo "$THREADS" | tr ' ' '\n' | sort -n | tail -n 1)
[ "$tmax" -ge 16 ] || { say "(16-thread targets not checked: at most $tmax threads measured)"; exit $status; }
for kt in text:45 repeat:40; do
  k=${kt%%:*}
  want=${kt##*:}
  [ -n "${last[$k]:-}" ] || continue
  verdict=$(python3 -c "print('met' if float('${last[$k]}') >= $want else 'NOT met')")
  say "target $k at $tmax threads >= $want MB/s: ${last[$k]} MB/s, $verdict"
done
exit $status

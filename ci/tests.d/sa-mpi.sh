#!/usr/bin/env bash
# MPI suffix arrays: parcheck-sa-mpi under mpirun -np 1..4
# --oversubscribe must give the same SA and LCP arrays (and longest repeat)
# as seq, whose arrays the oracles check (parcheck sa --impl seq --out-sa
# --out-lcp). Inputs: 1 MB of zeros, a period longer than a block, a random
# block repeated across every boundary, n < np, n = 0 and 1, n = 1 and 2 at
# np = 4 (empty ranks, also between non-empty ones), blocks of one byte, n
# not divisible by np, seeded random and generated texts, every file of
# the shared data folder's texts/ (bible.txt at np 2 and 4 only). Also: parcheck sa
# --impl mpi,mpi-omp (validated in-process by the oracles), --gather, and
# bad usage (clear message, non-zero exit, no hang).
# --algo auto (what dc3-mpi runs: DC3 or doubling, by a sampled probe of
# the text) runs a dozen of the cases at the largest np (AUTO_CASES), and
# its probe is checked.
# dc3-mpi (--algo dc3; DC7 at the first level, DC3 below; SAM_DC7=0, DC3
# at every level, on the AUTO_CASES at np 1 and 4) runs every case too, with SAM_DC3_BASE=0 so that
# even tiny inputs go through the distributed levels down to n = 0 (the
# default gathers levels up to 2^20 symbols on rank 0), and with a base of
# 1000 (recursion, then SA-IS on rank 0); also the repetitive kinds of
# `gen text` (repeat, longperiod, dna) at np 1-4.
# SA_MPI_TEXT_MAX_BYTES=N leaves out (SKIPPED) the shared texts over N bytes:
# ci/sanitize.sh sets 1000000, as those take the smaller texts' paths.
# Prints "SUMMARY passed=N failed=N skipped=N"; exits 1 when a test failed.
set -u
BUILD=${1:-build}
P=$PWD/$BUILD/bin/parcheck
M=$PWD/$BUILD/bin/parcheck-sa-mpi
DATA=${PARCHECK_DATA:-../shared/data}
passed=0 failed=0 skipped=0
summary() { echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"; }
skip_all() { echo "SKIPPED ($1)"; skipped=1; summary; exit 0; }
command -v mpirun >/dev/null || skip_all "no mpirun"
[ -x "$M" ] || skip_all "$M not built (no mpicc?)"
[ -x "$P" ] || skip_all "$P not built"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck disable=SC2206
MPIRUN=(mpirun --oversubscribe -x SAM_DC3_BASE -x SAM_DC7 ${PARCHECK_MPIRUN_ARGS:-})
export SAM_DC3_BASE=${SAM_DC3_BASE:-0} SAM_DC7=${SAM_DC7:-1}
W=$(mktemp -d /tmp/pc-sa-mpi-test-XXXXXX)
trap 'rm -rf "$W"' EXIT
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
json_int() { grep -o "\"$1\":-\?[0-9]*" "$2" | head -n 1 | cut -d: -f2; }

# ref FILE: seq's oracle-checked SA, LCP and longest repeat into $W/ref.*
ref() {
  rm -f "$W"/ref.*
  if ! "$P" sa "$1" --impl seq --out-sa "$W/ref.sa" --out-lcp "$W/ref.lcp" \
       --json "$W/ref.json" >"$W/ref.log" 2>&1; then
    fail "seq on $1: $(head -c 300 "$W/ref.log")"
    return 1
  fi
  touch "$W/ref.sa" "$W/ref.lcp"
}

# run_into DIR LABEL FILE NP THREADS [program options]: one mpirun against
# the ref, its verdict ("pass" or the failure) in DIR/verdict. DIR is the
# run's own: its outputs and TMPDIR (Open MPI's session directory), so that
# several runs can go at once.
run_into() {
  local d=$1 label=$2 f=$3 np=$4 thr=$5
  shift 5
  rm -rf "$d" && mkdir -p "$d/tmp"
  local why=""
  if ! TMPDIR=$d/tmp OMP_NUM_THREADS=$thr timeout 300 "${MPIRUN[@]}" -np "$np" "$M" "$f" --sa "$d/m.sa" \
       --lcp "$d/m.lcp" --stats "$d/m.st" --quiet "$@" >"$d/m.log" 2>&1; then
    echo "$label np=$np t=$thr: exit status $? $(head -c 400 "$d/m.log")" >"$d/verdict"
    return
  fi
  touch "$d/m.sa" "$d/m.lcp"
  cmp -s "$d/m.sa" "$W/ref.sa" || why="SA differs from seq;"
  cmp -s "$d/m.lcp" "$W/ref.lcp" || why="$why LCP differs from seq;"
  local len pos
  len=$(grep -o 'lrs_len=-\?[0-9]*' "$d/m.st" | cut -d= -f2)
  pos=$(grep -o 'lrs_pos=-\?[0-9]*' "$d/m.st" | cut -d= -f2)
  [ "$len" = "$(json_int lrs_length "$W/ref.json")" ] || why="$why LRS length $len;"
  [ "$pos" = "$(json_int lrs_pos "$W/ref.json")" ] || why="$why LRS position $pos;"
  if [ -n "$why" ]; then echo "$label np=$np t=$thr: $why" >"$d/verdict"; else echo pass >"$d/verdict"; fi
}

# tally_run DIR: count the verdict of one run_into
tally_run() {
  local v
  v=$(cat "$1/verdict" 2>/dev/null || echo "${1##*/}: no verdict")
  if [ "$v" = pass ]; then pass; else fail "$v"; fi
}

# run LABEL FILE NP THREADS [program options]: one mpirun against the ref
run() {
  run_into "$W/run" "$@"
  tally_run "$W/run"
}

# case LABEL FILE [NP...]: ref once, then every np (default 1 2 3 4), the
# runs side by side (mpirun start-up is mostly waiting, not computing)
case_() {
  local label=$1 f=$2
  shift 2
  ref "$f" || return
  local nps=("$@")
  [ ${#nps[@]} -gt 0 ] || nps=(1 2 3 4)
  # two waves of runs side by side: prefix doubling at every np, then DC3
  # (SAM_DC3_BASE=0: every level distributed, even for tiny inputs) at
  # every np and once with a base level of 1000 symbols
  for np in "${nps[@]}"; do run_into "$W/run$np" "$label" "$f" "$np" 1 & done
  wait
  for np in "${nps[@]}"; do tally_run "$W/run$np"; done
  for np in "${nps[@]}"; do
    SAM_DC3_BASE=0 run_into "$W/dc3-$np" "$label-dc3" "$f" "$np" 1 --algo dc3 &
  done
  SAM_DC3_BASE=1000 run_into "$W/dc3-base" "$label-dc3-base1000" "$f" "${nps[-1]}" 1 --algo dc3 &
  local auto=0
  case " $AUTO_CASES " in *" $label "*) auto=1 ;; esac
  [ $auto = 1 ] && run_into "$W/auto" "$label-auto" "$f" "${nps[-1]}" 1 --algo auto &
  # the same cases with DC3 at the first level too (SAM_DC7=0; DC7 is the
  # default there), at np 1 and the largest np
  if [ $auto = 1 ]; then
    SAM_DC7=0 run_into "$W/dc3only-1" "$label-dc3-first" "$f" 1 1 --algo dc3 &
    SAM_DC7=0 run_into "$W/dc3only" "$label-dc3-first" "$f" "${nps[-1]}" 1 --algo dc3 &
  fi
  wait
  for np in "${nps[@]}"; do tally_run "$W/dc3-$np"; done
  tally_run "$W/dc3-base"
  [ $auto = 1 ] && { tally_run "$W/auto"; tally_run "$W/dc3only-1"; tally_run "$W/dc3only"; }
  echo "ok $label (n=$(stat -c %s "$f"), np ${nps[*]})"
}

start=$(date +%s)
# --algo auto runs on these cases (the layouts its probe meets: no text,
# blocks too short for a window, random, Markov, periodic and repetitive
# texts; each mpirun costs ~1 s, so not on every case)
AUTO_CASES="n0 n1 n3 n2-aa n7 repeat-997 random-s1 text-s3 periodic-s4 kind-repeat kind-dna alice29.txt"
G=$W/in
mkdir -p "$G"
gen() { "$P" gen text "$@" >/dev/null || fail "gen text $*"; }
gen --bytes 1000000 --kind zeros --seed 1 -o "$G/zeros-1m"
# a period of 60000 random bytes: longer than every block at np >= 2
gen --bytes 60000 --kind random --seed 7 -o "$G/p60k"
cat "$G/p60k" "$G/p60k" | head -c 100000 > "$G/period-60000"
# 997 random bytes repeated: repeats cross every block boundary, and
# 100003 is divisible by none of 2, 3, 4
gen --bytes 997 --kind random --seed 8 -o "$G/r997"
for _ in $(seq 101); do cat "$G/r997"; done | head -c 100003 > "$G/repeat-997"
printf 'aba' > "$G/n3"
printf 'b' > "$G/n1"
: > "$G/n0"
# Layouts of the r*n/np blocks at np 4: n = 2 leaves ranks 0 and 2 empty,
# an empty rank between two non-empty ones; n = 4 gives blocks of one byte
# each; n = 5, 6, 7 mix one- and two-byte blocks. Each text needs its
# neighbour's bytes to order its suffixes (repeats across the blocks).
printf 'aa' > "$G/n2-aa"
printf 'ba' > "$G/n2-ba"
printf 'aaaa' > "$G/n4-aaaa"
printf 'abab' > "$G/n4-abab"
printf 'abaab' > "$G/n5"
printf 'aabaab' > "$G/n6"
printf 'baaaaab' > "$G/n7"
printf '\xff\x00\xff' > "$G/n3-high"
gen --bytes 30001 --kind random --seed 1 -o "$G/random-s1"
gen --bytes 20011 --kind random --seed 2 -o "$G/random-s2"
gen --bytes 200003 --kind text --seed 3 -o "$G/text-s3"
gen --bytes 100000 --kind periodic --seed 4 -o "$G/periodic-s4"
gen --bytes 50000 --kind fibonacci --seed 5 -o "$G/fibonacci"
gen --bytes 50000 --kind thuemorse --seed 6 -o "$G/thuemorse"
# the repetitive kinds of gen text (what prefix doubling is slow on)
gen --bytes 300007 --kind repeat --block 4099 --seed 9 -o "$G/kind-repeat"
gen --bytes 200003 --kind longperiod --block 5003 --seed 10 -o "$G/kind-longperiod"
gen --bytes 200003 --kind dna --block 8192 --seed 11 -o "$G/kind-dna"
for f in zeros-1m period-60000 repeat-997 n3 n1 n0 random-s1 random-s2 text-s3 periodic-s4 \
         fibonacci thuemorse kind-repeat kind-longperiod kind-dna; do
  case_ "$f" "$G/$f"
done
# the small layouts at np 4 only (where they arise; each mpirun costs ~1 s)
for f in n2-aa n2-ba n4-aaaa n4-abab n5 n6 n7 n3-high; do
  case_ "$f" "$G/$f" 4
done

if [ -d "$DATA/texts" ]; then
  for f in "$DATA"/texts/*; do
    [ -f "$f" ] || continue
    if [ -n "${SA_MPI_TEXT_MAX_BYTES:-}" ] && [ "$(wc -c <"$f")" -gt "$SA_MPI_TEXT_MAX_BYTES" ]; then
      echo "SKIPPED $(basename "$f"): over SA_MPI_TEXT_MAX_BYTES=$SA_MPI_TEXT_MAX_BYTES"
      skipped=$((skipped + 1))
      continue
    fi
    case $(basename "$f") in
      bible.txt) case_ "$(basename "$f")" "$f" 2 4 ;;
      *) case_ "$(basename "$f")" "$f" ;;
    esac
  done
else
  echo "SKIPPED (no $DATA/texts: shared texts not checked)"
  skipped=$((skipped + 1))
fi

# OpenMP inside the ranks, and the gathered output
ref "$G/text-s3" && { run text-s3-omp "$G/text-s3" 2 2; run text-s3-gather "$G/text-s3" 3 1 --gather; }
ref "$G/repeat-997" && run repeat-997-omp "$G/repeat-997" 3 2
ref "$G/zeros-1m" && run zeros-1m-omp "$G/zeros-1m" 2 2
# dc3-mpi with OpenMP inside the ranks (parallel radix sorts from 65536
# records: text-s3 and kind-repeat reach them), and gathered
ref "$G/text-s3" && { run text-s3-dc3-omp "$G/text-s3" 2 2 --algo dc3
                      run text-s3-dc3-gather "$G/text-s3" 3 1 --algo dc3 --gather; }
ref "$G/kind-repeat" && run kind-repeat-dc3-omp "$G/kind-repeat" 3 2 --algo dc3
ref "$G/n2-aa" && run n2-aa-dc3-omp "$G/n2-aa" 4 2 --algo dc3
# the radix sorts by 64-bit keys go MSD first from 65536 records whose keys
# span over 24 bits (600 KB of text at np 1: the keys, the DC7 classes,
# the doubling's rounds), with their buckets shared among threads; where
# half the keys share the top digit (lines of 499 'a': 94% of the keys
# are all 'a') they fall back to the LSD passes. Inside a bucket the text
# takes every way of sam_radix.h's name##_bucket (counted in a traced
# build, 2026-11-27: at dc3, 474 buckets by the sub-digit pass with 41992
# insertion sorts and 442 sub-buckets by LSD passes, 226 buckets by LSD
# passes alone)
gen --bytes 600000 --kind text --seed 12 -o "$G/text-600k"
yes "$(printf %0499d 0 | tr 0 a)" | head -c 600000 > "$G/mostly-a"
for f in text-600k mostly-a; do
  ref "$G/$f" || continue
  run "$f-omp" "$G/$f" 1 2
  run "$f-dc3-omp" "$G/$f" 1 2 --algo dc3
  SAM_DC7=0 run "$f-dc3-first-omp" "$G/$f" 1 2 --algo dc3
done
# --algo auto (dc3-mpi's default) with threads: the probe's counting pass
# is shared from 65536 windows a rank
ref "$G/text-s3" && run text-s3-auto-omp "$G/text-s3" 2 2 --algo auto

# --algo auto's probe (SAM_VERBOSE=1 prints it): the fraction of sampled
# windows that occur twice is exactly 0 for 16 and 128 bytes of 30001
# random bytes, exactly 1 on 997 bytes repeated (every window recurs 997
# on or back), and the verdict follows the estimate and SAM_AUTO_ROUNDS:
# doubling on random bytes, dc3 on the repeat, each forced the other way
probe_line() { # FILE NP ROUNDS: the probe's and the verdict's lines
  SAM_VERBOSE=1 SAM_AUTO_ROUNDS=$3 OMP_NUM_THREADS=1 timeout 60 "${MPIRUN[@]}" -x SAM_VERBOSE \
      -x SAM_AUTO_ROUNDS -np "$2" "$M" "$1" --no-lcp --quiet --algo auto --stats "$W/probe.st" 2>&1 \
    | grep -E '^sa-mpi (probe|auto):'
}
expect_probe() { # LABEL FILE NP ROUNDS REGEX(probe line) ALGO
  local out
  out=$(probe_line "$2" "$3" "$4")
  if grep -qE "$5" <<<"$out" && grep -q "^sa-mpi auto: $6 " <<<"$out" \
     && grep -q "algo=$6 " "$W/probe.st"; then pass; else
    fail "probe $1: expected /$5/ and $6, got: $out $(cat "$W/probe.st" 2>/dev/null)"; fi
}
expect_probe random "$G/random-s1" 2 "" 'f\(16\)=0\.0000 f\(128\)=0\.0000;' doubling
expect_probe random-np3 "$G/random-s1" 3 "" 'f\(16\)=0\.0000 f\(128\)=0\.0000;' doubling
expect_probe repeat "$G/repeat-997" 2 "" 'f\(16\)=1\.0000 f\(128\)=1\.0000;' dc3
expect_probe repeat-forced "$G/repeat-997" 2 1e9 'f\(16\)=1\.0000' doubling
expect_probe random-forced "$G/random-s1" 2 0 'f\(16\)=0\.0000' dc3
# blocks too short for 8 windows of 16 bytes: no fraction, so the
# estimate assumes every window repeats (6 more rounds on 300 bytes): dc3;
# a text shorter than the first round's keys is one sort: doubling
head -c 300 "$G/random-s1" > "$G/random-300"
expect_probe short-blocks "$G/random-300" 4 "" 'shared windows;' dc3
expect_probe tiny "$G/n7" 4 "" 'shared windows;' doubling
# small layouts with OpenMP inside the ranks, and gathered
ref "$G/n2-aa" && { run n2-aa-omp "$G/n2-aa" 4 2; run n2-aa-gather "$G/n2-aa" 4 1 --gather; }

# dc3-mpi under injected allocation failures (PARCHECK_FAIL_ALLOC=N fails
# the N-th pc_alloc of every rank): each run ends with an "out of memory
# for ..." message and exit 2 (MPI_Abort), never a hang or a wrong array;
# past the last allocation it succeeds with seq's arrays. N runs over a
# Fibonacci series up to beyond the allocations of the run (~400 a rank).
ref "$G/text-s3" && {
  a=1 b=2 ok_runs=0 f0=$failed
  while [ "$a" -le 1600 ]; do
    rm -f "$W"/m.*
    PARCHECK_FAIL_ALLOC=$a SAM_DC3_BASE=1000 OMP_NUM_THREADS=1 timeout 120 "${MPIRUN[@]}" \
      -x PARCHECK_FAIL_ALLOC -np 2 "$M" "$G/text-s3" --algo dc3 --sa "$W/m.sa" --quiet \
      >"$W/m.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      cmp -s "$W/m.sa" "$W/ref.sa" && ok_runs=$((ok_runs + 1)) \
        || fail "dc3 PARCHECK_FAIL_ALLOC=$a: exit 0 with a wrong SA"
    elif [ $rc -eq 124 ] || ! grep -q 'out of memory for' "$W/m.log"; then
      fail "dc3 PARCHECK_FAIL_ALLOC=$a: exit $rc, $(head -c 300 "$W/m.log")"
    fi
    t=$((a + b)); a=$b; b=$t
  done
  [ "$ok_runs" -gt 0 ] || fail "dc3 PARCHECK_FAIL_ALLOC: no run got past the last allocation"
  [ "$failed" -eq "$f0" ] && { pass; echo "ok dc3 allocation failures (N up to $a)"; }
}

# --algo auto under the same failures, over its first allocations (the
# context, the text block, both stages of the probe: text-s3's first
# stage bounds its estimate by 2.0 and 4.9 sorts, so a threshold of 4
# leaves the verdict open and the second stage runs): the same clean end.
# Four runs at a time.
ref "$G/text-s3" && {
  f0=$failed
  for a in $(seq 1 16); do
    mkdir -p "$W/fa$a.tmp"
    (PARCHECK_FAIL_ALLOC=$a SAM_AUTO_ROUNDS=4 OMP_NUM_THREADS=1 TMPDIR=$W/fa$a.tmp timeout 120 \
       "${MPIRUN[@]}" -x PARCHECK_FAIL_ALLOC -x SAM_AUTO_ROUNDS -np 2 "$M" "$G/text-s3" --algo auto --no-lcp --quiet \
       >"$W/fa$a.log" 2>&1; echo $? >"$W/fa$a.rc") &
    [ $((a % 4)) -eq 0 ] && wait
  done
  wait
  for a in $(seq 1 16); do
    rc=$(cat "$W/fa$a.rc")
    if [ "$rc" -ne 2 ] || ! grep -q 'out of memory for' "$W/fa$a.log"; then
      fail "auto PARCHECK_FAIL_ALLOC=$a: exit $rc, $(head -c 300 "$W/fa$a.log")"
    fi
  done
  grep -q "out of memory for the probe's table" "$W"/fa1[0-6].log \
    || fail "auto PARCHECK_FAIL_ALLOC=10..16: the second stage's allocations not reached"
  [ "$failed" -eq "$f0" ] && { pass; echo "ok auto allocation failures (N 1-16)"; }
}

# through parcheck sa: launched by sa_run_external, checked by the oracles
for spec in "$G/repeat-997 3" "$G/n3 4" "$G/n0 2" "$G/n1 4" "$G/n2-aa 4" \
            "$DATA/texts/alice29.txt 2"; do
  set -- $spec
  [ -f "$1" ] || continue
  if out=$(timeout 300 "$P" sa "$1" --impl seq,mpi,mpi-omp,dc3-mpi --np "$2" --threads 2 2>&1); then
    pass
  else
    fail "parcheck sa $1 --impl seq,mpi,mpi-omp,dc3-mpi --np $2: $out"
  fi
done
PARCHECK_SA_MPI=/nonexistent timeout 60 "$P" sa "$G/n3" --impl mpi >/dev/null 2>&1
[ $? -eq 3 ] && pass || fail "missing program: expected exit 3 (explicit impl unavailable)"

# threads per rank without OMP_NUM_THREADS: the node's processors shared
# among its ranks (never more threads than processors; OpenMP's default
# gave every rank all of them), and OMP_NUM_THREADS when it is set
for np in 2 3; do
  env -u OMP_NUM_THREADS timeout 60 "${MPIRUN[@]}" -np "$np" "$M" "$G/repeat-997" --no-lcp \
      --stats "$W/thr.st" --quiet >"$W/thr.log" 2>&1
  thr=$(grep -o 'threads=[0-9]*' "$W/thr.st" 2>/dev/null | cut -d= -f2)
  cpus=$(nproc)
  if [ -n "$thr" ] && [ "$thr" -ge 1 ] && { [ $((thr * np)) -le "$cpus" ] || [ "$thr" -eq 1 ]; }; then
    pass
  else
    fail "threads per rank at np=$np on $cpus processors: '${thr}' ($(head -c 200 "$W/thr.log"))"
  fi
done
OMP_NUM_THREADS=3 timeout 60 "${MPIRUN[@]}" -x OMP_NUM_THREADS -np 2 "$M" "$G/repeat-997" --no-lcp \
    --stats "$W/thr.st" --quiet >"$W/thr.log" 2>&1
grep -q 'threads=3 ' "$W/thr.st" 2>/dev/null && pass || fail "OMP_NUM_THREADS=3 not taken: $(cat "$W/thr.st" 2>/dev/null)"

# SAM_VERBOSE=1: two lines of time per phase after the construction, the
# maximum and the minimum over the ranks, for both algorithms (every phase
# named, each a number, no minimum above its maximum); none without it
phases='sa-mpi phases \(s, (max|min) over ranks\): keys [0-9.]+ splitters [0-9.]+ buckets [0-9.]+ exchange [0-9.]+ local-sort [0-9.]+ names [0-9.]+ route [0-9.]+ fetch [0-9.]+ base [0-9.]+ probe [0-9.]+ ls-keys [0-9.]+ ls-split [0-9.]+ ls-class0 [0-9.]+ ls-place [0-9.]+ ls-merge [0-9.]+ ex-wait [0-9.]+$'
for algo in dc3 doubling; do
  SAM_VERBOSE=1 OMP_NUM_THREADS=1 timeout 60 "${MPIRUN[@]}" -x SAM_VERBOSE -np 2 "$M" "$G/repeat-997" \
      --no-lcp --quiet --algo "$algo" >"$W/prof.log" 2>&1
  if [ "$(grep -cE "$phases" "$W/prof.log")" = 2 ] && grep -E "$phases" "$W/prof.log" | awk '
       $4 == "max" { for (i = 7; i < NF; i += 2) hi[$i] = $(i + 1) }
       $4 == "min" { for (i = 7; i < NF; i += 2) { lo[$i] = $(i + 1); seen++ } }
       END { if (seen != 16) exit 1; for (k in lo) if (!(k in hi) || lo[k] + 0 > hi[k] + 0) exit 1 }'; then
    pass
  else
    fail "SAM_VERBOSE=1 --algo $algo: no max and min phase lines: $(head -c 300 "$W/prof.log")"
  fi
done
OMP_NUM_THREADS=1 timeout 60 "${MPIRUN[@]}" -np 2 "$M" "$G/repeat-997" --no-lcp --quiet --algo dc3 \
    >"$W/prof.log" 2>&1
if grep -q 'sa-mpi phases' "$W/prof.log"; then fail "phase line without SAM_VERBOSE"; else pass; fi
# SAM_VERBOSE=2: also a line a rank (its host and processor), the max and
# min lines being each phase's maximum and minimum over those lines; on
# 200 KB through distributed levels, so that the times are not all zero
SAM_VERBOSE=2 SAM_DC3_BASE=0 OMP_NUM_THREADS=1 timeout 60 "${MPIRUN[@]}" -x SAM_VERBOSE -np 3 "$M" \
    "$G/text-s3" --no-lcp --quiet --algo dc3 >"$W/prof.log" 2>&1
ranks='sa-mpi phases \(s, rank [0-2], [^ ]+ cpu -?[0-9]+\): keys [0-9.]+( [a-z0-9-]+ [0-9.]+){15}$'
if [ "$(grep -cE "$ranks" "$W/prof.log")" = 3 ] && [ "$(grep -cE "$phases" "$W/prof.log")" = 2 ] &&
   grep -E "$phases|$ranks" "$W/prof.log" | awk '
     { head = $4 == "max" || $4 == "min" ? $4 : "rank"; f = head == "rank" ? 9 : 7 }
     { for (i = f; i < NF; i += 2) {
         if (head == "max") hi[$i] = $(i + 1); else if (head == "min") lo[$i] = $(i + 1)
         else { if (!($i in mx) || $(i + 1) + 0 > mx[$i]) mx[$i] = $(i + 1) + 0
                if (!($i in mn) || $(i + 1) + 0 < mn[$i]) mn[$i] = $(i + 1) + 0
                if ($(i + 1) + 0 > 0) nonzero++ } } }
     END { if (length(mx) != 16 || !nonzero) exit 1
           for (k in mx) if (hi[k] + 0 != mx[k] || lo[k] + 0 != mn[k]) exit 1 }'; then
  pass
else
  fail "SAM_VERBOSE=2: no consistent rank lines: $(head -c 400 "$W/prof.log")"
fi

# bad usage: a clear message, a non-zero exit, no hang
expect_err() { # pattern np args...
  local pat=$1 np=$2
  shift 2
  OMP_NUM_THREADS=1 timeout 60 "${MPIRUN[@]}" -np "$np" "$M" "$@" >"$W/bad.log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -q "$pat" "$W/bad.log"; then
    fail "bad usage '$*' np=$np: exit $rc, $(head -c 300 "$W/bad.log")"
  else
    pass
  fi
}
expect_err 'cannot open for reading' 3 "$W/no-such-file"
expect_err 'is a directory' 2 "$W"
expect_err 'bad argument' 2 "$G/n3" --bogus
expect_err 'bad argument' 2 "$G/n3" --algo bogus
expect_err 'bad argument' 2 "$G/n3" --algo
expect_err 'cannot open for writing' 3 "$G/n3" --algo dc3 --sa "$W/no/such/dir/sa"
expect_err 'bad argument' 2
expect_err 'cannot open for writing' 3 "$G/n3" --sa "$W/no/such/dir/sa"
echo "($(( $(date +%s) - start )) s)"
summary
# a failure is in the exit status too, not only in the SUMMARY line
[ "$failed" -eq 0 ]

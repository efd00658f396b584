#!/usr/bin/env bash
# fuzz/run.sh libfuzzer|afl TARGET... - runs each fuzz target for
# FUZZ_SECONDS (default 60) and prints its executions per second.
# Called by `make fuzz` / `make fuzz-afl` (which build the binaries first).
#   - seeds: fuzz/corpus/<t>/ (read only); what the fuzzer finds goes to
#     $FUZZ_DIR/corpus/<t>/ (libFuzzer) or $FUZZ_DIR/afl-out/<t>/ (AFL++);
#   - crashes: $FUZZ_DIR/crashes/<t>-* (libFuzzer) and
#     $FUZZ_DIR/crashes/<t>/ (AFL++): add each as fuzz/corpus/<t>/crash-<what>
#     once fixed, so that `make check` replays it from then on.
# Exit status 1 when a target crashed.
set -u
mode=$1
shift
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-65536}
status=0
mkdir -p "$FUZZ_DIR/crashes"
summary=()

for t in "$@"; do
  seeds=fuzz/corpus/$t
  dict=fuzz/dict/$t.dict
  log=$FUZZ_DIR/fuzz-$t.log
  # the target's own size cap when the make fragment names one
  maxlen_var=FUZZ_MAX_LEN_$t
  maxlen=${!maxlen_var:-$FUZZ_MAX_LEN}
  [ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds"; status=1; continue; }
  echo "== fuzz $t ($mode, ${FUZZ_SECONDS}s)"
  if [ "$mode" = libfuzzer ]; then
    work=$FUZZ_DIR/corpus/$t
    mkdir -p "$work"
    args=(-max_total_time="$FUZZ_SECONDS" -max_len="$maxlen" -timeout=10
          -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/crashes/$t-")
    [ -f "$dict" ] && args+=(-dict="$dict")
    # OpenMP: one thread, the targets are deterministic and single-threaded
    OMP_NUM_THREADS=1 "$FUZZ_DIR/fuzz_$t" "${args[@]}" "$work" "$seeds" >"$log" 2>&1
    rc=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
    eps=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    corpus=$(ls "$work" | wc -l)
  else
    out=$FUZZ_DIR/afl-out/$t
    rm -rf "$out"
    mkdir -p "$out" "$FUZZ_DIR/crashes/$t"
    args=(-i "$seeds" -o "$out" -m none -t 2000 -V "$FUZZ_SECONDS")
    [ -f "$dict" ] && args+=(-x "$dict")
    AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
      AFL_NO_AFFINITY=1 AFL_SKIP_CRASHES=1 OMP_NUM_THREADS=1 \
      afl-fuzz "${args[@]}" -- "$FUZZ_DIR/fuzz_$t" >"$log" 2>&1
    rc=$?
    st=$out/default/fuzzer_stats
    runs=$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$st" 2>/dev/null)
    eps=$(sed -nE 's/^execs_per_sec *: *([0-9.]+)/\1/p' "$st" 2>/dev/null)
    cov=$(sed -nE 's/^bitmap_cvg *: *(.*)/bitmap \1/p' "$st" 2>/dev/null)
    corpus=$(sed -nE 's/^corpus_count *: *([0-9]+)/\1/p' "$st" 2>/dev/null)
    crashes=$(ls "$out"/default/crashes 2>/dev/null | grep -v README | wc -l)
    if [ "${crashes:-0}" -gt 0 ]; then
      cp "$out"/default/crashes/id* "$FUZZ_DIR/crashes/$t/"
      rc=1
    fi
  fi
  line="$t: ${runs:-?} runs, ${eps:-?} exec/s, ${cov:-?}, corpus ${corpus:-?}"
  if [ "$rc" -ne 0 ]; then
    status=1
    line="$line, CRASH (rc $rc, see $log and $FUZZ_DIR/crashes/)"
    grep -E 'ERROR|check failed|SUMMARY: ' "$log" | head -n 5
  fi
  echo "   $line"
  summary+=("$line")
done
echo "fuzz summary ($mode, ${FUZZ_SECONDS}s each):"
printf '  %s\n' "${summary[@]}"
exit $status

#!/usr/bin/env bash
# ci/memreport.sh [BUILD] - `make memreport`: runs every case of
# ci/memreport.cases under valgrind massif (--time-unit=B
# --peak-inaccuracy=0.0, every snapshot detailed), keeps the ms_print text
# of each in report/memory/<case>.txt, and lets ci/memreport.py compare the
# attributed peak with the case's memory model: report/memory.txt and
# report/memory.html. Exit status 1 when a line fails or a run failed.
set -u
# A build of its own without CUDA: the cases are CPU implementations, and
# a binary linked with cuSPARSE and cudart holds their load-time
# allocations (tens of thousands of live sites) in every detailed
# snapshot: 7.4 GB of massif output for one SpMM case, 10 minutes of
# ms_print. Only the CLI is built: the cases run nothing else (and the
# CUDA bench drivers' host code does not build with CUDA=0).
B=${1:-build}-memreport
make --no-print-directory -j"$(nproc)" BUILD="$B" CUDA=0 "$B/bin/parcheck" >/dev/null || {
  echo "memreport: build failed"; exit 1; }
export PARCHECK=$PWD/$B/bin/parcheck
BUILD=${1:-build}
. ci/report_inputs.sh # INPUTS: the generated inputs' cache, shared with make report
export PC_INPUTS=$PWD/$INPUTS
mkdir -p report/memory
MASSIF=(valgrind --tool=massif --time-unit=B --peak-inaccuracy=0.0 --detailed-freq=1
        --max-snapshots=1000 --threshold=0.0 --depth=40)
trim() { sed -E 's/^[[:space:]]+|[[:space:]]+$//g' <<<"$1"; }
status=0
while IFS= read -r line; do
  case $line in ''|'#'*) continue ;; esac
  IFS='|' read -r name input gen run attr model opts warm <<<"$line"
  name=$(trim "$name"); input=$(trim "$input"); gen=$(trim "$gen"); run=$(trim "$run")
  opts=$(trim "${opts:-}"); warm=$(trim "${warm:-}")
  [ "$opts" = - ] && opts=
  export INPUT=$PC_INPUTS/$input JSON=$PWD/report/memory/$name.json
  if [ ! -s "$INPUT" ] && [ "$gen" != - ]; then
    echo "memreport: generating $INPUTS/$input"
    eval "$gen" >/dev/null || { echo "memreport: $name: generating $input failed"; status=1; continue; }
  fi
  # leading VAR=value words of a run are its environment: they go before
  # valgrind (which would take the first one for the program to run)
  pre=
  while [[ $run =~ ^([A-Za-z_][A-Za-z0-9_]*=[^[:space:]]*)[[:space:]]+(.*)$ ]]; do
    pre="$pre ${BASH_REMATCH[1]}"
    run=${BASH_REMATCH[2]}
  done
  out=report/memory/$name.massif
  start=$(date +%s)
  if [ "$warm" = warm ]; then
    # once under valgrind's none tool: a runtime that compiles and caches
    # code on first use (PoCL's kernel cache, keyed by the CPU it sees,
    # which under valgrind is not the host's) does it here, not under
    # massif, where LLVM compiling takes tens of minutes
    eval "$pre valgrind --tool=none --log-file=report/memory/$name.warm.log $run" \
      >report/memory/$name.warm.out 2>&1 || echo "memreport: $name: warm-up run failed"
  fi
  # a case's own massif options come last, so they override the defaults
  eval "$pre ${MASSIF[*]} $opts --massif-out-file=$out --log-file=report/memory/$name.vg.log $run" \
    >report/memory/$name.out 2>&1
  rc=$?
  echo "memreport: $name ($(( $(date +%s) - start )) s, exit $rc)"
  [ "$rc" -eq 0 ] || { status=1; echo "$name: exit $rc" >>report/memory/failed-runs; }
  ms_print "$out" >report/memory/$name.txt 2>&1
done < ci/memreport.cases
python3 ci/memreport.py ci/memreport.cases report || status=1
exit $status

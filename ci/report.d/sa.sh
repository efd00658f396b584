#!/usr/bin/env bash
# make report, suffix arrays: default inputs from fixed seeds (a few MB of
# Markov text, random bytes, a periodic text, a Fibonacci word), every
# implementation of this build on each; results in REPORT_DIR/runs/sa-*.json.
set -u
P=${PARCHECK:?PARCHECK must name the parcheck binary}
. ci/plugin_args.sh
. ci/report_inputs.sh
RUNS=${REPORT_DIR:-report}/runs
mkdir -p "$RUNS"
status=0
gen() { report_input "$INPUTS/sa-$1" "$P" gen text --bytes "$2" --kind "$3" --seed "$4" \
          -o "$INPUTS/sa-$1" || status=1; }
if small; then
  gen text 20000 text 1
  gen random 20000 random 2
  cases=(text random)
else
  gen text 4000000 text 1
  gen random 2000000 random 2
  gen periodic 1000000 periodic 3
  gen fibonacci 1000000 fibonacci 4
  cases=(text random periodic fibonacci)
fi
for c in "${cases[@]}"; do
  "$P" sa "$INPUTS/sa-$c" --impl all --reps 1 ${plugin_args[@]+"${plugin_args[@]}"} \
    --json "$RUNS/sa-$c.json"
  rc=$?
  echo "sa $c: exit $rc"
  [ $rc -eq 0 ] || status=1
done
exit $status

#!/usr/bin/env bash
# SpMM section of `make report`: generated default matrices (fixed seeds, a
# few shapes, seconds to run) x K in {1, 4, 16, 64} x every implementation.
set -u
. ci/plugin_args.sh
dir=report/inputs
status=0
gen() { "$PARCHECK" gen matrix --rows "$2" --cols "$3" --nnz "$4" --shape "$5" --seed 42 ${6:-} -o "$dir/$1.mtx" || status=1; }
gen banded-200k 200000 200000 5400000 banded
gen uniform-100k 100000 80000 1600000 uniform
gen powerlaw-100k 100000 100000 800000 powerlaw "--max-row 10000"
gen denserows-50k 50000 50000 500000 denserows "--max-row 20000"
gen int-uniform-20k 20000 20000 300000 uniform --int
for m in banded-200k uniform-100k powerlaw-100k denserows-50k int-uniform-20k; do
  for k in 1 4 16 64; do
    "$PARCHECK" spmm "$dir/$m.mtx" --impl all --k "$k" --reps 3 ${plugin_args[@]+"${plugin_args[@]}"} \
      --json "report/runs/spmm-$m-k$k.json" >/dev/null
    rc=$?
    # 3 (an implementation that cannot run here) is not a validation failure.
    if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then echo "spmm $m K=$k: exit $rc"; status=1; fi
  done
done
exit $status

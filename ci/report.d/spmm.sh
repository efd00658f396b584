#!/usr/bin/env bash
# SpMM section of `make report`: generated default matrices (fixed seeds, a
# few shapes, seconds to run) x K in {1, 4, 16, 64} x every implementation.
set -u
. ci/plugin_args.sh
. ci/report_inputs.sh
R=${REPORT_DIR:-report}
mkdir -p "$R/runs"
status=0
gen() { report_input "$INPUTS/$1.mtx" "$PARCHECK" gen matrix --rows "$2" --cols "$3" --nnz "$4" \
          --shape "$5" --seed 42 ${6:-} -o "$INPUTS/$1.mtx" || status=1; }
if small; then
  gen uniform-2k 2000 2000 20000 uniform
  gen int-uniform-1k 1000 1000 8000 uniform --int
  mats=(uniform-2k int-uniform-1k) ks=(1 16)
else
  gen banded-200k 200000 200000 5400000 banded
  gen uniform-100k 100000 80000 1600000 uniform
  gen powerlaw-100k 100000 100000 800000 powerlaw "--max-row 10000"
  gen denserows-50k 50000 50000 500000 denserows "--max-row 20000"
  gen int-uniform-20k 20000 20000 300000 uniform --int
  mats=(banded-200k uniform-100k powerlaw-100k denserows-50k int-uniform-20k) ks=(1 4 16 64)
fi
for m in "${mats[@]}"; do
  for k in "${ks[@]}"; do
    "$PARCHECK" spmm "$INPUTS/$m.mtx" --impl all --k "$k" --reps 3 ${plugin_args[@]+"${plugin_args[@]}"} \
      --json "$R/runs/spmm-$m-k$k.json" >/dev/null
    rc=$?
    # 3 (an implementation that cannot run here) is not a validation failure.
    if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then echo "spmm $m K=$k: exit $rc"; status=1; fi
  done
done
exit $status

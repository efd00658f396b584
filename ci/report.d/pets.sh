#!/usr/bin/env bash
# make report, PETS: generated graphs with fixed seeds and the golden graphs
# when the shared data folder (PARCHECK_DATA) is there; every implementation
# under both policies, JSON into REPORT_DIR/runs/pets-<case>-<policy>.json.
set -u
: "${PARCHECK:?PARCHECK must name the parcheck binary}"
. ci/plugin_args.sh
. ci/report_inputs.sh
RUNS=${REPORT_DIR:-report}/runs
mkdir -p "$RUNS"
status=0
gen() { # name, then gen dag options
  local name=$1; shift
  report_input "$INPUTS/pets-$name.dag" "$PARCHECK" gen dag "$@" -o "$INPUTS/pets-$name.dag" || status=1
}
gen small --tasks 100   --out-degree 3 --alpha 1   --ccr 1   --eta 0.5 --procs 4  --seed 1
cases=(small)
if ! small; then
  gen wide  --tasks 2000  --out-degree 2 --alpha 2   --ccr 0.1 --eta 1   --procs 8  --seed 2
  gen deep  --tasks 2000  --out-degree 5 --alpha 0.5 --ccr 10  --eta 0.1 --procs 4  --seed 3
  gen large --tasks 16384 --out-degree 3 --alpha 1   --ccr 1   --eta 0.5 --procs 16 --seed 4
  cases+=(wide deep large)
  data=${PARCHECK_DATA:-../shared/data}
  for g in topcuoglu2002 pets_fig1; do
    if [ -f "$data/dags/golden/$g.txt" ]; then
      cp "$data/dags/golden/$g.txt" "$INPUTS/pets-$g.dag"; cases+=("$g")
    else
      echo "pets: golden graph $g not found under $data (skipped)"
    fi
  done
fi
for c in "${cases[@]}"; do
  for pol in insertion append; do
    "$PARCHECK" pets "$INPUTS/pets-$c.dag" --impl all --reps 3 --$pol ${plugin_args[@]+"${plugin_args[@]}"} \
      --json "$RUNS/pets-$c-$pol.json" || status=1
  done
done
# where the time goes: one stacked bar of phases per implementation
# (of the largest generated graph that ran: large, or small in the tiny variant)
phases=small
[ -f "$RUNS/pets-large-insertion.json" ] && phases=large
python3 ci/pets_phases.py "${REPORT_DIR:-report}" "$RUNS/pets-$phases-insertion.json" || status=1
exit $status

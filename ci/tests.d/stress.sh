#!/usr/bin/env bash
# --stress N on parcheck spmm, sa and pets (src/cli/cli_stress.h): every
# run is validated and counted, the JSON row carries stress_runs,
# stress_failed, stress_identical, stress_threads_max (and for SpMM
# stress_max_err_over_bound), a deterministic implementation stays
# identical across thread counts, and a bad N is a usage error (exit 2).
# Prints "SUMMARY passed=N failed=N skipped=N"; exits 1 on a failure.
set -u
BUILD=${1:-build}
P=$PWD/$BUILD/bin/parcheck
passed=0 failed=0
W=$(mktemp -d /tmp/pc-stress-XXXXXX)
trap 'rm -rf "$W"' EXIT
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
PY=/usr/bin/python3
# check JSON IMPL RUNS: the row of IMPL passed all RUNS stress runs, identical
check() {
  $PY - "$1" "$2" "$3" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["results"] if x["impl"] == sys.argv[2]][0]
m = r["metrics"]
assert r["status"] == "pass", r
assert m["stress_runs"] == int(sys.argv[3]) and m["stress_failed"] == 0, m
assert m["stress_identical"] is True and m["stress_threads_max"] >= 2, m
PYEOF
}
"$P" gen matrix --rows 400 --cols 300 --nnz 5000 --shape powerlaw --seed 3 -o "$W/a.mtx" >/dev/null
"$P" gen text --bytes 3000 --kind text --seed 4 -o "$W/t.txt" >/dev/null
"$P" gen dag --tasks 60 --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 3 --seed 5 -o "$W/g.dag" >/dev/null
for impl in csr-omp ell-omp ellnp-omp csr-serial; do
  if "$P" spmm "$W/a.mtx" --impl "$impl" --reps 1 --stress 6 --json "$W/s.json" >/dev/null 2>&1 &&
     check "$W/s.json" "$impl" 6 2>"$W/err"; then ok; else bad "spmm $impl --stress 6: $(tail -n 2 "$W/err")"; fi
done
$PY -c "import json,sys; m=json.load(open('$W/s.json'))['results'][0]['metrics']; sys.exit(0 if m['stress_max_err_over_bound'] <= 1 else 1)" \
  && ok || bad "spmm: stress_max_err_over_bound missing or above 1"
for impl in seq omp; do
  if "$P" sa "$W/t.txt" --impl "$impl" --stress 6 --json "$W/s.json" >/dev/null 2>&1 &&
     check "$W/s.json" "$impl" 6 2>"$W/err"; then ok; else bad "sa $impl --stress 6: $(tail -n 2 "$W/err")"; fi
done
if "$P" pets "$W/g.dag" --impl serial --stress 4 --json "$W/s.json" >/dev/null 2>&1 &&
   check "$W/s.json" serial 4 2>"$W/err"; then ok; else bad "pets serial --stress 4: $(tail -n 2 "$W/err")"; fi
# the table shows the stress columns
"$P" spmm "$W/a.mtx" --impl csr-omp --reps 1 --stress 2 | grep -q 'stress_failed' && ok || bad "table without stress columns"
for cmd in "spmm $W/a.mtx" "sa $W/t.txt" "pets $W/g.dag"; do
  for n in 0 -1 x; do
    # shellcheck disable=SC2086
    "$P" $cmd --stress "$n" >/dev/null 2>&1
    [ $? -eq 2 ] && ok || bad "$cmd --stress $n: expected exit 2"
  done
done
echo "SUMMARY passed=$passed failed=$failed skipped=0"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# ci/race.sh [BUILD_DIR] - `make check-race`: the OpenMP code under
# ThreadSanitizer with LLVM's Archer OMPT tool. Builds into BUILD_DIR
# (default build-tsan) with clang -fsanitize=thread -fopenmp=libomp, only
# what the race runs need, then runs at 2 and 4 threads, on small inputs:
#   - the Check suites that drive OpenMP code (SpMM kernels and converters,
#     spmm_check, the SA constructions and Kasai LCP, the PETS validator);
#   - the CLI on the OpenMP implementations: spmm csr-omp ell-omp ellnp-omp,
#     sa omp (and mpi-omp ranks under mpirun when MPI is built), spmm check,
#     pets check (the two side-by-side solves), pets omp (every host phase
#     and the selection's pipeline);
#   - the self-test: the zoo's racy SpMM kernels (a row sum and a row range
#     shared between threads) must be reported.
# Any report fails the run it came from. Ends with "N passed, N failed".
set -u
B=${1:-build-tsan}
CLANG=${TSAN_CC:-clang-14}
ARCHER=${ARCHER_LIB:-/usr/lib/llvm-14/lib/libarcher.so}
SYMB=${TSAN_SYMBOLIZER:-/usr/lib/llvm-14/bin/llvm-symbolizer}
command -v "$CLANG" >/dev/null || { echo "SKIPPED check-race: $CLANG not found (apt-get install clang-14 libomp-14-dev)"; echo "0 passed, 0 failed"; exit 0; }
[ -f "$ARCHER" ] || { echo "SKIPPED check-race: $ARCHER not found (apt-get install libomp-14-dev)"; echo "0 passed, 0 failed"; exit 0; }
TSAN="-fsanitize=thread -fopenmp=libomp"
# Through the environment, as ci/sanitize.sh does, so that the domains'
# EXTRA_CFLAGS += ... still apply; -O1 and line tables (file:line in the
# reports, at a fraction of -g's compile time).
export EXTRA_CFLAGS="${EXTRA_CFLAGS:-} $TSAN -O1 -gline-tables-only"
export EXTRA_LDFLAGS="${EXTRA_LDFLAGS:-} $TSAN"
# Archer gives TSan the OpenMP runtime's synchronisation (barriers, tasks,
# reductions), without which libomp's lock-free hand-offs look like races.
# ignore_noninstrumented_modules=1: what Archer's documentation recommends,
# so that accesses inside libomp and libc themselves are not judged.
# exitcode=66 on a report; halt_on_error=0 lets a run print every report.
export OMP_TOOL_LIBRARIES=$ARCHER
export TSAN_OPTIONS="ignore_noninstrumented_modules=1:exitcode=66:halt_on_error=0:second_deadlock_stack=1:history_size=4:suppressions=$PWD/ci/tsan.supp:external_symbolizer_path=$SYMB"
export ARCHER_OPTIONS="${ARCHER_OPTIONS:-}"
export PARCHECK_HARNESS_NESTED=1
# Check runs each test in the same process (no fork after OpenMP started).
export CK_FORK=no
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
start=$(date +%s)
mkdir -p "$B"
# The whole suites take minutes under TSan: `make check-race` runs them;
# the CI hook (ci/tests.d/race.sh, RACE_QUICK=1) builds and runs the PETS
# one only.
suites=(pets/test_pets_check)
[ -n "${RACE_QUICK:-}" ] || suites+=(spmm/test_spmm_kernels spmm/test_spmm_convert sa/test_texts)
targets=("$B/bin/parcheck" "$B/tests/zoo/zoo")
for s in "${suites[@]}"; do targets+=("$B/tests/$s"); done
mpi=0
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  targets+=("$B/bin/parcheck-sa-mpi"); mpi=1
fi
echo "check-race: building $B (clang TSan + Archer)"
make --no-print-directory -j"$(nproc)" CC="$CLANG" CUDA=0 OPENCL=0 BUILD="$B" CFLAGS="-O1 -gline-tables-only" "${targets[@]}" \
    >"$B/build.log" 2>&1 || { tail -n 30 "$B/build.log"; echo "check-race: build failed (log $B/build.log)"; echo "0 passed, 1 failed"; exit 1; }
echo "check-race: built in $(( $(date +%s) - start )) s"
P=$B/bin/parcheck
W=$(mktemp -d /tmp/pc-race-XXXXXX)
trap 'rm -rf "$W"' EXIT
passed=0 failed=0
# run LABEL EXPECT cmd...: EXPECT clean (no report, exit 0) or report (a
# TSan report is required: the self-test)
run() {
  local label=$1 expect=$2
  shift 2
  local log=$W/log t0=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$? n
  label="$label ($((SECONDS - t0)) s)"
  n=$(grep -c '^WARNING: ThreadSanitizer' "$log")
  if [ "$expect" = report ]; then
    # the report needs the threads truly inside the loop together: up to
    # 5 runs on a busy machine
    local k
    for k in 2 3 4 5; do
      [ "$(grep -c '^WARNING: ThreadSanitizer' "$log")" -gt 0 ] && break
      "$@" >"$log" 2>&1
    done
    n=$(grep -c '^WARNING: ThreadSanitizer' "$log")
    if [ "$n" -gt 0 ]; then passed=$((passed + 1)); echo "ok   $label: $n report(s), as planted"
      grep -m1 -A4 '^WARNING: ThreadSanitizer' "$log" | sed 's/^/     /'
    else failed=$((failed + 1)); echo "FAIL $label: the planted race was not reported (exit $rc)"; fi
  elif [ "$n" -gt 0 ] || [ "$rc" -ne 0 ]; then
    failed=$((failed + 1)); echo "FAIL $label: $n report(s), exit $rc"
    grep -m1 -A14 '^WARNING: ThreadSanitizer' "$log" | sed 's/^/     /'
    [ "$n" -gt 0 ] || tail -n 5 "$log" | sed 's/^/     /'
  else
    passed=$((passed + 1)); echo "ok   $label"
  fi
}
"$P" gen matrix --rows 2000 --cols 2000 --nnz 40000 --shape powerlaw --seed 3 -o "$W/a.mtx" >/dev/null
"$P" gen text --bytes 20000 --kind text --seed 4 -o "$W/t.txt" >/dev/null
"$P" gen dag --tasks 200 --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 4 --seed 5 -o "$W/g.dag" >/dev/null
# past the 4096 tasks from which the selection's pipeline runs threads
"$P" gen dag --tasks 6000 --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 4 --seed 6 -o "$W/big.dag" >/dev/null
"$P" sa "$W/t.txt" --impl seq --out-sa "$W/t.sa" >/dev/null 2>&1
"$P" pets "$W/g.dag" --impl serial --out-schedule "$W/g.csv" >/dev/null 2>&1
"$P" spmm "$W/a.mtx" --impl csr-serial --k 4 --out-y "$W/y.npy" >/dev/null 2>&1
for t in 2 4; do
  export OMP_NUM_THREADS=$t
  run "zoo racy kernel (row sum shared) t=$t" report "$B/tests/zoo/zoo" --race spmm-row-sum-shared "$t"
  run "zoo racy kernel (row range shared) t=$t" report "$B/tests/zoo/zoo" --race spmm-row-range-shared "$t"
  run "parcheck spmm csr-omp,ell-omp,ellnp-omp t=$t" clean "$P" spmm "$W/a.mtx" --k 4 --impl csr-omp,ell-omp,ellnp-omp --reps 2 --threads "$t" --stress 8
  run "parcheck sa omp t=$t" clean "$P" sa "$W/t.txt" --impl omp --reps 1 --threads "$t"
  run "parcheck spmm check t=$t" clean "$P" spmm check "$W/a.mtx" --y "$W/y.npy" --k 4 --seed 1
  run "parcheck sa check t=$t" clean "$P" sa check "$W/t.txt" --sa "$W/t.sa"
  run "parcheck pets check t=$t" clean "$P" pets check "$W/g.dag" --schedule "$W/g.csv"
  run "parcheck pets omp (6000 tasks, both policies) t=$t" clean sh -c \
      "'$P' pets '$W/big.dag' --impl omp --threads $t --reps 2 && '$P' pets '$W/big.dag' --impl omp --threads $t --append --reps 1"
  if [ $mpi = 1 ]; then
    run "parcheck sa mpi-omp (2 ranks) t=$t" clean env PARCHECK_MPIRUN_ARGS="-x OMP_TOOL_LIBRARIES -x TSAN_OPTIONS" \
        "$P" sa "$W/t.txt" --impl mpi-omp --np 2 --reps 1 --threads "$t"
  fi
done
# omp's stream (6 threads and more): its roles hand levels over with their
# own counters, which only a race detector checks
run "parcheck pets omp stream (6000 tasks, 7 threads, both policies)" clean sh -c \
    "'$P' pets '$W/big.dag' --impl omp --threads 7 --reps 2 && '$P' pets '$W/big.dag' --impl omp --threads 7 --append --reps 1"
# the suites once, at 2 threads (their cases already loop over thread counts)
export OMP_NUM_THREADS=2
run "zoo control (csr-serial kernel)" clean "$B/tests/zoo/zoo" --race spmm-csr-serial 2
for s in "${suites[@]}"; do
  run "suite $s" clean "$B/tests/$s"
done
echo "check-race: $(( $(date +%s) - start )) s in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

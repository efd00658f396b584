#!/usr/bin/env bash
# The build without OpenMP (make OPENMP=0), as users of a compiler without
# it get: built once in BUILD-noomp (CUDA=0: nothing of CUDA differs
# without OpenMP, and nvcc is slow), its CPU suites run (tests/core, spmm,
# sa, pets; MPI and CUDA are the other scripts' and builds' business).
# In CI (CI=true) or with PARCHECK_OPENMP_OFF=1; elsewhere SKIPPED. Inside
# the sanitizer, valgrind or coverage runs it does nothing.
# Prints the SUMMARY line of ci/run-tests.sh.
set -u
BUILD=${1:-build}
if [ -n "${PARCHECK_HARNESS_NESTED:-}" ]; then
  echo "SUMMARY passed=0 failed=0 skipped=0"
  exit 0
fi
if [ "${CI:-}" != true ] && [ "${PARCHECK_OPENMP_OFF:-}" != 1 ]; then
  echo "SKIPPED openmp-off: the OPENMP=0 build runs in CI (CI=true) or with PARCHECK_OPENMP_OFF=1"
  echo "SUMMARY passed=0 failed=0 skipped=1"
  exit 0
fi
B=$BUILD-noomp
suites=$(ls tests/core/test_*.c tests/spmm/test_*.c tests/sa/test_*.c tests/pets/test_*.c 2>/dev/null |
         sed -E "s|^tests/(.*)\.c$|$B/tests/\1|")
mkdir -p "$B"
if ! make --no-print-directory -j"$(nproc)" BUILD="$B" OPENMP=0 CUDA=0 "$B/bin/parcheck" $suites \
     >"$B/make.log" 2>&1; then
  tail -n 30 "$B/make.log"
  echo "FAIL openmp-off: make OPENMP=0 failed (log $B/make.log)"
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
# no OpenMP anywhere in what was built
if nm "$B/bin/parcheck" | grep -q 'GOMP_\|omp_get'; then
  echo "FAIL openmp-off: $B/bin/parcheck still calls OpenMP"
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
passed=1 failed=0 skipped=0
echo "ok   make OPENMP=0 builds, and the binary has no OpenMP symbol"
export PARCHECK_BIN=$PWD/$B/bin/parcheck
# the heaviest sweeps take their light subset (pc_test_light): the plain
# pass of the same `make check` runs them whole
export PARCHECK_TEST_LIGHT=${PARCHECK_TEST_LIGHT:-1}
for t in $suites; do
  log=$B/$(basename "$t").log
  "$t" >"$log" 2>&1
  rc=$?
  line=$(grep -E '^SUMMARY passed=' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    echo "FAIL $t (exit $rc, no summary)"; failed=$((failed + 1)); continue
  fi
  p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  s=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$line")
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  [ "$f" -eq 0 ] && [ "$rc" -eq 0 ] || { echo "FAIL $t"; grep -E ':[EF]:' "$log" | head -n 10; }
  [ "$f" -eq 0 ] && [ "$rc" -ne 0 ] && failed=$((failed + 1))
done
echo "openmp-off: $passed passed, $failed failed, $skipped skipped"
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]

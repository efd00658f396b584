#!/usr/bin/env bash
# Runs every Check suite under BUILD/tests (and any ci/tests.d/*.sh script),
# then prints one closing line "N passed, N failed, N skipped" summed over
# all suites. Exit status 1 when anything failed.
set -u
BUILD=${1:-build}
export PARCHECK_BIN=${PARCHECK_BIN:-$PWD/$BUILD/bin/parcheck}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Checks forks each test; keep OpenMP to the cores this machine has.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
passed=0 failed=0 skipped=0 broken=()
log_dir=$BUILD/test-logs
mkdir -p "$log_dir"

tally() { # name logfile status
  local line
  line=$(grep -E '^SUMMARY passed=' "$2" | tail -n 1)
  if [ -z "$line" ]; then
    failed=$((failed + 1)); broken+=("$1 (exit $3, no summary)")
    return
  fi
  local p f s
  p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  s=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$line")
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  if [ "$f" -gt 0 ] || [ "$3" -ne 0 ]; then
    broken+=("$1")
    [ "$f" -gt 0 ] || failed=$((failed + 1))
  fi
}

for t in $(find "$BUILD/tests" -type f -perm -u+x -name 'test_*' | sort); do
  name=${t#"$BUILD"/tests/}
  log="$log_dir/${name//\//_}.log"
  echo "== $name"
  start=$(date +%s)
  "$t" >"$log" 2>&1
  rc=$?
  grep -E '^(SKIPPED|SUMMARY|[0-9]+%:)|:[EF]:' "$log" | head -n 40
  echo "   ($(( $(date +%s) - start )) s)"
  tally "$name" "$log" "$rc"
done

for s in $(ls ci/tests.d/*.sh 2>/dev/null | sort); do
  name=$(basename "$s" .sh)
  log="$log_dir/script_$name.log"
  echo "== $name"
  bash "$s" "$BUILD" >"$log" 2>&1
  rc=$?
  grep -E '^(SKIPPED|SUMMARY|FAIL|zoo:|race:)' "$log" | head -n 40
  tally "$name" "$log" "$rc"
done

if [ ${#broken[@]} -gt 0 ]; then
  echo "failing suites (logs in $log_dir):"
  printf '  %s\n' "${broken[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

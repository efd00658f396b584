#!/usr/bin/env bash
# ci/valgrind.sh [BUILD] - memcheck over every suite of the normal build:
# each build/tests/**/test_* in one process (CK_FORK=no, so valgrind sees the
# tests themselves), the CLI those tests start (PARCHECK_BIN points to a
# wrapper that runs parcheck under memcheck too) and the fuzz corpus replay.
# A run fails on any memcheck error or definite leak (--error-exitcode);
# "possibly lost" / "still reachable" blocks (libgomp's thread pool) are not
# errors. Logs: BUILD/valgrind/. Exit status 1 when anything failed.
set -u
B=${1:-build}
export PARCHECK_HARNESS_NESTED=1
make --no-print-directory -j"$(nproc)" BUILD="$B" all tests >/dev/null || {
  echo "check-valgrind: build failed"; exit 1; }
logs=$B/valgrind
rm -rf "$logs"; mkdir -p "$logs"
VG=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --show-leak-kinds=definite
    --num-callers=30 --suppressions="$PWD/ci/valgrind.supp")
# The CLI as the tests start it, under memcheck; its log goes to a file so
# that the tests still see the CLI's own stdout/stderr and exit status.
wrap=$logs/parcheck-vg
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
exec ${VG[*]} --log-file=$PWD/$logs/cli.%p.log $PWD/$B/bin/parcheck "\$@"
WRAP
chmod +x "$wrap"
export PARCHECK_BIN=$PWD/$wrap
export CK_FORK=no CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-20}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# The SA suites compare with the naive oracle up to 1 KiB here (16 KiB in
# make check): on their constant and periodic texts it is quadratic, and
# sa/test_adversarial alone did not end within 20 minutes under memcheck.
# Every input still goes through every implementation and the oracle's
# linear checks.
export PARCHECK_TEST_NAIVE_MAX=${PARCHECK_TEST_NAIVE_MAX:-1024}
passed=0 failed=0
run() { # name command...
  local name=$1; shift
  local start=$(date +%s)
  "${VG[@]}" --log-file="$logs/$name.log" "$@" >"$logs/$name.out" 2>&1
  local rc=$?
  local errs=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/p' "$logs/$name.log" | tail -n 1)
  local dl=$(sed -nE 's/.*definitely lost: ([0-9,]+) bytes.*/\1/p' "$logs/$name.log" | tail -n 1)
  local sum=$(grep -E '^SUMMARY passed=' "$logs/$name.out" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); st=ok
  else
    failed=$((failed + 1)); st="FAIL (exit $rc)"
  fi
  printf '%-28s %-14s errors=%s definitely_lost=%s %s (%d s)\n' "$name" "$st" "${errs:-?}" \
    "${dl:-0}" "${sum#SUMMARY }" "$(( $(date +%s) - start ))"
}
for t in $(find "$B/tests" -type f -perm -u+x -name 'test_*' | sort); do
  n=${t#"$B"/tests/}
  run "${n//\//_}" "$t"
done
for r in "$B"/fuzz-replay/replay_*; do
  [ -x "$r" ] || continue
  n=${r##*/replay_}
  run "fuzz-replay_$n" "$r" -n "fuzz/corpus/$n"
done
# CLI runs started by the tests: each wrapper log is one more check
cli_bad=0 cli_n=0
for l in "$logs"/cli.*.log; do
  [ -f "$l" ] || continue
  # A process that a CLI run forked (PoCL starting its linker) logs only
  # its header before it execs an untraced program: no summary, nothing
  # to check. Its parent's log holds the run's verdict.
  ppid=$(sed -nE 's/^==[0-9]+== Parent PID: ([0-9]+).*/\1/p' "$l" | head -n 1)
  if ! grep -q 'ERROR SUMMARY' "$l" && [ -n "$ppid" ] && [ -f "$logs/cli.$ppid.log" ]; then
    continue
  fi
  cli_n=$((cli_n + 1))
  if ! grep -q 'ERROR SUMMARY: 0 errors' "$l"; then
    cli_bad=$((cli_bad + 1)); echo "FAIL CLI run: $l"
  fi
done
echo "parcheck CLI under memcheck: $cli_n runs, $cli_bad with errors or definite leaks"
[ "$cli_bad" -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))
echo "check-valgrind: $passed passed, $failed failed (logs in $logs)"
[ "$failed" -eq 0 ]

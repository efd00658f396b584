#!/usr/bin/env bash
# The race detector (ci/race.sh) as part of `make check`, in CI only
# (CI=true) or with PARCHECK_RACE=1, like ci/tests.d/sanitize.sh; nothing
# inside the sanitizer, valgrind or coverage runs themselves.
set -u
if [ -n "${PARCHECK_HARNESS_NESTED:-}" ]; then
  echo "SUMMARY passed=0 failed=0 skipped=0"
  exit 0
fi
if [ "${CI:-}" != true ] && [ "${PARCHECK_RACE:-}" != 1 ]; then
  echo "SKIPPED race: TSan+Archer build runs in CI (CI=true) or with PARCHECK_RACE=1 (make check-race)"
  echo "SUMMARY passed=0 failed=0 skipped=1"
  exit 0
fi
out=$(RACE_QUICK=1 bash ci/race.sh build-tsan 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(check-race|FAIL|SKIPPED)' | head -n 40
last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
if [ -z "$last" ]; then
  printf '%s\n' "$out" | tail -n 30
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
read -r p _ f _ <<<"$last"
echo "race: $last (build-tsan)"
echo "SUMMARY passed=$p failed=$f skipped=0"
[ "$rc" -eq 0 ]

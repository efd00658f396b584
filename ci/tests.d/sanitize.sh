#!/usr/bin/env bash
# The sanitizer build (ci/sanitize.sh) as part of `make check`, in CI only
# (CI=true) or when PARCHECK_SANITIZE=1: builds build-asan and runs every
# suite there; its totals are reported as this script's SUMMARY line.
# Elsewhere it prints SKIPPED; inside the sanitizer, valgrind or coverage
# runs themselves it does nothing.
set -u
if [ -n "${PARCHECK_HARNESS_NESTED:-}" ]; then
  echo "SUMMARY passed=0 failed=0 skipped=0"
  exit 0
fi
if [ "${CI:-}" != true ] && [ "${PARCHECK_SANITIZE:-}" != 1 ]; then
  echo "SKIPPED sanitize: ASan+UBSan build runs in CI (CI=true) or with PARCHECK_SANITIZE=1 (make check-sanitize)"
  echo "SUMMARY passed=0 failed=0 skipped=1"
  exit 0
fi
out=$(bash ci/sanitize.sh build-asan 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(check-sanitize|failing suites|  |FAIL)' | head -n 40
last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' | tail -n 1)
if [ -z "$last" ]; then
  printf '%s\n' "$out" | tail -n 30
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
read -r p _ f _ s _ <<<"$last"
echo "sanitize: $last (build-asan)"
echo "SUMMARY passed=$p failed=$f skipped=$s"
[ "$rc" -eq 0 ]

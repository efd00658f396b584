#!/usr/bin/env bash
# Replays every fuzz corpus (fuzz/corpus/<name>/) through the target's
# property checks, built with the normal toolchain against libparcheck.a
# ($BUILD/fuzz-replay/replay_<name>, made by `make tests`). One test per
# corpus file; prints the SUMMARY line of ci/run-tests.sh.
set -u
BUILD=${1:-build}
export OMP_NUM_THREADS=1
passed=0 failed=0 skipped=0
for dir in fuzz/corpus/*/; do
  name=$(basename "$dir")
  bin=$BUILD/fuzz-replay/replay_$name
  if [ ! -x "$bin" ]; then
    echo "FAIL $name: $bin not built (make tests)"
    failed=$((failed + 1))
    continue
  fi
  out=$("$bin" "$dir" 2>&1)
  line=$(grep -E '^SUMMARY passed=' <<<"$out" | tail -n 1)
  grep -E '^FAIL|check failed|runtime error|ERROR: ' <<<"$out" | head -n 20
  if [ -z "$line" ]; then
    echo "FAIL $name: replay died without a summary"
    failed=$((failed + 1))
    continue
  fi
  p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  echo "$name: $p corpus files replayed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
done
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]

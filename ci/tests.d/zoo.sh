#!/usr/bin/env bash
# The zoo of known bugs (tests/zoo): every deliberately wrong implementation
# must be rejected, and located, by the validation path the CLI uses; every
# control accepted. Prints the zoo's own lines, its closing
# "zoo: N of N wrong implementations rejected" and the SUMMARY line; exits
# non-zero when a class slipped (named in the zoo: line).
set -u
BUILD=${1:-build}
Z=$BUILD/tests/zoo/zoo
if [ ! -x "$Z" ]; then
  echo "FAIL zoo: $Z not built"
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
"$Z"

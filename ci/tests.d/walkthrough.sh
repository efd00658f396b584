#!/usr/bin/env bash
# Runs README.md's "check your own results" walk-through as a user would:
# the fenced blocks between <!-- walkthrough:begin --> and
# <!-- walkthrough:end --> (sh blocks run in order, the python block saved
# as the file its first comment names), in an empty folder with parcheck
# on the PATH and Debian's python3 (where ci/bootstrap installs NumPy and
# SciPy) first. Each sh line is one test; its expected output is what the
# README says it prints.
set -u
BUILD=${1:-build}
root=$PWD
bin=$root/$BUILD/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0 skipped=0
if ! /usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null; then
  echo "SKIPPED walkthrough: Debian's python3 lacks numpy/scipy (ci/bootstrap installs them)"
  echo "SUMMARY passed=0 failed=0 skipped=1"
  exit 0
fi
# Split the walk-through into numbered block files.
awk -v dir="$work" '
  /<!-- walkthrough:begin -->/ { on = 1; next }
  /<!-- walkthrough:end -->/ { on = 0 }
  on && /^```(sh|python)$/ { n++; kind = substr($0, 4); file = sprintf("%s/block%02d.%s", dir, n, kind); inb = 1; next }
  on && inb && /^```$/ { inb = 0; next }
  on && inb { print > file }
' "$root/README.md"
blocks=$(ls "$work"/block* 2>/dev/null)
if [ -z "$blocks" ]; then
  echo "FAIL walkthrough: no blocks found between the README markers"
  echo "SUMMARY passed=0 failed=1 skipped=0"
  exit 1
fi
cd "$work"
export PATH=$bin:/usr/bin:$PATH
for b in $blocks; do
  case $b in
  *.python)
    name=$(sed -nE '1s/^# *([A-Za-z0-9_.-]+\.py).*/\1/p' "$b")
    cp "$b" "${name:-walkthrough.py}" ;;
  *.sh)
    while IFS= read -r line; do
      [ -z "$line" ] && continue
      out=$(bash -c "$line" 2>&1)
      rc=$?
      if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok   $line"
      else
        failed=$((failed + 1))
        echo "FAIL (exit $rc) $line"
        printf '%s\n' "$out" | head -n 20
      fi
      # A line that promises a located failure must print the location.
      case $line in
      *"located"*)
        if ! grep -q 'row=42 col=3' <<<"$out"; then
          failed=$((failed + 1)); echo "FAIL $line: no 'row=42 col=3' in its output"
          printf '%s\n' "$out" | head -n 20
        fi ;;
      esac
    done <"$b" ;;
  esac
done
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The >2^31-byte demonstration of `parcheck sa check` (not part of CI: it
# needs ~20 GiB of memory and ~25 GB of disk). A 2^31 + 2^20-byte Markov
# text, its suffix array from libdivsufsort's divsufsort64 written as raw
# int64, then `sa check --width 64` (expected: pass), the same SA read as
# int32 (expected: exit 2), and one swapped pair (expected: exit 1, located
# at index 2e9 + 1); every step under /usr/bin/time -v for its peak memory.
# Usage: bash ci/bigsa/run.sh [BUILD] [WORKDIR]
set -euo pipefail
BUILD=${1:-build}
W=${2:-/tmp/parcheck-bigsa}
P=$PWD/$BUILD/bin/parcheck
mkdir -p "$W"
cc -O2 -o "$W/mksa64" ci/bigsa/mksa64.c $(pkg-config --cflags --libs libdivsufsort64)
cd "$W"
tv() { /usr/bin/time -f "  %e s wall, max RSS %M KiB" "$@"; }
if [ ! -s t ]; then
  "$P" gen text --bytes 2147483647 --kind text --seed 1 -o a
  "$P" gen text --bytes 1048577 --kind text --seed 2 -o b
  cat a b > t && rm a b
fi
echo "text: $(stat -c %s t) bytes"
[ -s t.sa64 ] || { echo "divsufsort64:"; tv ./mksa64 t t.sa64; }
expect() { # CODE CMD...: runs CMD, fails the script unless it exits CODE
  local want=$1 rc=0; shift
  "$@" || rc=$?
  echo "  exit $rc (expected $want)"
  [ "$rc" -eq "$want" ]
}
echo "sa check --width 64 (expect exit 0):"
expect 0 tv "$P" sa check t --sa t.sa64 --width 64 --json check.json
grep -o '"peak_bytes":[0-9]*' check.json | head -1
echo "sa check as int32 (expect exit 2):"
expect 2 "$P" sa check t --sa t.sa64
[ "$(stat -c %s t)" -gt 2000000016 ] || { echo "text too small for the swap test"; exit 0; }
swap() { python3 -c "f=open('t.sa64','r+b');f.seek(16000000000);a=f.read(16);assert len(a)==16;f.seek(16000000000);f.write(a[8:]+a[:8])"; }
swap
echo "one swapped pair at SA[2e9], SA[2e9+1] (expect exit 1):"
expect 1 tv "$P" sa check t --sa t.sa64 --width 64 | grep -E '^ +at |exit|wall'
swap

#!/usr/bin/env bash
# ci/memreport.sh [BUILD] - `make memreport`: runs every case of
# ci/memreport.cases under valgrind massif (--time-unit=B
# --peak-inaccuracy=0.0, every snapshot detailed), keeps the ms_print text
# of each in report/memory/<case>.txt, and lets ci/memreport.py compare the
# attributed peak with the case's memory model: report/memory.txt and
# report/memory.html. Exit status 1 when a line fails or a run failed.
set -u
B=${1:-build}
make --no-print-directory -j"$(nproc)" BUILD="$B" all >/dev/null || {
  echo "memreport: build failed"; exit 1; }
export PARCHECK=$PWD/$B/bin/parcheck
mkdir -p report/inputs report/memory
MASSIF=(valgrind --tool=massif --time-unit=B --peak-inaccuracy=0.0 --detailed-freq=1
        --max-snapshots=1000 --threshold=0.0 --depth=40)
trim() { sed -E 's/^[[:space:]]+|[[:space:]]+$//g' <<<"$1"; }
status=0
while IFS= read -r line; do
  case $line in ''|'#'*) continue ;; esac
  IFS='|' read -r name input gen run attr model <<<"$line"
  name=$(trim "$name"); input=$(trim "$input"); gen=$(trim "$gen"); run=$(trim "$run")
  export INPUT=$PWD/report/inputs/$input JSON=$PWD/report/memory/$name.json
  if [ ! -s "$INPUT" ] && [ "$gen" != - ]; then
    echo "memreport: generating report/inputs/$input"
    eval "$gen" >/dev/null || { echo "memreport: $name: generating $input failed"; status=1; continue; }
  fi
  out=report/memory/$name.massif
  start=$(date +%s)
  eval "${MASSIF[*]} --massif-out-file=$out --log-file=report/memory/$name.vg.log $run" \
    >report/memory/$name.out 2>&1
  rc=$?
  echo "memreport: $name ($(( $(date +%s) - start )) s, exit $rc)"
  [ "$rc" -eq 0 ] || { status=1; echo "$name: exit $rc" >>report/memory/failed-runs; }
  ms_print "$out" >report/memory/$name.txt 2>&1
done < ci/memreport.cases
python3 ci/memreport.py ci/memreport.cases report || status=1
exit $status

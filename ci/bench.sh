#!/usr/bin/env bash
# make bench: every ci/bench.d/<domain>.sh appends rows to report/bench.csv
# (domain,case,impl,threads,param,seconds,throughput,unit,note) and may write
# its own tables; ci/bench_plots.py draws the plots into report/.
set -u
BUILD=${1:-build}
export PARCHECK=$PWD/$BUILD/bin/parcheck BUILD
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p report
echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv
status=0
for s in $(ls ci/bench.d/*.sh 2>/dev/null | sort); do
  [ -n "${BENCH_ONLY:-}" ] && [ "$(basename "$s" .sh)" != "$BENCH_ONLY" ] && continue
  echo "== bench: $(basename "$s" .sh)"
  bash "$s" || status=1
done
python3 ci/bench_plots.py report || status=1
exit $status

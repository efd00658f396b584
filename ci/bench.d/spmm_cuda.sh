#!/usr/bin/env bash
# make bench: the CUDA SpMM sweep. Generated matrices of 2,097,152
# rows (banded 27/row, uniform 16/row, power-law mean ~8 with a 10,000-entry
# row) and the largest shared matrices, K = 1, 4, 16, 64, every CUDA
# implementation, median kernel time of SPMM_CUDA_REPS (default 10) runs
# after a warm-up. Appends rows (domain spmm-cuda) to report/bench.csv and
# writes the full table to report/bench-spmm-cuda.txt. Without a GPU:
# SKIPPED, exit 0. Knobs: SPMM_CUDA_ROWS, SPMM_CUDA_KS, SPMM_CUDA_IMPL.
set -u
BUILD=${BUILD:-build}
bin=$BUILD/bin/spmm-cuda-bench
if [ ! -x "$bin" ]; then
  echo "SKIPPED (spmm-cuda-bench not built)"
  exit 0
fi
data=${PARCHECK_DATA:-../shared/data}
cases=banded,uniform,powerlaw
for m in bcsstk13 pushpull cryg2500 ani4; do
  [ -f "$data/matrices/$m.mtx" ] && cases="$cases,$data/matrices/$m.mtx"
done
mkdir -p report
[ -f report/bench.csv ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv
set -o pipefail
"$bin" --cases "$cases" --k "${SPMM_CUDA_KS:-1,4,16,64}" --reps "${SPMM_CUDA_REPS:-10}" \
  --rows "${SPMM_CUDA_ROWS:-2097152}" --impl "${SPMM_CUDA_IMPL:-all}" --csv report/bench.csv \
  | tee report/bench-spmm-cuda.txt

#!/usr/bin/env bash
# make bench, plugins: the cost of isolation. The spmm_omp_ok example timed
# four ways in one process run (build/tests/plugin/bench_plugin): compiled
# in ("linked"), as the plugin .so in its worker process ("worker"), the
# same .so loaded in-process ("no-fork"), and parcheck's csr-omp for scale;
# rounds rotate the order, each figure is the median of the round medians.
# Target: worker within 5% of linked. Banded matrix, 27 entries a row,
# K = 16; PLUGIN_BENCH_ROWS sets the rows (default 2,000,000: the matrix is
# generated in memory, no file). Rows go to report/bench.csv (domain
# plugin), the run's output to report/bench-plugin.txt.
set -u
BUILD=${BUILD:-build}
ROWS=${PLUGIN_BENCH_ROWS:-2000000}
K=16
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/plugin/bench_plugin" examples >/dev/null || exit 1
out=report/bench-plugin.txt
threads=$(nproc)
"$BUILD/tests/plugin/bench_plugin" --rows "$ROWS" --nnz $((ROWS * 27)) --shape banded --seed 1 \
  --k "$K" --reps 10 --rounds 4 --threads "$threads" \
  --plugin "$BUILD/examples/spmm_omp_ok.so" | tee "$out" || exit 1
line=$(grep '^median of the round medians:' "$out") || { echo "bench_plugin printed no medians"; exit 1; }
ratio=$(grep -o 'worker / linked = [0-9.]*' "$out" | awk '{print $NF}')
for mode in linked worker no-fork csr-omp; do
  s=$(sed -E "s/.* $mode ([0-9.]+) s.*/\1/" <<<"$line")
  gf=$(awk -v s="$s" -v z=$((ROWS * 27)) -v k=$K 'BEGIN { printf "%.3f", 2 * z * k / s * 1e-9 }')
  echo "plugin,banded-$ROWS,spmm-omp-ok-$mode,$threads,$K,$s,$gf,GFLOP/s,worker/linked=$ratio" >> report/bench.csv
done

#!/usr/bin/env bash
# make bench, suffix arrays on the GPU: cuda and cuda-ms on 100 MB
# and 256 MB of order-5 Markov text trained on the shared English texts,
# 100 MB of random bytes and the shared texts concatenated; host-to-device
# and back included, median of SA_CUDA_BENCH_REPS (5) runs after a warm-up,
# each result checked by the O(n) oracles. Rows (domain sa-cuda) go to
# report/bench.csv, the driver's full lines to report/bench-sa-cuda.txt.
# Without a CUDA device: prints SKIPPED and exits 0.
set -u
. ci/sa_cuda_bench_env.sh sa_cuda
in=report/inputs
"$P" gen text --bytes 100000000 --kind text --seed 1 "${train[@]}" -o $in/sa-cuda-text100 || exit 1
"$P" gen text --bytes 256000000 --kind text --seed 3 "${train[@]}" -o $in/sa-cuda-text256 || exit 1
"$P" gen text --bytes 100000000 --kind random --seed 2 -o $in/sa-cuda-random100 || exit 1
cases="text100 text256 random100"
if [ -d "$DATA/texts" ]; then
  find "$DATA/texts" -maxdepth 1 -type f | sort | xargs cat > $in/sa-cuda-shared
  cases="$cases shared"
fi
status=0
: > report/bench-sa-cuda.txt
for c in $cases; do
  "$DRV" --reps "$REPS" $in/sa-cuda-$c > report/bench-sa-cuda-$c.log 2>&1 || status=1
  cat report/bench-sa-cuda-$c.log | tee -a report/bench-sa-cuda.txt
  awk -v c="$c" '$1 == "BENCH" { printf "sa-cuda,%s,%s,1,%s,%s,%s,MB/s,device %s B/n (driver pool peak %s B/n)\n", c, $3, $4, $5, $6, $7, $8 }' \
    report/bench-sa-cuda-$c.log >> report/bench.csv
done
# the same runs with the LCP (device Phi/PLCP, or host Kasai) on text100
"$DRV" --reps "$REPS" --lcp $in/sa-cuda-text100 2>&1 | tee -a report/bench-sa-cuda.txt | \
  awk '$1 == "BENCH" { printf "sa-cuda,text100,%s,1,%s,%s,%s,MB/s,device %s B/n\n", $3, $4, $5, $6, $7 }' >> report/bench.csv
grep '^sa-cuda,' report/bench.csv
exit $status

#!/usr/bin/env bash
# Suffix arrays on the GPU, the figures of the targets: cuda, cuda-ms and
# cuda-dc side by side on 64 MB of Markov text (`parcheck gen text --kind
# text --seed 1`, the generator's own model, as in README-sa-cuda.md) and on the
# repeated block (1 MB of random bytes x 64, `--kind repeat --block
# 1048576`), host-to-device and back included. Two drivers: sa-cuda-bench
# (median of SA_CUDA_BENCH_REPS (5) after a warm-up, device bytes per input
# byte, phases; results checked by the O(n) oracles, all three identical)
# and `parcheck sa --reps 3` (the CLI's table, validated by the oracles).
# A third input, when $PARCHECK_DATA/texts (default ../shared/data) has the
# English texts: 100 MB of Markov text trained on them (order-5 English, the
# text of the targets; the untrained generator leaves every suffix
# unsorted for 40 characters, which no English text does).
# Rows (domain sa-cuda-host) go to report/bench.csv, full output to
# report/bench-sa-cuda-host.txt. Without a CUDA device: SKIPPED, exit 0.
set -u
. ci/sa_cuda_bench_env.sh sa_cuda_host
in=${SA_CUDA_HOST_INPUTS:-report/inputs}
mkdir -p "$in"
"$P" gen text --bytes 64000000 --kind text --seed 1 -o "$in/sa-cuda-host-text64" || exit 1
"$P" gen text --bytes 67108864 --kind repeat --block 1048576 --seed 2 -o "$in/sa-cuda-host-repeat64" || exit 1
DATA=${PARCHECK_DATA:-../shared/data}
train=()
for t in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$t" ] && train+=(--train "$DATA/texts/$t")
done
classes="text64 repeat64"
if [ ${#train[@]} -gt 0 ]; then
  "$P" gen text --bytes 100000000 --kind text --seed 1 "${train[@]}" -o "$in/sa-cuda-host-english100" || exit 1
  classes="$classes english100"
fi
out=report/bench-sa-cuda-host.txt
: > "$out"
nvidia-smi -L 2>/dev/null | tee -a "$out"
echo "load: $(uptime)" | tee -a "$out"
status=0
for c in $classes; do
  f="$in/sa-cuda-host-$c"
  "$DRV" --reps "$REPS" "$f" > "$out.tmp" 2>&1 || status=1
  cat "$out.tmp" | tee -a "$out"
  awk -v c="$c" '$1 == "BENCH" { printf "sa-cuda-host,%s,%s,1,%s,%s,%s,MB/s,device %s B/n (driver pool peak %s B/n)\n", c, $3, $4, $5, $6, $7, $8 }' \
    "$out.tmp" >> report/bench.csv
  "$P" sa "$f" --impl cuda,cuda-ms,cuda-dc --reps 3 2>&1 | tee -a "$out" || status=1
done
rm -f "$out.tmp"
grep '^sa-cuda-host,' report/bench.csv | tail -n 9
exit $status

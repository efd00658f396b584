# Sourced by ci/bench.d/sa_cuda.sh and ci/bench.d/sa_cuda_host.sh (the GPU
# suffix-array benches, named by $1 in their messages): the build's paths
# (DRV: sa-cuda-bench, P: parcheck), REPS and DATA, the training texts of
# the Markov generator in train; exits the calling script with SKIPPED (0)
# when no CUDA device can be used, 1 when the driver is not built.
B=${BUILD:-build}
DRV=$B/bin/sa-cuda-bench
P=${PARCHECK:-$PWD/$B/bin/parcheck}
REPS=${SA_CUDA_BENCH_REPS:-5}
DATA=${PARCHECK_DATA:-../shared/data}
[ -x "$DRV" ] || { echo "$1: $DRV not built"; exit 1; }
probe=$("$DRV" --reps 1 /dev/null 2>&1 | head -n 1)
case "$probe" in SKIPPED*) echo "$1: $probe"; exit 0 ;; esac
train=()
for f in alice29.txt lcet10.txt plrabn12.txt asyoulik.txt; do
  [ -f "$DATA/texts/$f" ] && train+=(--train "$DATA/texts/$f")
done
mkdir -p report/inputs
[ -f report/bench.csv ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv

#!/usr/bin/env bash
# ci/cuda_race.sh [BUILD_DIR] - `make check-cuda-race`: compute-sanitizer
# --tool racecheck (shared-memory hazards) and --tool synccheck (invalid
# __syncthreads / warp-sync use) over the CUDA test binaries of BUILD_DIR.
# Any hazard or error fails. Under racecheck a kernel runs hundreds of times
# slower, so the SpMM suite runs its "basic" case (every kernel on the small
# irregular matrices; CUDA_RACE_SPMM_CASE overrides) and each run is limited
# to CUDA_RACE_TIMEOUT seconds (default 240; a run cut short fails). Without a GPU (or without compute-sanitizer)
# every run is SKIPPED with the reason. Ends with "N passed, N failed, N skipped".
set -u
B=${1:-build}
CS=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
bins=("$B/tests/spmm/test_spmm_cuda" "$B/tests/sa/test_cuda")
passed=0 failed=0 skipped=0
why=""
[ -x "$CS" ] || why="compute-sanitizer not found"
[ -n "$why" ] || nvidia-smi -L >/dev/null 2>&1 || why="no CUDA device"
for b in "${bins[@]}"; do
  for tool in racecheck synccheck; do
    if [ -n "$why" ]; then echo "SKIPPED $tool $(basename "$b"): $why"; skipped=$((skipped + 1)); continue; fi
    if [ ! -x "$b" ]; then echo "FAIL $tool: $b not built"; failed=$((failed + 1)); continue; fi
    log=$(mktemp)
    start=$SECONDS
    # Check's fork mode would hide the children from the tool
    case=""
    [ "$(basename "$b")" = test_spmm_cuda ] && case=${CUDA_RACE_SPMM_CASE:-basic}
    env ${case:+CK_RUN_CASE=$case} CK_FORK=no timeout "${CUDA_RACE_TIMEOUT:-240}" "$CS" --tool "$tool" --error-exitcode 66 --print-limit 20 "$b" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$log"; then
      passed=$((passed + 1)); echo "ok   $tool $(basename "$b") ($((SECONDS - start)) s): $(grep -m1 'SUMMARY:' "$log")"
    else
      failed=$((failed + 1)); echo "FAIL $tool $(basename "$b") (exit $rc, $((SECONDS - start)) s)"; grep -m20 -E 'Race|Hazard|ERROR|Error' "$log" | sed 's/^/     /'
    fi
    rm -f "$log"
  done
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

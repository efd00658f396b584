#!/usr/bin/env bash
# The bookkeeping of `make check-cuda-shared` (ci/cuda_shared.sh), on fake
# test binaries and a fake nvidia-smi (no GPU needed): copies that all pass
# count one pass each; one failing copy among four is named with its
# failure line and fails the run; without a device every binary is SKIPPED
# and the run passes; a copy count below 2 is refused. Prints the SUMMARY
# line of ci/run-tests.sh.
set -u
S=$PWD/ci/cuda_shared.sh
W=$(mktemp -d "${TMPDIR:-/tmp}/pc-cuda-shared-test-XXXXXX")
trap 'rm -rf "$W"' EXIT
passed=0 failed=0
check() { # label condition...
  local label=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $label"; fi
}
mkdir -p "$W/gpu" "$W/nogpu" "$W/b/tests/spmm" "$W/b/tests/sa" "$W/seq"
printf '#!/bin/sh\necho "GPU 0: fake"\n' >"$W/gpu/nvidia-smi"
printf '#!/bin/sh\nexit 9\n' >"$W/nogpu/nvidia-smi"
# the SpMM copies pass and say which case they were given
cat >"$W/b/tests/spmm/test_spmm_cuda" <<'SH'
#!/bin/sh
echo "case=$CK_RUN_CASE"
[ "$CK_RUN_CASE" = basic ] || { echo "SUMMARY passed=0 failed=1 skipped=0"; exit 1; }
echo "SUMMARY passed=7 failed=0 skipped=0"
SH
# the second of the SA copies to start fails (a counter file under a lock)
cat >"$W/b/tests/sa/test_cuda" <<SH
#!/bin/bash
exec 9>"$W/seq/lock"; flock 9
n=\$(( \$(cat "$W/seq/n" 2>/dev/null || echo 0) + 1 )); echo \$n >"$W/seq/n"
flock -u 9
if [ \$n = 2 ]; then echo "x.c:1:F:cuda:t_zero:0: entry (0,0) 0 != 5"; echo "SUMMARY passed=3 failed=1 skipped=0"; exit 1; fi
echo "SUMMARY passed=4 failed=0 skipped=0"
SH
chmod +x "$W"/gpu/* "$W"/nogpu/* "$W"/b/tests/*/*
out=$(PATH="$W/gpu:$PATH" CUDA_SHARED_PROCS=4 bash "$S" "$W/b" 2>&1)
rc=$?
check "one failing copy fails the run (exit $rc)" [ $rc = 1 ]
check "the counts: $(echo "$out" | tail -n 1)" [ "$(echo "$out" | tail -n 1)" = "7 passed, 1 failed, 0 skipped" ]
check "the failing copy named" grep -q "^FAIL test_cuda copy [1-4] of 4:" <<<"$out"
check "its failure line shown" grep -q "t_zero:0: entry (0,0) 0 != 5" <<<"$out"
check "the SpMM copies ran their basic case" grep -q "test_spmm_cuda x 4 at once (case basic)" <<<"$out"
rm -f "$W/seq/n"
out=$(PATH="$W/gpu:$PATH" CUDA_SHARED_PROCS=2 CUDA_SHARED_SPMM_CASE=large bash "$S" "$W/b" 2>&1)
check "another case is passed on (and fails here)" grep -q "^FAIL test_spmm_cuda copy 1 of 2:" <<<"$out"
out=$(PATH="$W/nogpu:$PATH" bash "$S" "$W/b" 2>&1)
rc=$?
check "no device: SKIPPED, exit 0 (exit $rc)" [ $rc = 0 ]
check "no device: the counts" [ "$(echo "$out" | tail -n 1)" = "0 passed, 0 failed, 2 skipped" ]
check "no device: the reason" grep -q "^SKIPPED test_cuda x 4: no CUDA device" <<<"$out"
out=$(PATH="$W/gpu:$PATH" CUDA_SHARED_PROCS=1 bash "$S" "$W/b" 2>&1)
rc=$?
check "one copy refused (exit $rc)" [ $rc = 2 ]
check "one copy: the message" grep -q "CUDA_SHARED_PROCS must be a number >= 2" <<<"$out"
echo "SUMMARY passed=$passed failed=$failed skipped=0"
[ "$failed" = 0 ]

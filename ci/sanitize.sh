#!/usr/bin/env bash
# ci/sanitize.sh [BUILD_DIR] - builds everything with ASan + UBSan into
# BUILD_DIR (default build-asan) and runs every suite there
# (ci/run-tests.sh), the fuzz corpus replay included. Any sanitizer report
# fails the test that produced it. Exit status of ci/run-tests.sh.
set -u
B=${1:-build-asan}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# Through the environment: the domains' `EXTRA_CFLAGS += ...` still apply.
# The Makefile links build/bin/parcheck with CFLAGS and EXTRA_LDFLAGS only
# (not EXTRA_CFLAGS), so the sanitizers are named for the link too.
export EXTRA_CFLAGS="${EXTRA_CFLAGS:-} $SAN -O1"
# CUDA=0: nvcc compiles the .cu host code without the sanitizers anyway,
# and no GPU runs it here; the main build compiles CUDA on every change.
# Exported, so that the scripts that call make on this tree (install.sh)
# see the same configuration: given CUDA=1 they rebuilt and relinked it
# while sa-mpi ran its programs beside them ("could not execute").
export CUDA=0
export EXTRA_LDFLAGS="${EXTRA_LDFLAGS:-} $SAN"
# abort_on_error=0: a report exits with status 1 (Check's forked test fails,
#   the CLI returns 1), not a core dump;
# detect_leaks=1: LeakSanitizer at each process exit (Check forks a process
#   per test, so a leak fails that test);
# libgomp's thread pool keeps its memory until exit but stays reachable
#   through globals, so no suppression is needed (see docs/README-harness.md;
#   ci/lsan.supp is where one would go).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/ci/lsan.supp:print_suppressions=0}"
# MPI ranks (ci/tests.d/sa-mpi.sh, and the CLI's mpi / mpi-omp, which
# launch parcheck-sa-mpi through mpirun with $PARCHECK_MPIRUN_ARGS): Open
# MPI leaves its own and its dlclose'd plugins' allocations unfreed at exit
# (no module name to suppress by), so LeakSanitizer is off in the ranks
# only: `mpirun -x` gives them ASAN_OPTIONS with detect_leaks=0 last.
# ASan and UBSan still check them; parcheck itself keeps detect_leaks=1.
export PARCHECK_MPIRUN_ARGS="${PARCHECK_MPIRUN_ARGS:-} -x ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export PARCHECK_HARNESS_NESTED=1
# the MPI script's shared texts over 300 KB (bible.txt, gauntlet_fss9,
# plrabn12.txt, lcet10.txt) take the same paths as the smaller ones (and as
# the generated inputs of 1 MB and 300 KB) at 3-5x the time under ASan: a
# third of this suite's wall time, for no path the others miss
export SA_MPI_TEXT_MAX_BYTES=${SA_MPI_TEXT_MAX_BYTES:-300000}
# the heaviest sweeps of the Check suites take the subset of their inputs
# that reaches every path they test (pc_test_light in tests/common/pc_test.h):
# the plain pass of the same `make check` runs them whole
export PARCHECK_TEST_LIGHT=${PARCHECK_TEST_LIGHT:-1}
jobs=$(nproc)
echo "check-sanitize: building $B (ASan+UBSan, -O1)"
start=$(date +%s)
mkdir -p "$B"
make --no-print-directory -j"$jobs" BUILD="$B" all tests >"$B/build.log" 2>&1 || {
  tail -n 30 "$B/build.log"; echo "check-sanitize: build failed (log $B/build.log)"; exit 1; }
echo "check-sanitize: built in $(( $(date +%s) - start )) s"
bash ci/run-tests.sh "$B"
rc=$?
echo "check-sanitize: $(( $(date +%s) - start )) s in all"
exit $rc

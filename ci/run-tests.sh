#!/usr/bin/env bash
# Runs every Check suite under BUILD/tests (and any ci/tests.d/*.sh script),
# then prints one closing line "N passed, N failed, N skipped" summed over
# all suites. Exit status 1 when anything failed.
#
# Suites run side by side, PARCHECK_TEST_JOBS at a time (default: the
# number of cores), longest first, so that a 2-core machine is kept busy:
# most suites are one process on one core, and the MPI script mostly waits
# on mpirun start-up. Each suite's lines are printed when it ends. Each suite
# gets a private TMPDIR: two mpirun started at once in one TMPDIR race to
# create Open MPI's session directory ("mkdir ... File exists").
set -u
BUILD=${1:-build}
export PARCHECK_BIN=${PARCHECK_BIN:-$PWD/$BUILD/bin/parcheck}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Checks forks each test; keep OpenMP to the cores this machine has.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
jobs_max=${PARCHECK_TEST_JOBS:-$(nproc)}
# Suites share the cores: a spinning OpenMP barrier would wait for a
# descheduled partner, so threads sleep when they wait.
[ "$jobs_max" -gt 1 ] && export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
passed=0 failed=0 skipped=0 broken=()
log_dir=$BUILD/test-logs
mkdir -p "$log_dir"
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-tests-XXXXXX")
trap 'rm -rf "$run_tmp"' EXIT

tally() { # name logfile status
  local line
  line=$(grep -E '^SUMMARY passed=' "$2" | tail -n 1)
  if [ -z "$line" ]; then
    failed=$((failed + 1)); broken+=("$1 (exit $3, no summary)")
    return
  fi
  local p f s
  p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  s=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$line")
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  if [ "$f" -gt 0 ] || [ "$3" -ne 0 ]; then
    broken+=("$1")
    [ "$f" -gt 0 ] || failed=$((failed + 1))
  fi
}

# The job list: "kind name path log". Scripts first, the longest ones at
# the head (they build trees of their own), then the Check suites.
job_list=()
add_script() {
  local name
  name=$(basename "$1" .sh)
  job_list+=("script $name $1 $log_dir/script_$name.log")
}
for s in sanitize race openmp-off sa-mpi; do
  [ -f "ci/tests.d/$s.sh" ] && add_script "ci/tests.d/$s.sh"
done
for s in $(ls ci/tests.d/*.sh 2>/dev/null | sort); do
  case $(basename "$s" .sh) in sanitize|race|openmp-off|sa-mpi) continue ;; esac
  add_script "$s"
done
for t in $(find "$BUILD/tests" -type f -perm -u+x -name 'test_*' | sort); do
  name=${t#"$BUILD"/tests/}
  job_list+=("test $name $t $log_dir/${name//\//_}.log")
done

# run_job INDEX: one suite in the background; its status and seconds go to
# $run_tmp/INDEX.done when it ends.
run_job() {
  local kind name path log
  read -r kind name path log <<<"${job_list[$1]}"
  mkdir -p "$run_tmp/$1"
  (
    export TMPDIR=$run_tmp/$1
    start=$(date +%s)
    if [ "$kind" = test ]; then "$path" >"$log" 2>&1; else bash "$path" "$BUILD" >"$log" 2>&1; fi
    rc=$?
    echo "$rc $(( $(date +%s) - start ))" >"$run_tmp/$1.tmp" && mv "$run_tmp/$1.tmp" "$run_tmp/$1.done"
  ) &
}

# report_job INDEX: its lines, its time, its tally.
report_job() {
  local kind name path log rc secs
  read -r kind name path log <<<"${job_list[$1]}"
  read -r rc secs <"$run_tmp/$1.done"
  echo "== $name"
  if [ "$kind" = test ]; then
    grep -E '^(SKIPPED|SUMMARY|[0-9]+%:)|:[EF]:' "$log" | head -n 40
  else
    grep -E '^(SKIPPED|SUMMARY|FAIL|zoo:|race:|sanitize:|check-sanitize:)' "$log" | head -n 40
  fi
  echo "   ($secs s)"
  tally "$name" "$log" "$rc"
}

total_start=$(date +%s)
next=0 running=0 reported=()
while [ "$next" -lt ${#job_list[@]} ] || [ "$running" -gt 0 ]; do
  while [ "$running" -lt "$jobs_max" ] && [ "$next" -lt ${#job_list[@]} ]; do
    run_job "$next"
    next=$((next + 1)) running=$((running + 1))
  done
  wait -n 2>/dev/null || true
  # a suite whose shell died before writing its status counts as failed
  if [ -z "$(jobs -pr)" ]; then
    for ((i = 0; i < next; i++)); do
      [ -n "${reported[$i]:-}" ] || [ -f "$run_tmp/$i.done" ] || echo "1 0" >"$run_tmp/$i.done"
    done
  fi
  for ((i = 0; i < next; i++)); do
    if [ -z "${reported[$i]:-}" ] && [ -f "$run_tmp/$i.done" ]; then
      report_job "$i"
      reported[$i]=1
      running=$((running - 1))
    fi
  done
done
wait

if [ ${#broken[@]} -gt 0 ]; then
  echo "failing suites (logs in $log_dir):"
  printf '  %s\n' "${broken[@]}"
fi
echo "all suites: $(( $(date +%s) - total_start )) s wall, $jobs_max at a time"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

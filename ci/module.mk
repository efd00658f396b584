# ci/module.mk - quality jobs (included by the Makefile).
#
#   make check-sanitize   ASan + UBSan build in build-asan, every suite  (ci/sanitize.sh)
#   make check-valgrind   memcheck over every suite of the normal build  (ci/valgrind.sh)
#   make coverage         gcc --coverage build in build-cov, lcov/genhtml (ci/coverage.sh)
#   make memreport        massif peak per CPU implementation vs its model (ci/memreport.sh)
#
# Each script re-enters make with its own BUILD and passes the extra flags
# through the environment (not the command line), so that the EXTRA_CFLAGS
# += ... of the domains' module.mk fragments still apply.

.PHONY: check-sanitize check-valgrind coverage memreport

check-sanitize: bootstrap
	@bash ci/sanitize.sh

check-valgrind: bootstrap
	@bash ci/valgrind.sh $(BUILD)

coverage: bootstrap
	@bash ci/coverage.sh

memreport: bootstrap
	@bash ci/memreport.sh $(BUILD)

# make check-race        clang TSan + Archer build in build-tsan, OpenMP suites and CLI runs (ci/race.sh)
# make check-cuda-race   compute-sanitizer racecheck + synccheck over the CUDA suites (ci/cuda_race.sh)
.PHONY: check-race check-cuda-race check-cuda-shared
check-race: bootstrap
	@bash ci/race.sh

check-cuda-race: all tests
	@bash ci/cuda_race.sh $(BUILD)

# make check-cuda-shared CUDA_SHARED_PROCS=N (default 4) copies of each CUDA suite at once (ci/cuda_shared.sh)
check-cuda-shared: all tests
	@bash ci/cuda_shared.sh $(BUILD)

# make mutate            mutation testing of the CPU sources (ci/mutate.py, docs/README-harness.md):
#                        universalmutator in a venv, one worker tree per job, resumable;
#                        MUTATE_SAMPLE=N MUTATE_SEED=S, MUTATE_PER_FILE=N, MUTATE_FILES=..., MUTATE_JOBS=N.
#                        Not part of make check (days for the whole population).
MUTATE_VENV ?= $(BUILD)/mutate-venv
UNIVERSALMUTATOR ?= universalmutator==1.14.1
.PHONY: mutate
mutate: bootstrap
	@$(MAKE) --no-print-directory all tests
	@test -x $(MUTATE_VENV)/bin/mutate || { /usr/bin/python3 -m venv $(MUTATE_VENV) && \
	  $(MUTATE_VENV)/bin/pip install -q '$(UNIVERSALMUTATOR)'; } || { \
	  echo 'mutate: could not install $(UNIVERSALMUTATOR) into $(MUTATE_VENV)'; exit 1; }
	@/usr/bin/python3 ci/mutate.py --build $(BUILD) --venv $(MUTATE_VENV)

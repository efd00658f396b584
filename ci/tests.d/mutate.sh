#!/usr/bin/env bash
# The bookkeeping of `make mutate` (ci/mutate.py): diffs, domains, score,
# equivalent list, sample, resumption, report, object digests; it compiles
# only four one-line files (about a second). Prints the SUMMARY line of
# ci/run-tests.sh.
set -u
/usr/bin/python3 ci/mutate_selftest.py

#!/usr/bin/env bash
# make report: every ci/report.d/<domain>.sh runs its implementations on
# seeded inputs (generated once into the cache BUILD/inputs, see
# ci/report_inputs.sh) and leaves parcheck's JSON results in
# REPORT_DIR/runs/ (REPORT_DIR=report unless set); the machine's description
# goes to REPORT_DIR/machine.txt; ci/report_html.py then prints the summary
# and writes REPORT_DIR/index.html. REPORT_SIZE=small runs the tiny variant.
# Non-zero exit when any validation failed.
set -u
BUILD=${1:-build}
export PARCHECK=$PWD/$BUILD/bin/parcheck BUILD
export REPORT_DIR=${REPORT_DIR:-report}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$REPORT_DIR
# report/inputs: where inputs went before the cache (hundreds of MB)
rm -rf "$R/runs" "$R/inputs" "$R"/plot-*.svg "$R"/plot-*.dat
mkdir -p "$R/runs"
status=0
for s in $(ls ci/report.d/*.sh 2>/dev/null | sort); do
  echo "== report: $(basename "$s" .sh)"
  bash "$s" || status=1
done
bash ci/report_machine.sh "$PARCHECK" >"$R/machine.txt"
python3 ci/report_html.py "$R" || status=1
# The rendering check (headless Chromium) when chromium is there: the page
# and its plots as report/screenshot.png.
if command -v chromium >/dev/null 2>&1 && [ -f "$R/index.html" ]; then
  python3 ci/report_render.py "$R" || echo "report: the rendering check failed (above)"
fi
exit $status

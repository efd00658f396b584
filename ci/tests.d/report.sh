#!/usr/bin/env bash
# ci/tests.d/report.sh [BUILD] - the report as a reader meets it, on the
# tiny variant of make report (REPORT_SIZE=small: seconds, not the full
# inputs) written to a scratch folder: the header names the machine; the
# counts and the grouped skip reasons equal those recounted from the JSON
# results; the verdict sentence is the true one (also for a result made to
# fail); the stdout summary shows the skip reasons; and headless Chromium
# renders the page with every plot drawn (ci/report_render.py; SKIPPED with
# the reason when chromium is not installed).
# Prints the SUMMARY line of ci/run-tests.sh.
set -u
BUILD=${1:-build}
# inside the sanitizer, valgrind or coverage runs: the normal run covers it
if [ -n "${PARCHECK_HARNESS_NESTED:-}" ]; then
  echo "SUMMARY passed=0 failed=0 skipped=0"
  exit 0
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
R=$tmp/report
REPORT_DIR=$R REPORT_SIZE=small bash ci/report.sh "$BUILD" >"$tmp/out.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "small report exits 0" || { fail "small report exits $rc"; tail -n 20 "$tmp/out.txt"; }

# Recount from the JSON, independently of ci/report_html.py.
"$PY" - "$R" >"$tmp/expect.txt" <<'PYEOF'
import collections, glob, json, sys
st, why = collections.Counter(), collections.Counter()
for p in glob.glob(sys.argv[1] + '/runs/*.json'):
    for r in json.load(open(p))['results']:
        st[r['status']] += 1
        if r['status'] == 'skipped':
            why[r.get('reason') or 'no reason given'] += 1
print('%d results: %d passed, %d failed, %d skipped, %d error' % (sum(st.values()), st['pass'], st['fail'], st['skipped'], st['error']))
for w, n in why.items():
    print('%d skipped: %s' % (n, w))
print('PASSED %d' % st['pass'])
PYEOF
counts=$(head -n 1 "$tmp/expect.txt")
npass=$(sed -n 's/^PASSED //p' "$tmp/expect.txt")
page=$R/index.html
if [ -f "$page" ] && grep -qF "<p id=\"counts\">$counts</p>" "$page"; then
  ok "page counts: $counts"
else
  fail "page counts: want '$counts'"; grep -o '<p id="counts">[^<]*' "$page"
fi
grep -qF "summary: $counts" "$tmp/out.txt" && ok "stdout summary counts" || fail "stdout summary lacks '$counts'"
while IFS= read -r line; do
  case $line in *" skipped: "*) ;; *) continue ;; esac
  if grep -qF "<li>$line</li>" "$page" && grep -qF "  $line" "$tmp/out.txt"; then
    ok "skip reason grouped: $line"
  else
    fail "skip reason not grouped on the page and stdout: $line"
  fi
done <"$tmp/expect.txt"
for label in date host CPU 'hardware threads' memory GPU 'OpenCL platforms' compiler flags commit 'parcheck version'; do
  v=$(grep -o "<tr><th>$label</th><td>[^<]*</td>" "$page" | sed 's/.*<td>\(.*\)<\/td>/\1/')
  if [ -n "$v" ] && [ "$v" != unknown ]; then ok "header $label: $v"; else fail "header $label: '${v}'"; fi
done
want_gpu=$(nvidia-smi -L >/dev/null 2>&1 && echo some || echo none)
got_gpu=$(grep -o '<tr><th>GPU</th><td>[^<]*' "$page" | sed 's/.*<td>//')
{ [ "$want_gpu" = none ] && [ "$got_gpu" = none ]; } || { [ "$want_gpu" = some ] && [ "$got_gpu" != none ]; } &&
  ok "GPU line matches nvidia-smi ($got_gpu)" || fail "GPU line '$got_gpu', nvidia-smi says $want_gpu"
grep -qF "All $npass results that ran passed their oracle" "$page" && ok "verdict: all $npass that ran passed" ||
  fail "verdict: $(grep -o '<p class="verdict"[^<]*' "$page")"

# One result made to fail: the verdict must say so, and the exit status.
mkdir -p "$tmp/bad/runs"
cp "$R"/runs/sa-text.json "$tmp/bad/runs/"
sed -i '0,/"status":"pass"/s//"status":"fail"/' "$tmp/bad/runs/sa-text.json"
"$PY" ci/report_html.py "$tmp/bad" >"$tmp/bad.txt" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^1 of the [0-9]* results that ran did not pass their oracle: .* (fail)\.$" "$tmp/bad.txt"; then
  ok "a failed result: exit 1 and a verdict that names it"
else
  fail "a failed result: exit $rc, $(tail -n 2 "$tmp/bad.txt")"
fi

# Rendering.
"$PY" ci/report_render.py "$R" "$tmp/shot.png" >"$tmp/render.txt" 2>&1
rc=$?
cat "$tmp/render.txt"
if [ $rc -eq 2 ]; then
  echo "SKIPPED render: chromium is not installed here (ci/bootstrap installs it where apt can)"
  skipped=$((skipped + 1))
elif [ $rc -eq 0 ]; then
  passed=$((passed + $(grep -c '^ok ' "$tmp/render.txt")))
else
  passed=$((passed + $(grep -c '^ok ' "$tmp/render.txt")))
  failed=$((failed + $(grep -c '^FAIL' "$tmp/render.txt")))
fi
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]

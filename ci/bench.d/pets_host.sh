#!/usr/bin/env bash
# PETS end to end on one host, side by side in one run: the graph of the
# selection targets (gen dag --tasks 2^19 --out-degree 3 --alpha 1 --ccr 1
# --eta 0.5 --procs 8 --seed 3; PETS_BENCH_MAX=e < 19 makes it 2^e),
# `parcheck pets --impl all --reps R --threads T` on every OpenCL platform
# (--cl-platform P; once with the default device when there is none), then
# serial with `--select linear` (the seed's slot search). Prints each run's
# total and phases with the ratios against serial of the same run, the
# selection against --select linear, and which targets hold:
#   ocl >= 3.5x serial, ocl-vec8 >= ocl, omp >= 4x serial (16 threads),
#   selection (best of the run) >= 5x serial --select linear.
# omp also runs with its phases one after the other (PARCHECK_PETS_STREAM=0)
# for the selection's own time. Rows (domain pets-host) go to report/bench.csv, the table to
# report/bench-pets-host.txt, each run's JSON to report/runs/.
# Usage: ci/bench.d/pets_host.sh [BUILD]  (also run by make bench)
# Env: PETS_HOST_THREADS (default: nproc), PETS_HOST_REPS (3),
#      OMP_WAIT_POLICY (set it to passive on a shared machine).
set -u
B=${1:-${BUILD:-build}}
P=${PARCHECK:-$PWD/$B/bin/parcheck}
[ -x "$P" ] || { echo "pets_host: $P not built"; exit 1; }
T=${PETS_HOST_THREADS:-$(nproc)}
R=${PETS_HOST_REPS:-3}
e=${PETS_BENCH_MAX:-19}
[ "$e" -gt 19 ] && e=19
v=$((1 << e))
mkdir -p report/inputs report/runs
[ -f report/bench.csv ] || echo "domain,case,impl,threads,param,seconds,throughput,unit,note" > report/bench.csv
g=report/inputs/pets-host-$e.dag
"$P" gen dag --tasks $v --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 8 --seed 3 -o "$g" >/dev/null || exit 1
plats=$("$P" list 2>/dev/null | sed -n 's/^ *opencl \([0-9]*\)\.[0-9]*:.*/\1/p' | sort -un)
[ -n "$plats" ] || plats=default
status=0
runs=()
for p in $plats; do
  out=report/runs/pets-host-$e-cl$p.json
  opt=(); [ "$p" != default ] && opt=(--cl-platform "$p")
  echo "== pets_host: platform $p: $("$P" list 2>/dev/null | grep -m1 "opencl $p\." | sed 's/^ *//')"
  "$P" pets "$g" --impl all --reps "$R" --threads "$T" ${opt[@]+"${opt[@]}"} --json "$out" >/dev/null || status=1
  runs+=("$p=$out")
done
lin=report/runs/pets-host-$e-linear.json
"$P" pets "$g" --impl serial --select linear --reps "$R" --json "$lin" >/dev/null || status=1
# omp with its phases one after the other: the selection's own time on T
# threads (a stream overlaps it with the other phases)
phased=report/runs/pets-host-$e-phased.json
PARCHECK_PETS_STREAM=0 "$P" pets "$g" --impl omp --reps "$R" --threads "$T" --json "$phased" >/dev/null || status=1
python3 - "$v" "$T" "$lin" report/bench.csv report/bench-pets-host.txt "$phased" "${runs[@]}" <<'PY' || status=1
import json, sys
v, T, lin, csv, txt, phased = sys.argv[1:7]
runs = [a.split('=', 1) for a in sys.argv[7:]]
out = []
def say(s=''):
    out.append(s)
    print(s)
jl = json.load(open(lin))['results'][0]
lsel = jl['timings']['select_s'] if jl['status'] == 'pass' else 0
say('v = %s, threads %s; serial --select linear: total %.3f s, selection %.3f s (%s)' %
    (v, T, jl.get('seconds', 0), lsel, jl['status']))
best_sel = None
verdicts = []
with open(csv, 'a') as c:
    for plat, path in runs:
        d = json.load(open(path))
        res = {r['impl']: r for r in d['results']}
        ser = res.get('serial', {})
        st = ser.get('seconds') if ser.get('status') == 'pass' else None
        say()
        say('platform %s (%s)' % (plat, path))
        say('%-9s %-7s %8s %8s %8s %8s %8s %8s %9s %9s' % ('impl', 'status', 'total', 'metrics', 'sort',
            'select', 'h2d+d2h', 'setup', 'vs serial', 'sel/linear'))
        for name in ('serial', 'omp', 'ocl', 'ocl-vec8'):
            r = res.get(name)
            if not r:
                continue
            if r['status'] != 'pass':
                say('%-9s %-7s %s' % (name, r['status'], r.get('reason', '')[:100]))
                c.write('pets-host,total,%s,%s,%s,,,s,%s platform %s\n' % (name, T, v, r['status'], plat))
                continue
            tm = r['timings']
            sel = tm['select_s']
            # a streamed run's select_s is only what follows its overlapped
            # metrics and sort, not a whole selection: not comparable
            if not tm.get('overlapped'):
                best_sel = sel if best_sel is None else min(best_sel, sel)
            else:
                name += '*'
            lin_ratio = lsel / sel if sel and lsel and not tm.get('overlapped') else 0
            ratio = st / r['seconds'] if st else 0
            say('%-9s %-7s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.2fx %8.2fx' % (name, r['status'], r['seconds'],
                tm.get('metrics_s', 0), tm.get('sort_s', 0), sel, tm.get('h2d_s', 0) + tm.get('d2h_s', 0),
                tm.get('setup_s', 0), ratio, lin_ratio))
            name = name.rstrip('*')
            c.write('pets-host,total,%s,%s,%s,%.6g,%.6g,tasks/s,platform %s\n' % (name, T, v, r['seconds'], r['throughput'], plat))
            for ph in ('h2d', 'metrics', 'sort', 'd2h', 'select'):
                c.write('pets-host,phase-%s,%s,%s,%s,%.6g,,s,platform %s\n' % (ph, name, T, v, tm.get(ph + '_s', 0), plat))
        def t(name):
            r = res.get(name, {})
            return r.get('seconds') if r.get('status') == 'pass' else None
        o, o8, om = t('ocl'), t('ocl-vec8'), t('omp')
        if st and o:
            verdicts.append('platform %s: ocl %.2fx serial (target 3.5x): %s' % (plat, st / o, 'holds' if st / o >= 3.5 else 'not met'))
        if o and o8:
            verdicts.append('platform %s: ocl-vec8 %.3f s vs ocl %.3f s (target: no slower): %s' % (plat, o8, o, 'holds' if o8 <= o else 'not met'))
        if st and om:
            verdicts.append('platform %s: omp (%s threads) %.2fx serial (target 4x at 16): %s' % (plat, T, st / om, 'holds' if st / om >= 4 else 'not met'))
if any(json.load(open(p_))['results'] and any(r.get('timings', {}).get('overlapped') for r in json.load(open(p_))['results']) for _, p_ in runs):
    say('* a stream (phases overlapped): each phase is the time from the end of the one before to its own end')
jp = json.load(open(phased))['results'][0]
if jp['status'] == 'pass':
    psel = jp['timings']['select_s']
    best_sel = psel if best_sel is None else min(best_sel, psel)
    say('omp, phases one after the other (PARCHECK_PETS_STREAM=0): total %.3f s, selection %.3f s' %
        (jp['seconds'], psel))
if best_sel and lsel:
    verdicts.append('selection: best %.3f s, %.2fx serial --select linear (%.3f s; target 5x): %s' %
                    (best_sel, lsel / best_sel, lsel, 'holds' if lsel / best_sel >= 5 else 'not met'))
say()
for s in verdicts:
    say(s)
open(txt, 'w').write('\n'.join(out) + '\n')
PY
exit $status

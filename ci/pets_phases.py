#!/usr/bin/env python3
"""pets_phases.py REPORT_DIR [RUN [NAME]] - where the time of each PETS
implementation goes: one stacked bar per implementation (entry, metrics,
sort, selection, transfers = host-to-device + device-to-host) from the
per-phase medians ("timings") of a `parcheck pets --json` run.

RUN defaults to REPORT_DIR/runs/pets-large-insertion.json (make report's
largest generated graph). Writes REPORT_DIR/plot-pets-phases.svg with
gnuplot and REPORT_DIR/pets-phases.txt (the same numbers as a table);
NAME replaces "plot-pets-phases" / "pets-phases" in both file names.
Exit 0 also when gnuplot is missing (the table is still written); 1 when
the run cannot be read."""
import json
import os
import subprocess
import sys

PHASES = (('entry', ('entry_s',)), ('metrics', ('metrics_s',)), ('sort', ('sort_s',)),
          ('selection', ('select_s',)), ('transfers', ('h2d_s', 'd2h_s')))


def phase_rows(run):
    """[(impl, [seconds per phase])] of the results that passed."""
    rows = []
    for r in run.get('results', []):
        t = r.get('timings')
        if r.get('status') != 'pass' or not t:
            continue
        # a stream's phases overlap: each is the time from the end of the
        # one before, so the stack still adds up to the total; marked *
        name = r['impl'] + ('*' if t.get('overlapped') else '')
        rows.append((name, [sum(t.get(k, 0.0) for k in keys) for _, keys in PHASES]))
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'report'
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(out, 'runs', 'pets-large-insertion.json')
    try:
        with open(path) as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        print('pets_phases: cannot read %s: %s' % (path, e))
        return 1
    rows = phase_rows(run)
    inp = run.get('input', {})
    title = 'PETS phases, %s tasks, %s edges, %s processors (%s, select %s)' % (
        inp.get('tasks'), inp.get('edges'), inp.get('procs'), inp.get('policy'), inp.get('select', 'gaps'))
    if any(impl.endswith('*') for impl, _ in rows):
        title += '; * phases overlapped'
    name = sys.argv[3] if len(sys.argv) > 3 else None
    txt = os.path.join(out, (name or 'pets-phases') + '.txt')
    with open(txt, 'w') as f:
        f.write('# %s\n%-12s %s %10s\n' % (title, 'impl', ' '.join('%10s' % p for p, _ in PHASES), 'total'))
        for impl, v in rows:
            f.write('%-12s %s %10.6f\n' % (impl, ' '.join('%10.6f' % x for x in v), sum(v)))
    dat = os.path.join(out, (name or 'plot-pets-phases') + '.dat')
    with open(dat, 'w') as f:
        f.write('impl ' + ' '.join(p for p, _ in PHASES) + '\n')
        for impl, v in rows:
            f.write('"%s" %s\n' % (impl, ' '.join('%g' % x for x in v)))
    if not rows or subprocess.run(['which', 'gnuplot'], capture_output=True).returncode != 0:
        print('pets_phases: %s (no plot: %s)' % (txt, 'no passing result' if not rows else 'no gnuplot'))
        return 0
    svg = os.path.join(out, (name or 'plot-pets-phases') + '.svg')
    script = '''set terminal svg size 900,420 dynamic font "sans,10"
set output "%s"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set key outside right top
set ylabel "seconds (median of the timed runs)"
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set title "%s"
plot for [c=2:%d] "%s" using c:xtic(1) title columnheader(c)
''' % (svg, title, len(PHASES) + 1, dat)
    r = subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        print('pets_phases: gnuplot failed: %s' % r.stderr.strip()[:300])
        return 0
    print('pets_phases: %s, %s' % (svg, txt))
    return 0


if __name__ == '__main__':
    sys.exit(main())

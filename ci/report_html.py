#!/usr/bin/env python3
"""Builds report/index.html from parcheck's JSON results in report/runs/.

Prints the verdict table (one row per input x implementation), draws a
throughput plot per domain with gnuplot (SVG), and links the other reports
(bench, memory, coverage) when they exist. Exit 1 when a result failed,
erred, crashed or timed out. Rows of plugin entries (`--plugin`, make
report PLUGINS=...; their metrics name the .so under "plugin") show the
implementation as "name [plugin FILE.so]"."""
import glob, html, json, os, subprocess, sys

out = sys.argv[1] if len(sys.argv) > 1 else 'report'
runs = []
for path in sorted(glob.glob(os.path.join(out, 'runs', '*.json'))):
    try:
        with open(path) as f:
            runs.append((os.path.basename(path)[:-5], json.load(f)))
    except (OSError, ValueError) as e:
        print('report: unreadable %s: %s' % (path, e))
        runs.append((os.path.basename(path)[:-5], None))

def metric_text(m):
    parts = []
    for k, v in m.items():
        if k == 'plugin':  # shown beside the implementation's name
            continue
        if isinstance(v, float):
            parts.append('%s=%.3g' % (k, v))
        else:
            parts.append('%s=%s' % (k, v))
    return ' '.join(parts)

failed = 0
rows = []
by_domain = {}
for name, j in runs:
    if j is None:
        failed += 1
        rows.append(('?', name, '-', 'error', 'unreadable JSON', 0, 0, ''))
        continue
    dom = j.get('domain', '?')
    for r in j.get('results', []):
        st = r.get('status')
        if st not in ('pass', 'skipped'):  # fail, error, crashed, timeout
            failed += 1
        impl = r.get('impl')
        plugin = r.get('metrics', {}).get('plugin')
        if plugin:
            impl = '%s [plugin %s]' % (impl, plugin)
        text = metric_text(r.get('metrics', {}))
        if r.get('reason') and (st != 'pass' or not text):
            text = (text + ' (%s)' % r['reason']) if text else r['reason']
        rows.append((dom, name, impl, st, text, r.get('seconds', 0), r.get('throughput', 0), r.get('unit', '')))
        if st == 'pass':
            by_domain.setdefault(dom, []).append((name, impl, r.get('throughput', 0), r.get('unit', '')))

# Text table on stdout.
w = max([len(r[1]) for r in rows] + [5])
print('%-6s %-*s %-28s %-8s %12s %12s' % ('domain', w, 'input', 'impl', 'verdict', 'median_s', 'throughput'))
for d, n, i, s, m, sec, thr, unit in rows:
    print('%-6s %-*s %-28s %-8s %12.6f %9.3f %s' % (d, w, n, i, s, sec or 0, thr or 0, unit))

# One grouped bar plot per domain: throughput by input, one bar per impl.
plots = {}
gp = subprocess.run(['which', 'gnuplot'], capture_output=True).returncode == 0
for dom, pts in by_domain.items():
    if not gp:
        break
    inputs = sorted({p[0] for p in pts})
    impls = sorted({p[1] for p in pts})
    unit = pts[0][3]
    dat = os.path.join(out, 'plot-%s.dat' % dom)
    with open(dat, 'w') as f:
        f.write('input ' + ' '.join('"%s"' % i for i in impls) + '\n')
        for inp in inputs:
            vals = []
            for im in impls:
                v = [p[2] for p in pts if p[0] == inp and p[1] == im]
                vals.append('%g' % v[0] if v else '-')
            f.write('"%s" %s\n' % (inp, ' '.join(vals)))
    svg = 'plot-%s.svg' % dom
    script = '''set terminal svg size 1100,480 dynamic font "sans,10"
set output "%s"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set ylabel "%s"
# headroom: autoscaling stopped at the tallest bar's top, which the frame cut
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xtics rotate by -30
set datafile missing "-"
set title "%s: throughput of every implementation that passed"
plot for [c=2:%d] "%s" using c:xtic(1) title columnheader(c)
''' % (os.path.join(out, svg), unit, dom, len(impls) + 1, dat)
    r = subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)
    if r.returncode == 0:
        plots[dom] = svg
    else:
        print('report: gnuplot failed for %s: %s' % (dom, r.stderr.strip()[:300]))

# HTML page.
def cls(s):
    return {'pass': 'ok', 'skipped': 'skip'}.get(s, 'bad')
h = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>parcheck report</title>',
     '<style>body{font-family:sans-serif;margin:2em;max-width:1300px}table{border-collapse:collapse}'
     'td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#eee}'
     '.ok{background:#dfd}.bad{background:#fbb}.skip{background:#eee;color:#666}'
     'td.m{font-family:monospace;font-size:12px}</style></head><body>',
     '<h1>parcheck report</h1>',
     '<p>%d results, <b>%d failed</b>. Every implementation was validated against its independent oracle.</p>' % (len(rows), failed)]
links = []
for f, label in (('bench.html', 'benchmarks'), ('memory.html', 'memory (massif)'),
                 ('../coverage/html/index.html', 'coverage')):
    if os.path.exists(os.path.join(out, f)):
        links.append('<a href="%s">%s</a>' % (f, label))
if links:
    h.append('<p>Other reports: ' + ' · '.join(links) + '</p>')
for dom in sorted(by_domain):
    if dom in plots:
        h.append('<h2>%s throughput</h2><img src="%s" alt="%s throughput">' % (dom, plots[dom], dom))
if os.path.exists(os.path.join(out, 'plot-pets-phases.svg')):  # ci/pets_phases.py
    h.append('<h2>pets: time per phase</h2><img src="plot-pets-phases.svg" alt="pets phases">')
h.append('<h2>Verdicts</h2><table><tr><th>domain</th><th>input</th><th>implementation</th><th>verdict</th>'
         '<th>metrics / reason</th><th>median s</th><th>throughput</th></tr>')
for d, n, i, s, m, sec, thr, unit in rows:
    h.append('<tr class="%s"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="m">%s</td>'
             '<td>%.6f</td><td>%.3f %s</td></tr>' % (cls(s), d, html.escape(n), html.escape(str(i)), s,
                                                   html.escape(m), sec or 0, thr or 0, html.escape(unit)))
h.append('</table></body></html>')
with open(os.path.join(out, 'index.html'), 'w') as f:
    f.write('\n'.join(h))
print('report: %s/index.html (%d results, %d failed)' % (out, len(rows), failed))
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""Builds report/index.html from parcheck's JSON results in report/runs/.

report_html.py [REPORT_DIR]. Reads REPORT_DIR/runs/*.json (one parcheck
--json output each), REPORT_DIR/machine.txt (ci/report_machine.sh) and, when
`make memreport` left it, REPORT_DIR/memory.txt. Prints the verdict table
and a summary (counts per status, skip reasons grouped, a verdict sentence)
and writes REPORT_DIR/index.html: the machine header, the same summary, the
plots (gnuplot SVG files beside the page, so that it works offline with no
script), the table. Exit 1 when a result failed, erred, crashed or timed
out. Rows of plugin entries (`--plugin`, make report PLUGINS=...; their
metrics name the .so under "plugin") show the implementation as
"name [plugin FILE.so]".

Plots are functions listed in PLOTS: each takes the Report and returns the
figures it drew; a new plot is one more function there."""
import collections, glob, html, json, os, re, subprocess, sys

BAD = ('fail', 'error', 'crashed', 'timeout')
# Sixteen distinguishable bar colours: gnuplot's own cycle repeats after
# eight, and SpMM has more implementations than that.
COLOURS = ['#9400d3', '#009e73', '#56b4e9', '#e69f00', '#f0e442', '#0072b2', '#e51e10', '#000000',
           '#a6761d', '#ff7fbf', '#7fbf00', '#666666', '#00ced1', '#8b4513', '#bcbd22', '#1f3a93']
# The implementation each domain's speed-ups are measured against, in order
# of preference: the first that passed on an input is that input's reference.
REFERENCES = {'spmm': ['cusparse', 'csr-serial'], 'sa': ['divsufsort', 'seq'], 'pets': ['serial']}
MACHINE_KEYS = [('date', 'date'), ('host', 'host'), ('cpu', 'CPU'), ('threads', 'hardware threads'),
                ('memory', 'memory'), ('gpu', 'GPU'), ('opencl', 'OpenCL platforms'), ('compiler', 'compiler'),
                ('flags', 'flags'), ('commit', 'commit'), ('version', 'parcheck version')]


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


def cls(s):
    return {'pass': 'ok', 'skipped': 'skip'}.get(s, 'bad')


class Report:
    """The results of one report directory, flattened to one row per input
    and implementation."""

    def __init__(self, out):
        self.out = out
        self.rows = []      # dicts: dom, input, impl, status, reason, text, sec, thr, unit, metrics, memory
        self.unreadable = []
        for path in sorted(glob.glob(os.path.join(out, 'runs', '*.json'))):
            name = os.path.basename(path)[:-5]
            try:
                with open(path) as f:
                    j = json.load(f)
            except (OSError, ValueError) as e:
                print('report: unreadable %s: %s' % (path, e))
                self.unreadable.append(name)
                self.rows.append(dict(dom='?', input=name, impl='-', status='error',
                                      reason='unreadable JSON', text='unreadable JSON', sec=0, thr=0,
                                      unit='', metrics={}, memory={}))
                continue
            dom = j.get('domain', '?')
            label = name[len(dom) + 1:] if name.startswith(dom + '-') else name
            for r in j.get('results', []):
                st = r.get('status', 'error')
                impl = r.get('impl')
                plugin = r.get('metrics', {}).get('plugin')
                if plugin:
                    impl = '%s [plugin %s]' % (impl, plugin)
                text = metric_text(r.get('metrics', {}))
                if r.get('reason') and (st != 'pass' or not text):
                    text = (text + ' (%s)' % r['reason']) if text else r['reason']
                self.rows.append(dict(dom=dom, input=label, impl=impl, status=st,
                                      reason=r.get('reason', ''), text=text,
                                      sec=r.get('seconds', 0) or 0, thr=r.get('throughput', 0) or 0,
                                      unit=r.get('unit', ''), metrics=r.get('metrics', {}),
                                      memory=r.get('memory', {})))
        self.machine = {}
        try:
            with open(os.path.join(out, 'machine.txt')) as f:
                for line in f:
                    k, _, v = line.rstrip('\n').partition('\t')
                    self.machine[k] = v
        except OSError:
            pass
        self.counts = collections.Counter(r['status'] for r in self.rows)
        self.skips = collections.Counter(r['reason'] or 'no reason given'
                                         for r in self.rows if r['status'] == 'skipped')
        self.bad = [r for r in self.rows if r['status'] in BAD]

    def domains(self):
        return sorted({r['dom'] for r in self.rows if r['status'] == 'pass'})

    def passed(self, dom):
        return [r for r in self.rows if r['dom'] == dom and r['status'] == 'pass']

    def count_line(self):
        c = self.counts
        parts = ['%d passed' % c['pass'], '%d failed' % c['fail'], '%d skipped' % c['skipped'],
                 '%d error' % c['error']]
        parts += ['%d %s' % (c[s], s) for s in ('crashed', 'timeout') if c[s]]
        return '%d results: %s' % (len(self.rows), ', '.join(parts))

    def skip_lines(self):
        return ['%d skipped: %s' % (n, why) for why, n in self.skips.most_common()]

    def verdict(self):
        """One sentence that says no more than the rows do."""
        n, ran = len(self.rows), len(self.rows) - self.counts['skipped']
        if n == 0:
            return 'No results: nothing ran.'
        if self.bad:
            first = ', '.join('%s on %s (%s)' % (r['impl'], r['input'], r['status']) for r in self.bad[:3])
            more = ' and %d more' % (len(self.bad) - 3) if len(self.bad) > 3 else ''
            return ('%d of the %d results that ran did not pass their oracle: %s%s.'
                    % (len(self.bad), ran, first, more))
        if self.counts['skipped']:
            return ('All %d results that ran passed their oracle; %d were skipped and are not '
                    'validated on this machine (reasons above).' % (ran, self.counts['skipped']))
        return 'All %d results passed their oracle.' % n


def spans_decade(values):
    pos = [v for v in values if v > 0]
    return bool(pos) and max(pos) > 10 * min(pos)


def gnuplot_bars(rep, name, title, ylabel, groups, series, value, log=None, hline=None, floor=None):
    """A clustered bar chart REPORT_DIR/NAME.svg: one cluster per group, one
    bar per series, value(group, series) or None (no bar). Log scale when
    log, or (log None) when the values span more than 10x; floor replaces
    values at or below 0 on a log scale. hline: (y, label) drawn across.
    Returns the file name, or None when gnuplot is missing or fails."""
    vals = {(g, s): value(g, s) for g in groups for s in series}
    present = [v for v in vals.values() if v is not None]
    if not present or subprocess.run(['sh', '-c', 'command -v gnuplot'], capture_output=True).returncode:
        return None
    if log is None:
        log = spans_decade(present + ([hline[0]] if hline else []))
    dat = os.path.join(rep.out, name + '.dat')
    with open(dat, 'w') as f:
        f.write('input ' + ' '.join('"%s"' % s.replace('"', "'") for s in series) + '\n')
        for g in groups:
            cells = []
            for s in series:
                v = vals[(g, s)]
                if v is not None and log and v <= 0:
                    v = floor
                cells.append('-' if v is None else '%.6g' % v)
            f.write('"%s" %s\n' % (g.replace('"', "'"), ' '.join(cells)))
    svg = name + '.svg'
    width = max(900, min(2400, 60 + len(groups) * (12 * len(series) + 18)))
    script = ['set terminal svg size %d,480 dynamic font "sans,10"' % width,
              'set output "%s"' % os.path.join(rep.out, svg),
              'set style data histograms', 'set style histogram clustered gap 1',
              'set style fill solid 0.8 border -1', 'set key outside right top',
              'set ylabel "%s%s"' % (ylabel, ' (log scale)' if log else ''),
              'set xtics rotate by -30', 'set datafile missing "-"', 'set grid ytics',
              'set title "%s"' % title.replace('"', "'")]
    script += ['set linetype %d lc rgb "%s"' % (i + 1, c) for i, c in enumerate(COLOURS)]
    script.append('set linetype cycle %d' % len(COLOURS))
    if log:
        script += ['set logscale y', 'set yrange [*:*]']
    else:
        # headroom: autoscaling stopped at the tallest bar's top, which the frame cut
        script += ['set yrange [0:*]', 'set offsets 0, 0, graph 0.08, 0']
    plot = 'plot for [c=2:%d] "%s" using c:xtic(1) title columnheader(c)' % (len(series) + 1, dat)
    if hline:
        plot += ', %g with lines lw 2 dt 2 lc rgb "#c00000" title "%s"' % hline
    script.append(plot)
    r = subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True, capture_output=True)
    if r.returncode != 0:
        print('report: gnuplot failed for %s: %s' % (name, r.stderr.strip()[:300]))
        return None
    return svg


def ordered(values):
    return sorted(set(values), key=lambda s: [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', s)])


def plot_throughput(rep):
    figs = []
    for dom in rep.domains():
        pts = rep.passed(dom)
        unit = collections.Counter(p['unit'] for p in pts).most_common(1)[0][0]
        pts = [p for p in pts if p['unit'] == unit and p['thr'] > 0]
        if not pts:
            continue
        val = {(p['input'], p['impl']): p['thr'] for p in pts}
        svg = gnuplot_bars(rep, 'plot-%s' % dom, '%s: throughput of every implementation that passed' % dom,
                           unit, ordered(p['input'] for p in pts), ordered(p['impl'] for p in pts),
                           lambda g, s: val.get((g, s)))
        if svg:
            figs.append(('%s throughput' % dom, svg, 'Higher is better; the median of the timed '
                         'repetitions. Log scale when the values span more than 10x.'))
    return figs


def plot_speedup(rep):
    figs = []
    for dom in rep.domains():
        pts = rep.passed(dom)
        secs = {(p['input'], p['impl']): p['sec'] for p in pts if p['sec'] > 0}
        refs, used = {}, set()
        for inp in {p['input'] for p in pts}:
            for cand in REFERENCES.get(dom, []):
                if (inp, cand) in secs:
                    refs[inp] = cand
                    used.add(cand)
                    break
        if not refs:
            continue
        inputs = ordered(refs)
        impls = ordered(s for (i, s) in secs if i in refs)
        svg = gnuplot_bars(rep, 'speedup-%s' % dom, '%s: speed-up over %s' % (dom, ' / '.join(sorted(used))),
                           'speed-up (reference time / time)', inputs, impls,
                           lambda g, s: secs[(g, refs[g])] / secs[(g, s)] if (g, s) in secs else None,
                           hline=(1, 'reference'))
        if svg:
            pref = REFERENCES[dom]
            note = (' (%s did not run here, so %s stands in)' % (pref[0], ' / '.join(sorted(used)))
                    if pref[0] not in used else '')
            figs.append(('%s speed-up' % dom, svg, 'Median time of the reference implementation %s '
                         'divided by each one\'s, per input; above 1 is faster%s.'
                         % (' / '.join(pref), note)))
    return figs


def plot_accuracy(rep):
    """Worst error in units of the oracle's bound b; a result passes when
    every entry is within 2 b (only domains whose metrics carry it)."""
    figs = []
    for dom in sorted({r['dom'] for r in rep.rows}):
        pts = [r for r in rep.rows if r['dom'] == dom and r['status'] in ('pass', 'fail')
               and isinstance(r['metrics'].get('max_err_over_bound'), (int, float))]
        if not pts:
            continue
        val = {(p['input'], p['impl']): float(p['metrics']['max_err_over_bound']) for p in pts}
        pos = [v for v in val.values() if v > 0]
        floor = min(pos + [2.0]) / 10
        svg = gnuplot_bars(rep, 'accuracy-%s' % dom, '%s: max error over bound (pass: at most 2)' % dom,
                           'max |y - ref| / b', ordered(p['input'] for p in pts),
                           ordered(p['impl'] for p in pts), lambda g, s: val.get((g, s)), log=True,
                           hline=(2, 'pass line (2 b)'), floor=floor)
        if svg:
            figs.append(('%s accuracy' % dom, svg, 'The worst entry of each result in units of its '
                         'bound b = gamma_n (|A||X|); the oracle passes a result at most 2 b. An exact '
                         'result (0) is drawn at %.2g, the foot of the log scale.' % floor))
    return figs


def memreport_rows(rep):
    """(case, peak bytes, model bytes) from make memreport's memory.txt."""
    rows = []
    try:
        with open(os.path.join(rep.out, 'memory.txt')) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3:
                    try:
                        rows.append((p[0], float(p[1]) * (1 << 20), float(p[2]) * (1 << 20)))
                    except ValueError:
                        pass
    except OSError:
        pass
    return rows


def plot_memory(rep):
    """Measured peak over the documented model: the runs' own counts (the
    allocator's peak) and, when present, make memreport's massif peaks."""
    figs = []
    pts = [(r['dom'] + ' ' + r['input'], r['impl'], r['memory'].get('peak_bytes', -1) /
            r['memory'].get('model_bytes', -1)) for r in rep.rows
           if r['status'] == 'pass' and (r['memory'].get('peak_bytes') or -1) > 0
           and (r['memory'].get('model_bytes') or -1) > 0]
    mr = memreport_rows(rep)
    pts += [('memreport', case, peak / model) for case, peak, model in mr if model > 0]
    if not pts:
        return figs
    val = {(g, s): v for g, s, v in pts}
    svg = gnuplot_bars(rep, 'memory', 'memory: measured peak over the model (at most 1: within the model)',
                       'peak / model', ordered(p[0] for p in pts), ordered(p[1] for p in pts),
                       lambda g, s: val.get((g, s)), hline=(1, 'model'))
    if svg:
        figs.append(('memory against the model', svg, 'Peak bytes the run allocated (parcheck\'s '
                     'allocator) over the implementation\'s documented model%s; a bar above 1 '
                     'exceeds it. A run that reuses a format an earlier implementation built in the '
                     'same process (csr-omp after csr-serial) counts only what it allocated itself, '
                     'so its bar can sit below 1; make memreport measures each alone.' % ('; "memreport": massif peaks of make memreport' if mr else '')))
    return figs


def plot_pets_phases(rep):
    """The stacked bar of PETS phases per implementation, drawn by
    ci/pets_phases.py when the PETS part of the report ran."""
    if not os.path.exists(os.path.join(rep.out, 'plot-pets-phases.svg')):
        return []
    return [('pets: time per phase', 'plot-pets-phases.svg', 'Median time of each phase (entry '
             'discovery, metrics, sort, selection, transfers) per implementation on the largest '
             'generated graph: where the time of a PETS run goes.')]


# The plots of the page, in order; each returns [(title, svg, caption)].
PLOTS = [plot_throughput, plot_speedup, plot_accuracy, plot_memory, plot_pets_phases]


def write_text(rep):
    w = max([len(r['input']) for r in rep.rows] + [5])
    print('%-6s %-*s %-28s %-8s %12s %12s' % ('domain', w, 'input', 'impl', 'verdict', 'median_s', 'throughput'))
    for r in rep.rows:
        print('%-6s %-*s %-28s %-8s %12.6f %9.3f %s' % (r['dom'], w, r['input'], r['impl'], r['status'],
                                                     r['sec'], r['thr'], r['unit']))
    print()
    print('summary: ' + rep.count_line())
    for line in rep.skip_lines():
        print('  ' + line)
    print(rep.verdict())


def write_html(rep, figs):
    e = html.escape
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>parcheck report</title>',
         '<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse}'
         'td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}th{background:#eee}'
         '.ok{background:#dfd}.bad{background:#fbb}.skip{background:#eee;color:#666}'
         'td.m{font-family:monospace;font-size:12px}table.env th{width:11em}'
         'p.verdict{font-size:15px;font-weight:bold}img{max-width:100%;border:1px solid #ddd}'
         'p.cap{color:#444;font-size:13px;max-width:60em}</style></head><body>',
         '<h1>parcheck report</h1>', '<table class="env">']
    for key, label in MACHINE_KEYS:
        h.append('<tr><th>%s</th><td>%s</td></tr>' % (label, e(rep.machine.get(key, 'unknown'))))
    h.append('</table>')
    h.append('<h2>Summary</h2><p id="counts">%s</p>' % e(rep.count_line()))
    if rep.skips:
        h.append('<ul id="skips">' + ''.join('<li>%s</li>' % e(s) for s in rep.skip_lines()) + '</ul>')
    h.append('<p class="verdict" id="verdict">%s</p>' % e(rep.verdict()))
    links = []
    for f, label in (('bench.html', 'benchmarks'), ('memory.html', 'memory (massif)'),
                     ('../coverage/html/index.html', 'coverage')):
        if os.path.exists(os.path.join(rep.out, f)):
            links.append('<a href="%s">%s</a>' % (f, label))
    if links:
        h.append('<p>Other reports: ' + ' · '.join(links) + '</p>')
    for title, svg, cap in figs:
        h.append('<h2>%s</h2><img src="%s" alt="%s"><p class="cap">%s</p>' % (e(title), e(svg), e(title), e(cap)))
    h.append('<h2>Verdicts</h2><table><tr><th>domain</th><th>input</th><th>implementation</th><th>verdict</th>'
             '<th>metrics / reason</th><th>median s</th><th>throughput</th></tr>')
    for r in rep.rows:
        h.append('<tr class="%s"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="m">%s</td>'
                 '<td>%.6f</td><td>%.3f %s</td></tr>' % (cls(r['status']), e(r['dom']), e(r['input']),
                                                       e(str(r['impl'])), e(r['status']), e(r['text']),
                                                       r['sec'], r['thr'], e(r['unit'])))
    h.append('</table></body></html>')
    with open(os.path.join(rep.out, 'index.html'), 'w') as f:
        f.write('\n'.join(h))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'report'
    rep = Report(out)
    figs = []
    for plot in PLOTS:
        figs += plot(rep)
    write_text(rep)
    write_html(rep, figs)
    print('report: %s/index.html (%s, %d plots)' % (out, rep.count_line(), len(figs)))
    return 1 if rep.bad else 0


if __name__ == '__main__':
    sys.exit(main())

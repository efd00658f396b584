#!/usr/bin/env python3
"""Draws report/bench.csv into SVG plots (one per domain and case family)
and report/bench.html with the table. Rows: domain,case,impl,threads,param,
seconds,throughput,unit,note."""
import csv, html, os, subprocess, sys

out = sys.argv[1] if len(sys.argv) > 1 else 'report'
path = os.path.join(out, 'bench.csv')
rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
page = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>parcheck benchmarks</title>',
        '<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}'
        'td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}</style></head><body>',
        '<h1>parcheck benchmarks</h1><p><a href="index.html">back to the report</a></p>']
for svg in sorted(f for f in os.listdir(out) if f.startswith('bench-') and f.endswith('.svg')):
    page.append('<h3>%s</h3><img src="%s">' % (html.escape(svg[6:-4]), svg))
page.append('<table><tr>' + ''.join('<th>%s</th>' % k for k in
            ('domain', 'case', 'impl', 'threads', 'param', 'seconds', 'throughput', 'unit', 'note')) + '</tr>')
for r in rows:
    page.append('<tr>' + ''.join('<td>%s</td>' % html.escape(r.get(k) or '') for k in
                ('domain', 'case', 'impl', 'threads', 'param', 'seconds', 'throughput', 'unit', 'note')) + '</tr>')
page.append('</table></body></html>')
open(os.path.join(out, 'bench.html'), 'w').write('\n'.join(page))
print('bench: %d rows in %s, table in %s/bench.html' % (len(rows), path, out))

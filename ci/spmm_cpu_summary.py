#!/usr/bin/env python3
"""SpMM on the CPU against librsb, from `parcheck bench stream|spmm` CSV rows
(domain,case,impl,threads,param,seconds,throughput,unit,note): one markdown
table per thread count, a row per shape and K with

  best       the fastest parcheck CPU implementation (any but librsb)
  GFLOP/s    2 nnz K / median time
  MB moved   the traffic model's minimum: CSR once (12 B per entry, 4 B per
             row), X once, Y written once (the bytes `bench spmm` counts)
  % copy     those bytes per second over the copy bandwidth of the same run
             (read + write; the best measured at this many threads or fewer)
  X-row MB   where columns scatter: every entry fetches its X row from
             memory in whole 64-byte lines (the model without cache reuse)
  X-row %    those bytes per second over the copy bandwidth: above 100%,
             the design beats the no-reuse model (column blocks, caches)
  vs librsb  librsb's median time over best's

usage: spmm_cpu_summary.py FILE.csv [more.csv ...]
"""
import csv, math, sys

rows = []
for path in sys.argv[1:]:
    rows += [r for r in csv.reader(open(path)) if r and r[0] in ('stream', 'spmm')]
copy = {}
for r in rows:
    if r[0] == 'stream':
        copy[int(r[3])] = max(copy.get(int(r[3]), 0.0), float(r[6]))
spmm = [r for r in rows if r[0] == 'spmm']
cases = []
for r in spmm:
    if r[1] not in cases:
        cases.append(r[1])
threads = sorted({int(r[3]) for r in spmm})
scattered = ('uniform', 'powerlaw', 'denserows')
worst = {}
for t in threads:
    cp = max([v for u, v in copy.items() if u <= t] or list(copy.values()) or [0])
    print('\n%d threads (copy bandwidth %.1f GB/s)\n' % (t, cp))
    print('| shape | K | best | GFLOP/s | MB moved | GB/s | % copy | X-row MB | X-row % | librsb GFLOP/s | vs librsb |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for c in cases:
        ks = sorted({int(r[4][2:]) for r in spmm if r[1] == c and int(r[3]) == t})
        for k in ks:
            here = [r for r in spmm if r[1] == c and int(r[3]) == t and r[4] == 'K=%d' % k]
            ours = [r for r in here if r[2] != 'librsb']
            rsb = [r for r in here if r[2] == 'librsb']
            if not ours:
                continue
            b = min(ours, key=lambda r: float(r[5]))
            sec, gf = float(b[5]), float(b[6])
            gbs = float(b[8].split()[0])
            mb = gbs * sec * 1e3
            nnz = gf * 1e9 * sec / (2 * k)
            m = int(c.rsplit('-', 1)[1])
            xrow, xpct = '', ''
            if c.startswith(scattered):
                xb = 12 * nnz + 4 * m + nnz * 64 * math.ceil(8 * k / 64) + 8 * k * m
                xrow = '%.0f' % (xb / 1e6)
                xpct = '%.0f%%' % (100 * xb / sec / 1e9 / cp) if cp else ''
            if rsb:
                ratio = float(rsb[0][5]) / sec
                worst[(t, k > 1)] = min(worst.get((t, k > 1), 9e9), ratio)
                rs = ('%.2f' % float(rsb[0][6]), '**%.2fx**' % ratio)
            else:
                rs = ('skipped', '-')
            print('| %s | %d | %s | %.2f | %.0f | %.1f | %.0f%% | %s | %s | %s | %s |'
                  % (c, k, b[2], gf, mb, gbs, 100 * gbs / cp if cp else 0, xrow, xpct, rs[0], rs[1]))
for (t, big), v in sorted(worst.items()):
    print('\n%d threads, lowest ratio to librsb at %s: %.2fx (target %s)'
          % (t, 'K > 1' if big else 'K = 1', v, '1.2x' if big else '1.0x'))

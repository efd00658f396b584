#!/usr/bin/env python3
"""report_render.py REPORT_DIR [PNG] - renders REPORT_DIR/index.html in
headless Chromium and checks what a reader would see.

Checks, one line each ("ok   ..." or "FAIL ..."):
  - the page loads from disk alone (file://, no network) and every <img>
    decodes (a copy of the page with a load-time script reports images that
    did not, read back with --dump-dom);
  - every plot is a well-formed SVG with at least one bar drawn (gnuplot
    draws a bar as a filled polygon; the key's swatches are not counted);
  - the screenshot (PNG, default REPORT_DIR/screenshot.png) is a real
    picture: the size asked for, and more than a handful of colours.
Exit 0 when all pass, 1 when one fails, 2 when chromium is missing."""
import os, re, shutil, struct, subprocess, sys, tempfile, zlib
import xml.etree.ElementTree as ET

WIDTH, HEIGHT = 1400, 2400
PROBE = ('<script>window.addEventListener("load",function(){var b=[],im=document.images;'
         'for(var i=0;i<im.length;i++)if(!im[i].complete||im[i].naturalWidth==0)'
         'b.push(im[i].getAttribute("src"));document.title="RENDER images="+im.length+'
         '" broken="+b.length+" "+b.join(",");});</script>')


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(exe, args, url):
    cmd = [exe, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
           '--no-first-run', '--disable-extensions', '--virtual-time-budget=10000'] + args + [url]
    home = tempfile.mkdtemp(prefix='parcheck-chromium-')
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, HOME=home))
    finally:
        shutil.rmtree(home, ignore_errors=True)


def png_pixels(path):
    """(width, height, set of colours in the rows) of an 8-bit RGB/RGBA PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError('PNG of depth %d, colour type %d' % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride, prev, colours = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the row filter (PNG spec, filter types 0-4)
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 8 == 0:
            colours.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp * 4))
        prev = line
    return w, h, colours


def svg_bars(path):
    """Bars drawn in a gnuplot SVG: filled polygons in the plot groups, less
    one key swatch per group."""
    root = ET.parse(path).getroot()
    bars = 0
    for g in root.iter('{http://www.w3.org/2000/svg}g'):
        if re.match(r'gnuplot_plot_\d+$', g.get('id', '')):
            polys = [p for p in g.iter('{http://www.w3.org/2000/svg}polygon') if p.get('fill', 'none') != 'none']
            bars += max(0, len(polys) - 1)
    return bars


def main():
    rep = sys.argv[1] if len(sys.argv) > 1 else 'report'
    png = sys.argv[2] if len(sys.argv) > 2 else os.path.join(rep, 'screenshot.png')
    exe = chromium()
    if not exe:
        print('SKIPPED render: chromium is not installed')
        return 2
    page = os.path.abspath(os.path.join(rep, 'index.html'))
    failed = 0

    def check(ok, what, detail=''):
        nonlocal failed
        print('%s %s%s' % ('ok  ' if ok else 'FAIL', what, ('' if ok else ': ' + detail)))
        failed += not ok

    html_text = open(page, encoding='utf-8').read()
    srcs = re.findall(r'<img src="([^"]+)"', html_text)
    check(bool(srcs), 'the page has plots', 'no <img> in %s' % page)
    probe = os.path.join(os.path.dirname(page), '.render-probe.html')
    with open(probe, 'w', encoding='utf-8') as f:
        f.write(html_text.replace('</body>', PROBE + '</body>'))
    try:
        r = run_chromium(exe, ['--dump-dom'], 'file://' + probe)
    finally:
        os.remove(probe)
    m = re.search(r'<title>RENDER images=(\d+) broken=(\d+) ?([^<]*)</title>', r.stdout)
    check(m is not None, 'chromium loaded the page', 'exit %d: %s' % (r.returncode, r.stderr.strip()[-300:]))
    if m:
        check(int(m.group(1)) == len(srcs) and m.group(2) == '0', 'every image decodes (%s of %d)'
              % (m.group(1), len(srcs)), 'broken: %s' % m.group(3))
    for src in srcs:
        path = os.path.join(os.path.dirname(page), src)
        try:
            bars = svg_bars(path)
            check(bars > 0, 'plot %s draws %d bars' % (src, bars), 'no bar drawn')
        except (OSError, ET.ParseError) as e:
            check(False, 'plot %s' % src, str(e))
    if os.path.exists(png):
        os.remove(png)
    r = run_chromium(exe, ['--screenshot=' + os.path.abspath(png), '--window-size=%d,%d' % (WIDTH, HEIGHT)],
                     'file://' + page)
    try:
        w, h, colours = png_pixels(png)
        check((w, h) == (WIDTH, HEIGHT) and len(colours) > 16, 'screenshot %s: %dx%d, %d colours sampled'
              % (png, w, h, len(colours)), 'blank or wrong size')
    except (OSError, ValueError, zlib.error) as e:
        check(False, 'screenshot', '%s (chromium exit %d: %s)' % (e, r.returncode, r.stderr.strip()[-300:]))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

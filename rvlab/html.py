"""`rvlab report --html`: results/index.html, one self-contained page (no network: charts are
embedded as data: URIs, the script and style are inline) with every measurement in one sortable,
filterable table, the seed tables and every chart of the report.

The page is made from what `rvlab report` writes beside the bench file, so it shows the same
numbers: bench.md (seed 000 Tables 1-2, the board fit, seed 003, seed 004 Table 6, the bigint
figures, one table per primitive), polymul_table5.md (seed 004 Table 5), area.md (`rvlab area`)
and the seed-003 optables, turned from Markdown into HTML by md_to_html (the subset our reports
use: headings, paragraphs, lists, tables, images, links, `code`, **bold**)."""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from .records import Record, load_records
from .tables import ct_mark, fmt

# ------------------------------------------------------------------ Markdown (our subset) -> HTML
_INLINE = [(re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
           (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>")]
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
_BULLET = re.compile(r"^\s*[-*]\s+")
_IMAGE_LINE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)\s*$")


def _inline(text: str, base: Path) -> str:
    out, pos = [], 0
    for m in _LINK.finditer(text):
        out.append(_plain(text[pos:m.start()]))
        if m.group(1):                                  # an inline image: shown as a chart below
            out.append(_plain(m.group(2)))
        else:
            out.append(f'<a href="{html.escape(m.group(3))}">{_plain(m.group(2))}</a>')
        pos = m.end()
    out.append(_plain(text[pos:]))
    return "".join(out)


def _plain(text: str) -> str:
    s = html.escape(text, quote=False)
    for rx, sub in _INLINE:
        s = rx.sub(sub, s)
    return s


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def chart(png: Path, caption: str) -> str:
    """A figure with the PNG embedded (data: URI): the page needs no other file."""
    data = base64.b64encode(png.read_bytes()).decode()
    return (f'<figure class="chart"><img alt="{html.escape(caption)}" data-name="{html.escape(png.name)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{_plain(caption)}</figcaption></figure>')


def md_to_html(text: str, base: Path, missing: list[str]) -> str:
    """HTML of a report's Markdown; images are read from base (a missing one is named in missing)."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif m := re.match(r"^(#{1,4})\s+(.*)$", line):
            level = len(m.group(1)) + 1                   # the page's own title is the h1
            slug = re.sub(r"[^a-z0-9]+", "-", m.group(2).lower()).strip("-")
            out.append(f'<h{level} id="{slug}">{_inline(m.group(2), base)}</h{level}>')
            i += 1
        elif m := _IMAGE_LINE.match(line):
            png = base / m.group(2)
            if png.is_file():
                out.append(chart(png, m.group(1)))
            else:
                missing.append(m.group(2))
            i += 1
        elif line.lstrip().startswith("|"):
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            align = []
            if len(rows) > 1 and all(re.fullmatch(r":?-+:?", c) for c in rows[1]):
                align = ["right" if c.endswith(":") else "left" for c in rows[1]]
                rows = [rows[0]] + rows[2:]
            head = "".join(f"<th>{_inline(c, base)}</th>" for c in rows[0])
            body = "".join("<tr>" + "".join(
                f'<td style="text-align:{align[j] if j < len(align) else "left"}">{_inline(c, base)}</td>'
                for j, c in enumerate(r)) + "</tr>" for r in rows[1:])
            out.append(f'<div class="scroll"><table class="md"><thead><tr>{head}</tr></thead>'
                       f"<tbody>{body}</tbody></table></div>")
        elif _BULLET.match(line):
            items = []
            while i < len(lines) and _BULLET.match(lines[i]):
                items.append("<li>" + _inline(_BULLET.sub("", lines[i]), base) + "</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not re.match(r"^(#|\||!\[|\s*[-*]\s)", lines[i].lstrip()):
                para.append(lines[i].strip())
                i += 1
            if not para:                                  # a line no rule takes: as text
                para, i = [line.strip()], i + 1
            out.append(f"<p>{_inline(' '.join(para), base)}</p>")
    return "\n".join(out)


def sections(md: str) -> list[tuple[str, str]]:
    """A Markdown text cut at its level-2 headings: (heading, text with the heading)."""
    parts = re.split(r"(?m)^(?=## )", md)
    return [(p.splitlines()[0][3:].strip() if p.startswith("## ") else "", p) for p in parts if p.strip()]


# ------------------------------------------------------------------ the results table
COLUMNS = [("primitive", "primitive", False), ("impl", "impl", False), ("isa", "isa", False),
           ("core", "core", False), ("mul_latency", "mul lat.", True), ("operation", "operation", False),
           ("input_bytes", "bytes", True), ("cycles", "cycles", True), ("instret", "instructions", True),
           ("cycles_per_byte", "cycles/byte", True), ("code_bytes", "code B", True),
           ("static_bytes", "static B", True), ("stack_bytes", "stack B", True), ("kat", "KAT", False),
           ("ct", "CT", False)]


def _cell(r: Record, key: str) -> tuple[str, str]:
    """(shown text, sort value) of one cell."""
    if key == "operation":
        return r.operation + r.extra_label, r.operation + r.extra_label
    if key == "ct":
        return ct_mark(r), ct_mark(r)
    v = getattr(r, key)
    return fmt(v), "" if v is None else str(v)


def results_table(records: list[Record]) -> str:
    head = "".join(f'<th data-num="{int(num)}" tabindex="0">{html.escape(label)}</th>' for _, label, num in COLUMNS)
    rows = []
    for r in sorted(records, key=lambda r: r.sort_key):
        cells = [_cell(r, k) for k, _, _ in COLUMNS]
        rows.append("<tr>" + "".join(f'<td data-v="{html.escape(v)}"{" class=num" if num else ""}>{html.escape(t)}</td>'
                                     for (t, v), (_, _, num) in zip(cells, COLUMNS)) + "</tr>")
    return (f'<div class="controls"><label>Filter <input id="filter" type="search" size="40" '
            f'placeholder="e.g. chacha20 e31 (every word must match)"></label> '
            f'<span id="count">{len(records)} of {len(records)} rows</span> '
            f'<span class="hint">click a column heading to sort</span></div>'
            f'<div class="scroll tall"><table id="results"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1250px; padding: 0 1.2em 3em; color: #222; }
h1 { margin-top: .8em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; } h3 { margin-top: 1.5em; }
nav a { margin-right: 1em; } code { background: #f3f3f3; padding: 0 .2em; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border: 1px solid #ddd; padding: 2px 6px; white-space: nowrap; }
th { background: #f0f3f7; position: sticky; top: 0; }
#results th { cursor: pointer; user-select: none; }
#results th[aria-sort=ascending]::after { content: " \\25B2"; } #results th[aria-sort=descending]::after { content: " \\25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafafa; }
.scroll { overflow: auto; max-width: 100%; } .tall { max-height: 70vh; border: 1px solid #ddd; }
.controls { margin: .6em 0; } #count { margin: 0 1em; font-weight: 600; } .hint { color: #777; }
figure.chart { margin: 1.2em 0; } figure.chart img { max-width: 100%; border: 1px solid #e3e3e3; }
figcaption { color: #555; font-size: 12.5px; max-width: 900px; }
details > summary { cursor: pointer; font-weight: 600; margin: .4em 0; }
"""

SCRIPT = """
(function () {
  var table = document.getElementById('results');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var count = document.getElementById('count');
  function filter() {
    var words = document.getElementById('filter').value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (r, i) {
      var ok = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      r.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' rows';
  }
  document.getElementById('filter').addEventListener('input', filter);
  var heads = table.tHead.rows[0].cells;
  function sortBy(col) {
    var th = heads[col], asc = th.getAttribute('aria-sort') !== 'ascending', num = th.dataset.num === '1';
    Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
    var keyed = rows.map(function (r, i) {
      var v = r.cells[col].dataset.v;
      return [num ? (v === '' ? Infinity : parseFloat(v)) : v.toLowerCase(), i, r];
    });
    keyed.sort(function (a, b) {
      var c = a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1];
      return asc ? c : -c;
    });
    keyed.forEach(function (k) { body.appendChild(k[2]); });
  }
  Array.prototype.forEach.call(heads, function (th, col) {
    th.addEventListener('click', function () { sortBy(col); });
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortBy(col); });
  });
})();
"""


def write_page(json_path: Path, html_path: Path) -> tuple[Path, list[str]]:
    """Write the page from the bench file and the report files beside it (run after
    report.write_report); (the page, the image files the Markdown names that do not exist)."""
    json_path, html_path = Path(json_path), Path(html_path)
    base = json_path.parent
    records = load_records(json_path)
    missing: list[str] = []
    prims = {r.primitive for r in records}
    bench_md = json_path.with_suffix(".md")
    md = bench_md.read_text() if bench_md.is_file() else ""
    parts = sections(md)
    # what comes before the first section, without bench.md's own title (the page has one)
    head = [l for l in parts[0][1].splitlines() if not l.startswith("# ")] if parts and not parts[0][0] else []
    intro = md_to_html("\n".join(l for l in head if not _IMAGE_LINE.match(l)), base, missing)
    # its chart (cycles per byte) goes with the other charts, below the table
    plots = [md_to_html("## Cycles per byte\n\n" + "\n".join(l for l in head if _IMAGE_LINE.match(l)), base, missing)] \
        if any(_IMAGE_LINE.match(l) for l in head) else []
    seeds, per_prim = [], []
    for heading, text in parts:
        if not heading:
            continue
        if heading in prims:
            per_prim.append(f"<details><summary>{html.escape(heading)}</summary>"
                            f"{md_to_html(text.split(chr(10), 1)[1], base, missing)}</details>")
        elif heading.startswith("Plots by"):
            plots.append(md_to_html(text, base, missing))
        else:
            seeds.append(md_to_html(text, base, missing))
    extra = []
    for f in [base / "polymul_table5.md", base / "area.md"] + sorted(base.glob("*_optable.md")):
        if f.is_file():
            extra.append(md_to_html(f.read_text(), base, missing))
    nav = ('<nav><a href="#measurements">All measurements</a><a href="#seed-tables">Seed tables and charts</a>'
           '<a href="#further">Further results</a><a href="#per-primitive">Per primitive</a></nav>')
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>rvlab results</title><style>{STYLE}</style></head><body>
<h1>rvlab results</h1>
<p>Generated by <code>rvlab report --html</code> from <code>{html.escape(json_path.name)}</code> ({len(records):,}
records) and the report files beside it; every number comes from an rvsim run that <code>make bench</code> repeats.</p>
{nav}
{intro}
<h2 id="measurements">All measurements</h2>
{results_table(records)}
<h2 id="seed-tables">Seed tables and charts</h2>
{"".join(seeds)}
{"".join(plots)}
<h2 id="further">Further results</h2>
{"".join(extra) or "<p>(none yet)</p>"}
<h2 id="per-primitive">Per primitive, with the published figures</h2>
{"".join(per_prim)}
<script>{SCRIPT}</script>
</body></html>
"""
    html_path.write_text(page, encoding="utf-8")
    return html_path, missing

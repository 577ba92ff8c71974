"""Stale-figure check: the measurements the design notes quote in their tables, against the
records of results/bench.json.

    python3 -m rvlab.docfigures [--json BENCH_JSON] [--unparsed] [FILE.md ...]

Reads the markdown tables of the documents that quote kernel figures (`crypto/*/NOTES.md`,
`crypto/*/*/NOTES.md`, `crypto/*/README.md`; or the files given). A numeric cell is a figure
when its row label and column heading together name a measurement: the primitive (the
document's folder, or a `primitive/impl` or primitive name in the label; `size` rows of
polymul-128/README.md name polymul-128/256/512), the implementation (bigint-mul's `sb`,
`kar-red`, ... as crypto/bigint-mul/tables.py abbreviates them), the operation, the core
(`ideal`, `e31`), the input size (`4096 B`, `4 KiB`, bigint rows `n` = limbs or `bits`), the
multiplier latency (`latency 2` in the heading above the table) and the quantity: cycles
unless the heading says `c/B`, `instret`, `code B`, `table B`/`static`, `stack B`, `constant
time` or `ISA`. A cell `a / b` pairs with an `x / y` in its row or column (`ideal / e31`,
`to_internal / from_internal`, `n = 8 / 32 / 128`). A column naming only a core or `c/B`
continues the operation and size of the column before it (`hash 4096 B, ideal | e31 | c/B`).

Not figures of a record, skipped: columns and rows about other sources or about the past
(`seed`, `goal`, `published`, `estimate`, `QEMU`, `silicon`, `chosen`, `alternative`,
`was`, `before`), sums (a `+` outside parentheses: `keyexp + encrypt`), rows that name no implementation, operation or
core (instruction classes, per-round steps), and whole tables whose text above mentions
`optable` (per-instruction counts of optable.py's own runs, written to
results/*_optable.md, not bench.json).

Where the table does not say the core, a figure passes if it is that of either core; where a
size column (code, table, stack bytes) does not say the operation, if it is one of the
records' values. A figure that matches no record it could be is stale. Prints each stale
figure (file:line, row | column, stated, measured) and exits 1 if there is one; `--unparsed`
also lists the figure-like cells it could not tie to a record, and why. Prose is not checked.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .records import load_records

ROOT = Path(__file__).resolve().parent.parent

SKIP_WORDS = ("seed", "goal", "published", "estimate", "qemu", "chosen", "alternative", "10n²",
              "silicon", "was ", "before", "- 4n", "trace", "speed-up")
# crypto/bigint-mul/tables.py's column names
ALIASES = {
    "sb": ("bigint-mul", "schoolbook"), "sb-carry": ("bigint-mul", "schoolbook-carry"),
    "sb-red": ("bigint-mul", "schoolbook-reduced"), "kar": ("bigint-mul", "karatsuba"),
    "kar-carry": ("bigint-mul", "karatsuba-carry"), "kar-red": ("bigint-mul", "karatsuba-reduced"),
    "kar-rec": ("bigint-mul", "karatsuba-rec"), "kar-fixed": ("bigint-mul", "karatsuba-fixed"),
}
BIGINT_ADD = ("full", "carry", "reduced")
METRICS = [  # (regex on the lower-case label, record field); removed before the impl search
    (r"\bc/b\b|cycles/byte|per byte", "cycles_per_byte"),
    (r"\binstret\b", "instret"),
    (r"\bcode (?:b|bytes)\b", "code_bytes"),
    (r"\btables? (?:b|bytes)\b|\bstatic (?:b|bytes)\b", "static_bytes"),
    (r"\bstack (?:b|bytes)\b", "stack_bytes"),
    (r"\bconstant time\b", "constant_time"),
    (r"\bprogram code\b|\bwhole program\b", "program_code_bytes"),
    (r"\bdtim (?:b|bytes)\b", "dtim_bytes"),
    (r"^isa$", "isa"),
]
# quantities that do not depend on the core, and that a table may give without the operation
UNORDERED = ("code_bytes", "static_bytes", "stack_bytes", "constant_time", "isa", "program_code_bytes",
             "dtim_bytes")
NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"


def _num(s: str):
    v = float(s.replace(",", ""))
    return int(v) if "." not in s else v


@dataclass
class Desc:
    """What a row label or a column heading says about a measurement."""
    primitive: list = field(default_factory=list)
    impl: list = field(default_factory=list)
    operation: list = field(default_factory=list)
    core: list = field(default_factory=list)
    size: list = field(default_factory=list)       # input_bytes
    limbs: list = field(default_factory=list)
    bits: list = field(default_factory=list)
    metric: str | None = None
    latency: int | None = None
    skip: str | None = None                        # why it holds no record figure

    def names_something(self) -> bool:
        return bool(self.primitive or self.impl or self.operation or self.core or self.size
                    or self.limbs or self.bits or self.metric)


@dataclass
class Figure:
    path: Path
    line: int
    row: str
    column: str
    stated: object
    key: dict
    metric: str


@dataclass
class Result:
    stale: list = field(default_factory=list)           # (Figure, {label: measured})
    ok: list = field(default_factory=list)              # Figure
    unparsed: list = field(default_factory=list)        # (path, line, row, column, cell, why)
    skipped_tables: list = field(default_factory=list)  # (path, line, why)


class Index:
    """bench.json as the checker asks it."""

    def __init__(self, records):
        self.recs = [r.to_dict() for r in records]
        for r in self.recs:
            r.update(r.pop("extra", {}) or {})
        self.prims = sorted({r["primitive"] for r in self.recs}, key=len, reverse=True)
        self.impls: dict[str, set] = {}
        self.ops: dict[str, set] = {}
        for r in self.recs:
            self.impls.setdefault(r["primitive"], set()).add(r["impl"])
            self.ops.setdefault(r["primitive"], set()).add(r["operation"])

    def find(self, q: dict) -> list[dict]:
        return [r for r in self.recs if all(r.get(k) == v for k, v in q.items())]


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;:()`*\[\]]+", text) if t]


def _norm(name: str) -> str:
    return name.lower().replace("-", "")


def describe(text: str, idx: Index, prims: list[str]) -> Desc:
    """Parse a row label or a column heading; `prims`: the document's primitives, its own first."""
    d = Desc()
    low = text.lower().replace("`", "").replace("*", "").strip()
    for w in SKIP_WORDS:
        if w in low:
            d.skip = f"'{w.strip()}'"
            return d
    for rx, metric in METRICS:
        if re.search(rx, low):
            d.metric = metric
            low = re.sub(rx, " ", low)
    m = re.search(r"\bn = (\d+(?: / \d+)+)", low)
    if m:
        d.limbs = [int(x) for x in m.group(1).split(" / ")]
        low = low[:m.start()] + " " + low[m.end():]
    m = re.search(r"latency (\d)\b", low)
    if m:
        d.latency = int(m.group(1))
    low = re.sub(r"\(\d[\d,]* ?b out\)", " ", low)
    for m in re.finditer(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+) ?(kib|b|bytes)\b", low):
        n = int(m.group(1).replace(",", ""))
        d.size.append(n * 1024 if m.group(2) == "kib" else n)
    for m in re.finditer(r"([a-z0-9-]+)/([a-z0-9-]+)", low):
        if m.group(1) in idx.impls and m.group(2) in idx.impls[m.group(1)]:
            d.primitive.append(m.group(1))
            d.impl.append(m.group(2))
    toks = _tokens(low)
    if not d.primitive:
        for t in toks:
            for p in idx.prims:
                if _norm(t) == _norm(p) and p not in d.primitive:
                    d.primitive.append(p)
    cands = d.primitive or prims
    if not d.impl:
        for t in toks:
            if t in ALIASES and ALIASES[t][0] in cands:
                d.impl.append(ALIASES[t][1])
            elif any(t in idx.impls.get(p, ()) for p in cands) and t not in d.impl:
                d.impl.append(t)
    ops = set().union(*(idx.ops.get(p, set()) for p in cands))
    d.operation = [t for t in toks if t in ops]
    d.core = [t for t in toks if t in ("ideal", "e31")]
    if re.search(r"\s\+\s", re.sub(r"\([^)]*\)", "", low)):
        d.skip = "a sum"                            # keyexp + encrypt, hash + 4 compressions
    for name in ("impl", "operation", "core"):        # several only as "a / b"
        if len(getattr(d, name)) > 1 and not re.search(r"\S\s*/\s*\S", low):
            d.skip = d.skip or f"several {name}s"
    return d


def _cell_values(cell: str, metric: str | None):
    """(values, c/B given in parentheses or None), or None when the cell is not a plain figure."""
    c = cell.replace("**", "").replace("`", "").strip()
    if metric == "isa":
        return ([re.sub(r"\s*\+\s*", "_", c.lower())], None) if re.fullmatch(r"rv32[\w +]*", c) else None
    cpb = None
    m = re.search(r"\((" + NUM + r") c/B\)", c)
    if m:
        cpb = _num(m.group(1))
        c = c[:m.start()] + c[m.end():]
    c = re.sub(r"\([^)]*\)", " ", c).strip()
    low = c.lower()
    if re.fullmatch(r"(yes|no)\b.*", low):
        return [low.startswith("yes")], cpb
    parts = [p.strip() for p in c.split("/")]
    if not all(re.fullmatch(NUM, p) for p in parts):
        return None
    return [_num(p) for p in parts], cpb


def _figure_like(cell: str) -> bool:
    c = re.sub(r"\([^)]*\)", "", cell)
    return bool(re.search(r"\d", c)) and len(re.findall(r"[A-Za-z]", c)) <= 12


def _lookup(idx: Index, key: dict, metric: str, lat, prims):
    """({label: measured value or list of possible values}, None) or (None, why not)."""
    if "impl" not in key:
        return None, "no implementation"
    prim = key.get("primitive")
    if prim is None:
        owners = [p for p in prims if key["impl"] in idx.impls.get(p, ())]
        if not owners:
            return None, "which primitive"
        if len(owners) > 1:
            if metric not in ("constant_time", "isa"):
                return None, "which primitive"
            vals = {r[metric] for p in owners for r in idx.find({"primitive": p, "impl": key["impl"]})}
            return ({"every size": vals.pop()}, None) if len(vals) == 1 else (None, "differs by size")
        prim = owners[0]
    q = {"primitive": prim, "impl": key["impl"]}
    for k, f in (("operation", "operation"), ("size", "input_bytes"), ("limbs", "limbs"),
                 ("bits", "bits"), ("core", "core")):
        if k in key:
            q[f] = key[k]
    rs = idx.find(q)
    if not rs:
        return None, f"no record {q}"
    if metric in UNORDERED:
        vals = sorted({r[metric] for r in rs}, key=str)
        return ({"any record": vals[0]} if len(vals) == 1 else {f"one of {len(rs)} records": vals}), None
    if "operation" not in q and len({r["operation"] for r in rs}) > 1:
        return None, f"which operation of {sorted({r['operation'] for r in rs})}"
    if not {"input_bytes", "limbs", "bits"} & set(q) and len({r["input_bytes"] for r in rs}) > 1:
        return None, "which input size"
    out = {}
    for r in rs:
        if r["core"] == "e31":
            lats = {x.get("mul_latency") for x in rs if x["core"] == "e31"}
            if (lat or len(lats) > 1) and r.get("mul_latency") != (lat or 5):
                continue
        elif lat and r["core"] == "ideal":
            continue
        v = r[metric]
        if metric == "cycles_per_byte" and r["input_bytes"]:
            v = r["cycles"] / r["input_bytes"]
        if out.get(r["core"], v) != v:
            return None, "several records"
        out[r["core"]] = v
    return (out, None) if out else (None, "no record at that latency")


def _same(stated, measured, metric) -> bool:
    if isinstance(measured, list):
        return any(_same(stated, m, metric) for m in measured)
    if isinstance(stated, (bool, str)) or isinstance(measured, (bool, str)):
        return stated == measured
    if isinstance(stated, float) or metric == "cycles_per_byte":
        dec = len(str(stated).split(".")[1]) if isinstance(stated, float) else 0
        return abs(measured - stated) <= 0.5 * 10 ** -dec + 1e-9
    return stated == measured


def tables(text: str):
    """(line number of the heading row, the table's lines, the text from the heading above)."""
    lines = text.splitlines()
    i, start = 0, 0
    while i < len(lines):
        if lines[i].startswith("#"):
            start = i
        if lines[i].startswith("|") and i + 1 < len(lines) \
                and re.fullmatch(r"\|[\s:|-]+\|?", lines[i + 1].strip()):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            yield i + 1, lines[i:j], "\n".join(lines[start:i])
            start = i = j
            continue
        i += 1


def _cells(line: str) -> list[str]:
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return [c.strip() for c in re.split(r"(?<!\\)\|", s)]


def doc_primitives(rel: Path, idx: Index) -> list[str]:
    """The primitives a document under crypto/ is about: its folder's, then its family's."""
    parts = rel.parts
    if "crypto" not in parts[:-2]:
        return []
    parts = parts[len(parts) - 1 - parts[::-1].index("crypto"):]
    own = parts[1]
    prims = [own] if own in idx.impls else []
    fam = re.sub(r"-\d+$", "", own)
    if fam != own:
        prims += [p for p in sorted(idx.impls) if p != own and re.sub(r"-\d+$", "", p) == fam]
    if own == "bigint-mul":
        prims.append("bigint-add")
    return prims


def _row_desc(first: str, label: str, idx: Index, prims: list[str]) -> Desc:
    if first in ("n", "bits", "size") and re.fullmatch(r"\d+", label):
        n, d = int(label), Desc()
        if first == "n":
            d.limbs = [n]
        elif first == "bits":
            d.bits = [n]
        else:
            fam = re.sub(r"-\d+$", "", prims[0]) if prims else ""
            if f"{fam}-{n}" in idx.impls:
                d.primitive = [f"{fam}-{n}"]
            else:
                d.skip = "size"
        return d
    return describe(label, idx, prims)


def _bigint_key(key: dict, first: str, column: str, prims: list[str]) -> dict:
    """bigint-mul/NOTES.md's tables: add/normalize columns, the equal-size (bits) rows."""
    if "bigint-mul" not in prims:
        return key
    key = dict(key)
    if key.get("impl") in BIGINT_ADD:
        key["primitive"] = "bigint-add"
    if "normalize" in column.lower():
        key.update(primitive="bigint-add", impl="reduced", operation="normalize")
    if "operation" not in key and ("limbs" in key or "bits" in key):
        add = key.get("primitive") == "bigint-add"
        key["operation"] = ("add" if add else "mul") + ("_bits" if "bits" in key else "")
    return key


def check_file(path: Path, idx: Index, res: Result) -> None:
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    prims = doc_primitives(rel, idx)
    for line0, lines, ctx in tables(path.read_text()):
        if "optable" in ctx:
            res.skipped_tables.append((rel, line0, "optable.py's instruction counts"))
            continue
        head = _cells(lines[0])
        first = head[0].lower().strip()
        # the text above the table and its first heading: a core or latency for every cell
        ctxd = Desc()
        cores = [c for c in ("ideal", "e31") if re.search(rf"\b{c}\b", ctx.lower())]
        fd = describe(head[0], idx, prims)
        ctxd.core = fd.core or (cores if len(cores) == 1 else [])
        m = re.search(r"latency (\d)\b", ctx.lower())
        ctxd.latency = fd.latency or (int(m.group(1)) if m else None)
        if len(rel.parts) >= 4 and rel.parts[-4] == "crypto" and prims and rel.parts[-2] in idx.impls[prims[0]]:
            ctxd.impl = [rel.parts[-2]]     # crypto/<primitive>/<impl>/NOTES.md
        # a column that only names the core ("| core |" with e31 / ideal in each row)
        core_col = next((i for i, h in enumerate(head) if h.strip().lower() == "core"), None)
        cols, prev = [], None
        for h in head:
            d = describe(h, idx, prims)
            if prev and not d.skip and not d.operation and not d.impl and (d.core or d.metric) \
                    and d.metric in (None, "cycles_per_byte", "instret"):
                d.operation, d.size = prev.operation, d.size or prev.size
            cols.append(d)
            prev = d if not d.skip else prev
        for k, line in enumerate(lines[2:], start=line0 + 2):
            cells = _cells(line)
            label = cells[0]
            rd = _row_desc(first, label.strip(), idx, prims)
            if rd.skip or not rd.names_something():
                continue
            if core_col is not None and core_col < len(cells) and cells[core_col].strip() in ("e31", "ideal"):
                rd.core = [cells[core_col].strip()]
            for ci, cell in enumerate(cells[1:len(cols)], start=1):
                cd = cols[ci]
                if ci == core_col or cd.skip or not re.search(r"\d|\byes\b|\bno\b", cell):
                    continue
                where = (rel, k, label, head[ci], cell)
                vals = _cell_values(cell, cd.metric)
                if vals is None:
                    if _figure_like(cell):
                        res.unparsed.append(where + ("not a plain figure",))
                    continue
                values, cpb = vals
                key, multi, clash = {}, [], None
                for name in ("primitive", "impl", "operation", "core", "size", "limbs", "bits"):
                    r, c = getattr(rd, name), getattr(cd, name)
                    if r and c and r != c and name != "size":
                        clash = name
                    v = r or c or getattr(ctxd, name)
                    if len(v) == 1:
                        key[name] = v[0]
                    elif v:
                        multi.append((name, v))
                if clash:
                    res.unparsed.append(where + (f"row and column disagree on the {clash}",))
                    continue
                metric = cd.metric or rd.metric or "cycles"
                lat = rd.latency or cd.latency or ctxd.latency
                named = {n for n in ("operation", "core", "size", "limbs", "bits")
                         if getattr(rd, n) or getattr(cd, n)}
                if metric in ("cycles", "instret") and not rd.primitive and not named:
                    continue    # an implementation beside a step or an instruction class
                figs = []
                if len(values) == 1 and not multi:
                    figs.append((key, values[0], metric))
                elif len(multi) == 1 and len(multi[0][1]) == len(values):
                    name, vs = multi[0]
                    figs += [({**key, name: v}, x, metric) for v, x in zip(vs, values)]
                elif not multi and metric in UNORDERED:
                    figs += [(key, x, metric) for x in values]   # "64 / 224": each one a record's
                elif len(values) == 1 and len(multi) == 1 and metric in UNORDERED:
                    name, vs = multi[0]                          # one size for both operations
                    figs += [({**key, name: v}, values[0], metric) for v in vs]
                else:
                    res.unparsed.append(where + ("cannot pair the values with the labels",))
                    continue
                if cpb is not None and len(figs) == 1:
                    figs.append((key, cpb, "cycles_per_byte"))
                for fk, x, met in figs:
                    fk = _bigint_key(fk, first, head[ci], prims)
                    measured, why = _lookup(idx, fk, met, lat, prims)
                    if measured is None:
                        res.unparsed.append(where + (why,))
                        continue
                    fig = Figure(rel, k, label, head[ci], x, fk, met)
                    if any(_same(x, m, met) for m in measured.values()):
                        res.ok.append(fig)
                    else:
                        res.stale.append((fig, measured))


def default_files() -> list[Path]:
    c = ROOT / "crypto"
    return sorted(set(c.glob("*/NOTES.md")) | set(c.glob("*/*/NOTES.md")) | set(c.glob("*/README.md")))


def check(files=None, bench: Path | None = None) -> Result:
    idx = Index(load_records(bench or ROOT / "results" / "bench.json"))
    res = Result()
    for f in files or default_files():
        check_file(Path(f).resolve(), idx, res)
    return res


def _fmt(v) -> str:
    if isinstance(v, list):
        return "{" + ", ".join(map(_fmt, v)) + "}"
    if isinstance(v, float):
        return f"{v:,.2f}"
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m rvlab.docfigures",
                                 description="figures in the design notes' tables against results/bench.json")
    ap.add_argument("files", nargs="*", type=Path, help="markdown files (default: crypto/**/NOTES.md, README.md)")
    ap.add_argument("--json", type=Path, default=None, help="bench JSON (default results/bench.json)")
    ap.add_argument("--unparsed", action="store_true", help="also list the cells not tied to a record")
    a = ap.parse_args(argv)
    res = check(a.files or None, a.json)
    for fig, measured in res.stale:
        m = ", ".join(f"{c} {_fmt(v)}" for c, v in sorted(measured.items()))
        key = ", ".join(f"{k}={v}" for k, v in fig.key.items())
        print(f"{fig.path}:{fig.line}: {fig.row} | {fig.column}: stated {_fmt(fig.stated)}, "
              f"bench.json {m}  ({fig.metric}; {key})")
    if a.unparsed:
        for p, line, row, col, cell, why in res.unparsed:
            print(f"unparsed {p}:{line}: {row} | {col} = {cell!r}: {why}")
        for p, line, why in res.skipped_tables:
            print(f"skipped table {p}:{line}: {why}")
    print(f"{len(res.ok)} figures match results/bench.json, {len(res.stale)} stale, "
          f"{len(res.unparsed)} figure-like cells not tied to a record")
    return 1 if res.stale else 0


if __name__ == "__main__":
    sys.exit(main())

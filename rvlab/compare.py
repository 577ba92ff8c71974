"""Before / after: the measurements that differ between two lists of bench records
(`rvlab compare`, and the end of every `rvlab bench`)."""
from __future__ import annotations

import re

from .records import Record
from .tables import fmt

COMPARED = ("cycles", "code_bytes", "static_bytes", "stack_bytes", "constant_time")


def _json(v) -> str:
    """true / false / null, as bench.json writes them."""
    return {True: "true", False: "false", None: "null"}.get(v, str(v))


def _what(r: Record) -> str:
    k = r.measurement_key
    return f"{k[0]}/{k[1]} {k[4]} {k[5]} B{k[6]} ({k[2]}" + (f", mul latency {k[3]})" if k[3] else ")")


def compare(old: list[Record], new: list[Record], rx: re.Pattern | None = None) -> list[str]:
    """Text lines comparing two lists of bench records: every measurement whose cycles, code,
    static or stack bytes or constant-time verdict changed (largest relative cycle change
    first), then the counts of unchanged and one-sided measurements."""
    def keep(r):
        return rx is None or rx.search(r.name)
    before = {r.measurement_key: r for r in old if keep(r)}
    after = {r.measurement_key: r for r in new if keep(r)}
    rows, same = [], 0
    for k in before.keys() & after.keys():
        a, b = before[k], after[k]
        if all(getattr(a, f) == getattr(b, f) for f in COMPARED):
            same += 1
            continue
        ca, cb = a.cycles, b.cycles
        rel = (cb - ca) / ca if ca else 0.0
        what = _what(a)
        note = []
        for f, short in (("code_bytes", "code"), ("static_bytes", "static"), ("stack_bytes", "stack")):
            if getattr(a, f) != getattr(b, f):
                note.append(f"{short} {fmt(getattr(a, f))} -> {fmt(getattr(b, f))}")
        if a.constant_time != b.constant_time:
            note.append(f"constant_time {_json(a.constant_time)} -> {_json(b.constant_time)}")
        rows.append((-abs(rel), what, f"{what:<58} {fmt(ca):>10} -> {fmt(cb):>10} cycles {rel:+8.2%}"
                     + (f"   {'; '.join(note)}" if note else "")))
    rows.sort()
    lines = [r[2] for r in rows]
    only_old, only_new = len(before.keys() - after.keys()), len(after.keys() - before.keys())
    lines.append(f"{len(rows)} changed, {same} unchanged" + (f", {only_old} only before" if only_old else "")
                 + (f", {only_new} only after" if only_new else ""))
    return lines


def regressions(old: list[Record], new: list[Record], percent: float, rx: re.Pattern | None = None) -> list[str]:
    """The measurements that got worse: more than `percent` % more cycles, a constant-time
    verdict lost (true before, not now), a KAT that failed after passing -- or a measurement
    of the old list that the new one no longer has (a kernel that stopped being measured is
    not one that got no slower)."""
    def keep(r):
        return rx is None or rx.search(r.name)
    before = {r.measurement_key: r for r in old if keep(r)}
    now = {r.measurement_key for r in new}
    out = [f"{_what(a)}: measured before, missing now" for k, a in before.items() if k not in now]
    for b in new:
        a = before.get(b.measurement_key)
        if a is None or not keep(b):
            continue
        why = []
        if a.cycles and (b.cycles - a.cycles) / a.cycles * 100 > percent:
            why.append(f"cycles {fmt(a.cycles)} -> {fmt(b.cycles)} ({(b.cycles - a.cycles) / a.cycles:+.2%})")
        if a.constant_time is True and b.constant_time is not True:
            why.append(f"constant_time true -> {_json(b.constant_time)}")
        if a.kat == "pass" and b.kat != "pass":
            why.append(f"kat pass -> {b.kat}")
        if why:
            out.append(f"{_what(b)}: {'; '.join(why)}")
    return out

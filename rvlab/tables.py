"""What the report's tables share: number formatting, the default multiplier latency of a
core's records, finding one record, manifest values, relative links."""
from __future__ import annotations

import os
import tomllib
from collections import Counter
from pathlib import Path

from .build import ROOT
from .records import Record


def fmt(v, digits=1) -> str:
    """A table cell: thousands separators, `digits` decimals for floats, – for no value."""
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def ct_mark(r: Record) -> str:
    """The constant-time verdict as the tables show it: yes, NO, or – (not checked)."""
    return {True: "yes", False: "NO"}.get(r.constant_time, "–")


def default_latency(records: list[Record], core: str = "e31"):
    """The multiplier latency of most of the core's records (its default run); --mul-latency
    runs differ. Per core: the ideal core's records say 1."""
    counts = Counter(r.mul_latency for r in records if r.core == core)
    return max(counts, key=lambda k: counts[k]) if counts else None


def find(records: list[Record], prim: str, impl: str, op: str, nbytes: int, core: str = "e31") -> Record | None:
    """The record of one measurement at the core's default multiplier latency, without sweep keys."""
    lat = default_latency(records, core)
    for r in records:
        if (r.primitive, r.impl, r.operation, r.input_bytes, r.core) == (prim, impl, op, nbytes, core) \
                and r.mul_latency == lat and not r.extra:
            return r
    return None


def manifest_value(prim: str, impl: str, key: str):
    """A key of crypto/<prim>/<impl>/manifest.toml (None if there is no such file or key)."""
    mf = ROOT / "crypto" / prim / impl / "manifest.toml"
    try:
        return tomllib.loads(mf.read_text()).get(key)
    except (OSError, ValueError):
        return None


def rel(path: Path, base: Path) -> str:
    """path relative to base, with / separators (a Markdown link from a file in base)."""
    return os.path.relpath(path, base).replace(os.sep, "/")

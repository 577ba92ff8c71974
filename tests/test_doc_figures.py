"""The figures the design notes quote in their tables are the ones results/bench.json holds
(rvlab/docfigures.py; prose is read by hand). A notes table that names a measurement --
implementation, operation, core, size -- must show the committed run's value: after a
`make bench` that moves a record, the notes that quote it fail here until they are updated."""
import json
import re

import pytest

from conftest import ROOT
from rvlab import docfigures as D


def _params():
    for f in D.default_files():
        yield pytest.param(f, id=str(f.relative_to(ROOT)))


@pytest.mark.parametrize("doc", list(_params()))
def test_notes_figures_match_bench_json(doc):
    res = D.check([doc])
    stale = [f"{f.path}:{f.line}: {f.row} | {f.column}: stated {D._fmt(f.stated)}, bench.json "
             + ", ".join(f"{c} {D._fmt(v)}" for c, v in m.items()) for f, m in res.stale]
    assert not stale, "stale figures (update the notes from results/bench.json):\n" + "\n".join(stale)


def test_the_checker_covers_the_notes():
    """It ties most figures of the notes to records (a change that stopped it reading the tables
    would pass the test above vacuously)."""
    res = D.check()
    assert len(res.ok) + len(res.stale) > 1000
    by_doc = {str(f.path) for f in res.ok}
    for doc in ("crypto/sha256/NOTES.md", "crypto/sha512/NOTES.md", "crypto/bigint-mul/NOTES.md",
                "crypto/keccakf1600/NOTES.md", "crypto/polymul-128/README.md", "crypto/present80/NOTES.md"):
        assert doc in by_doc


def _bench_with(tmp_path, change):
    recs = json.loads((ROOT / "results" / "bench.json").read_text())
    for r in recs:
        change(r)
    p = tmp_path / "bench.json"
    p.write_text(json.dumps(recs))
    return p


def test_a_moved_record_makes_its_figures_stale(tmp_path):
    def change(r):
        if (r["primitive"], r["impl"], r["core"], r["operation"]) == ("sha256", "zknh", "e31", "compress"):
            r["cycles"] += 5
        if (r["primitive"], r["impl"], r["core"], r.get("limbs"), r["mul_latency"]) == \
                ("bigint-mul", "comba-fixed", "e31", 16, 2):
            r["cycles"] -= 1
    res = D.check([ROOT / "crypto" / "sha256" / "NOTES.md", ROOT / "crypto" / "bigint-mul" / "NOTES.md"],
                  _bench_with(tmp_path, change))
    got = {(str(f.path), f.row, f.column) for f, _ in res.stale}
    assert got == {("crypto/sha256/NOTES.md", "zknh", "compress, e31"),
                   ("crypto/bigint-mul/NOTES.md", "16", "comba-fixed")}, got


def test_table_forms(tmp_path):
    """The table shapes the notes use: a / b pairs, a core column that continues the one before,
    sizes, skipped sources, a table without the core (either core's figure passes)."""
    recs = {(r["impl"], r["core"], r["operation"], r["input_bytes"]): r
            for r in json.loads((ROOT / "results" / "bench.json").read_text()) if r["primitive"] == "sha256"}
    c = {k: r["cycles"] for k, r in recs.items()}
    doc = tmp_path / "crypto" / "sha256" / "NOTES.md"
    doc.parent.mkdir(parents=True)
    doc.write_text(f"""## Figures

| impl | compress ideal / e31 | hash 4096 B, ideal | e31 | c/B (e31) | stack B | seed 003 | goal |
|---|--:|--:|--:|--:|--:|--:|---|
| zbkb | {c['zbkb', 'ideal', 'compress', 64]:,} / {c['zbkb', 'e31', 'compress', 64]:,} | {c['zbkb', 'ideal', 'hash', 4096]:,} | {c['zbkb', 'e31', 'hash', 4096] + 1:,} | {c['zbkb', 'e31', 'hash', 4096] / 4096:.1f} | 64 / 224 | 4,755 | ≤ 2,200 |
| rv32i | 1 / {c['rv32i', 'e31', 'compress', 64]:,} | | | | 65 | | |

| operation | zknh | was |
|---|--:|--:|
| compress | {c['zknh', 'e31', 'compress', 64]:,} | 7 |
| keyexp + compress | 9 | |
""")
    res = D.check([doc])
    stale = sorted((f.row, f.column, f.stated) for f, _ in res.stale)
    assert stale == [("rv32i", "compress ideal / e31", 1), ("rv32i", "stack B", 65),
                     ("zbkb", "e31", c['zbkb', 'e31', 'hash', 4096] + 1)], stale
    ok = {(f.row, f.column, f.key.get("core"), f.metric) for f in res.ok}
    assert {("zbkb", "compress ideal / e31", "ideal", "cycles"), ("zbkb", "compress ideal / e31", "e31", "cycles"),
            ("zbkb", "hash 4096 B, ideal", "ideal", "cycles"), ("zbkb", "c/B (e31)", "e31", "cycles_per_byte"),
            ("zbkb", "stack B", None, "stack_bytes"), ("rv32i", "compress ideal / e31", "e31", "cycles"),
            ("compress", "zknh", None, "cycles")} <= ok, ok
    assert not any(f.column in ("seed 003", "goal", "was") or f.row.startswith("keyexp") for f in res.ok)


def test_readme_area_prose_matches_area_json():
    """docfigures reads tables only: the README's sentence on what three extensions cost and buy
    is checked here against results/area.json (written by the same `make bench`), to the
    precision it states."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    m = re.search(r"the Zbkc carry-less multiplier, (?P<zbkc_area>[\d.]+)% of the 5-stage RV32I core's gate "
                  r"equivalents, makes 128-bit binary polynomial multiplication (?P<zbkc>[\d.]+)× faster; the two "
                  r"S-box address instructions of seed 003, (?P<xsbox_area>[\d.]+)% of the core, make T-table AES "
                  r"(?P<xsbox>[\d.]+)× faster; the carry flag's `addc`, (?P<addc_area>[\d.]+)%, makes multi-limb "
                  r"addition (?P<addc>[\d.]+)× faster", readme)
    assert m, "the README's area sentence changed: update this test with it"
    area = json.loads((ROOT / "results" / "area.json").read_text())
    core = area["core"]["ge"]
    ge = {u["name"]: u["ge"] for u in area["units"]}
    up = {(s["primitive"], s["impl"], s["operation"]): s["speedup_geomean"] for s in area["speedups"]}
    actual = {"zbkc_area": 100 * ge["zbkc"] / core, "zbkc": up["polymul-128", "zbkc", "mul"],
              "xsbox_area": 100 * (ge["sboxaddr"] + ge["sboxaddrw"]) / core,
              "xsbox": up["aes128", "table-xsbox", "encrypt"],
              "addc_area": 100 * ge["addc"] / core, "addc": up["bigint-add", "carry", "add"]}
    for k, v in actual.items():
        stated = m.group(k)
        digits = len(stated.split(".")[1]) if "." in stated else 0
        assert float(stated) == round(v, digits), f"README says {stated} for {k}, results/area.json {v:.3f}"

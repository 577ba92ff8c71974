"""The Seed 003 section of bench.md and its redrawn Fig. 29/30, from synthetic records (the
kernels of the seed-003 primitives are written in parallel; the mapping must find them)."""
import json

from rvlab import seed003
from rvlab.records import Record
from rvlab.report import load_published, render, write_report


def rec(prim, impl, op, nb, cycles, core="ideal", isa="rv32i", **kw):
    return Record(primitive=prim, impl=impl, isa=isa, core=core, operation=op, input_bytes=nb, cycles=cycles,
                  instret=cycles, cycles_per_byte=round(cycles / nb, 2), code_bytes=kw.pop("code", 1000),
                  static_bytes=kw.pop("static", 4096), stack_bytes=16, kat=kw.pop("kat", "pass"),
                  constant_time=kw.pop("ct", False), mul_latency=1 if core == "ideal" else 5, **kw)


RECORDS = [
    rec("seed128", "table", "encrypt", 16, 1000), rec("seed128", "table", "encrypt", 16, 1400, core="e31"),
    rec("seed128", "table", "keyexp", 16, 500),                                     # not the one-block figure
    rec("seed128", "table-small", "encrypt", 16, 1900),
    rec("camellia128", "zbkb", "encrypt", 16, 884, isa="rv32i_zbkb"),
    rec("tdea", "zbkb", "encrypt", 8, 2500, isa="rv32i_zbkb"),                       # the seed has no crypto TDEA
    rec("present80", "rv32i", "encrypt", 8, 3000), rec("present80", "rv32i-ct", "encrypt", 8, 4000),
    rec("present80", "xzbp", "encrypt", 8, 1000, isa="rv32i_xzbp"),
    rec("present80", "zbkb-zbkx", "encrypt", 8, 900, isa="rv32i_zbkb_zbkx"),
    rec("sm4", "zksed", "encrypt", 16, 280, isa="rv32i_zbkb_zksed", ct=True),
    rec("sm4", "rv32i-ct", "encrypt", 16, 4948, ct=True),
    rec("sha256", "zknh", "compress", 64, 1354, isa="rv32i_zbkb_zknh", ct=True),
    rec("sha256", "zknh", "compress", 64, 1500, core="e31", isa="rv32i_zbkb_zknh", ct=True),
    rec("aes128", "table", "encrypt", 16, 800), rec("aes128", "table-xsbox", "encrypt", 16, 500, isa="rv32i_xsbox"),
]


def rows(md, label):
    return [l for l in md.splitlines() if l.startswith(f"| {label} |")]


def test_rows_beside_the_seed():
    md = render(RECORDS, load_published())
    sec = md[md.index("## Seed 003"):md.index("## Notes and further results")]
    # SEED V1 is our four-SS-table kernel (the seed's Table 17: 4,176 data bytes), V2 the small one
    v1 = rows(sec, "SEED V1")
    # the seed's SEED figure includes its key schedule: ours keyexp + encrypt (500 + 1,000) beside it
    assert v1 == ["| SEED V1 | rv32i | 2,133 | 1,048 | 4,176 | seed128/table (rv32i) | 1,000 | 1,400 | 2.13× | 1.52× "
                  "| 1,500 | 1.42× | 1,000 | 4,096 | NO |"]
    assert rows(sec, "SEED V2")[0].startswith("| SEED V2 | rv32i | 4,533 | 2,248 | 576 | seed128/table-small (rv32i) | 1,900 | – | 2.39× | – |")
    # the seed's crypto SEED V2 (xperm4): ours is zbkb-ct, not measured here: its figure, ours blank
    assert "| SEED V2 | rv32i+crypto | 2,854 | 1,416 | 576 | – | – |" in sec
    # no key schedule record, or a cipher the seed does not say of: no like-for-like figure
    assert all(r.split(" | ")[10:12] == ["–", "–"] for r in rows(sec, "PRESENT"))
    assert rows(sec, "CAMELLIA V1")[1].startswith("| CAMELLIA V1 | rv32i+crypto | 1,768 | 7,076 | 1,072 | camellia128/zbkb (rv32i_zbkb) | 884 | – | 2.00× |")
    assert "| TDEA | rv32i+crypto | NC | – | 256 | tdea/zbkb (rv32i_zbkb) | 2,500 |" in sec
    # every implementation of a class gets its row; the draft-set one and the ratified one alike
    present = rows(sec, "PRESENT")
    assert [r.split(" | ")[5] for r in present] == ["present80/rv32i (rv32i)", "present80/rv32i-ct (rv32i)",
                                                    "present80/zbkb-zbkx (rv32i_zbkb_zbkx)", "present80/xzbp (rv32i_xzbp)"]
    assert all(" | 14,102 | " in r for r in present[:2]) and all(" | 1,641 | " in r for r in present[2:])
    assert "| SM4 (not in the seed) | rv32i+crypto | — | – | – | sm4/zksed (rv32i_zbkb_zksed) | 280 |" in sec
    # the constant-time rv32i kernel has its row beside the (absent here) T-table one
    assert "| SM4 (not in the seed) | rv32i | — | – | – | sm4/rv32i-ct (rv32i) | 4,948 |" in sec
    assert not rows(sec, "SM3 (not in the seed)")                 # neither the seed nor we have one
    sha = rows(sec, "SHA-256")
    assert sha[1].startswith("| SHA-256 | rv32i+crypto | 2,708 | 488 | 288 | sha256/zknh (rv32i_zbkb_zknh) | 1,354 | 1,500 | 2.00× | 1.81× |")
    assert sha[1].endswith("| yes |")
    # the S-box address instruction against its manifest's baseline (aes128/table-xsbox: table)
    assert "| aes128 | encrypt | table | 800 → 500 | 1.60× | – | – |" in sec


def test_published_figures_are_found_for_every_variant():
    pub = load_published()
    for v in seed003.VARIANTS:
        if v.published is None:
            continue
        assert seed003.seed_cycles(pub, v, seed003.BASE), v.label
        assert seed003.seed_program_bytes(pub, v, seed003.BASE), v.label
        assert seed003.seed_data_bytes(pub, v), v.label


def test_figures_use_the_fastest_implementation_per_class():
    data = dict(seed003.figure_data(RECORDS, load_published(), ("Table 4",)))
    assert data["PRESENT"][("ideal", seed003.BASE)] == (3000, "rv32i")
    assert data["PRESENT"][("ideal", seed003.CRYPTO)] == (900, "zbkb-zbkx")
    assert data["PRESENT"][("seed", seed003.CRYPTO)] == (1641.0, "")
    assert ("e31", seed003.BASE) not in data["PRESENT"]
    assert set(data["MISTY1"]) == {("seed", seed003.BASE), ("seed", seed003.CRYPTO)}     # the seed's bars alone


def test_report_draws_and_links_the_figures(tmp_path):
    js = tmp_path / "bench.json"
    js.write_text(json.dumps([r.to_dict() for r in RECORDS]))
    write_report(js, tmp_path / "bench.md")
    md = (tmp_path / "bench.md").read_text()
    for name in ("seed003-fig29-block-ciphers.png", "seed003-fig30-hashes.png"):
        assert f"]({name})" in md
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # records of neither figure's primitives: no figures, and the section says why
    only = tmp_path / "only"
    only.mkdir()
    (only / "bench.json").write_text(json.dumps([rec("chacha20", "rv32i", "encrypt", 64, 900).to_dict()]))
    write_report(only / "bench.json", only / "bench.md")
    assert not list(only.glob("seed003-*.png"))
    assert "Fig. 29 and Fig. 30 are redrawn when" in (only / "bench.md").read_text()


def test_both_cores_in_the_primitive_tables():
    recs = [rec("chacha20", "rv32i", "encrypt", 64, 900, core="e31"),
            rec("chacha20", "rv32i", "encrypt", 64, 800, core="ideal"),
            Record.from_dict(dict(rec("chacha20", "rv32i", "encrypt", 64, 850, core="e31").to_dict(), mul_latency=2))]
    md = render(recs, [])
    sec = md[md.index("## chacha20"):]
    assert sec.index("Multiplier result latency: 5 cycles.") < \
        sec.index("Multiplier result latency: 2 cycles (a `--mul-latency` run beside the default).") < \
        sec.index("Core `ideal`: one cycle per instruction")

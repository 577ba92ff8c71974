"""Record format of bench output, sizes from the linked ELF, and the report."""
import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT
from rvlab.records import RECORD_KEYS, Record, RecordError, load_records
from rvlab.report import load_published, published_for, render

DOUBLE = FIXTURES / "qemu_as_rvsim.py"


@pytest.fixture(scope="module")
def bench_records(tmp_path_factory):
    """`rvlab bench` on the two ref implementations, with a QEMU test double in place of
    rvsim: checks the pipeline and the record format, not cycle numbers."""
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    env = dict(os.environ, RVLAB_RVSIM=str(DOUBLE))
    p = subprocess.run([sys.executable, "-m", "rvlab", "bench", "--filter", "^(aes128|chacha20)/ref$",
                        "--json", str(out), "--random", "5"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return out, json.loads(out.read_text())


def test_record_keys_and_types(bench_records):
    _, recs = bench_records
    ops = {(r["primitive"], r["operation"], r["input_bytes"]) for r in recs}
    assert ops == {("aes128", "keyexp", 16), ("aes128", "encrypt", 16), ("aes128", "keyexp_dec", 16),
                   ("aes128", "decrypt", 16), ("chacha20", "encrypt", 64), ("chacha20", "encrypt", 4096)}
    for r in recs:
        Record.from_dict(r)
        for k in RECORD_KEYS + ["mul_latency"]:
            assert k in r
        assert r["impl"] == "ref" and r["isa"] == "rv32imc" and r["core"] == "e31"
        assert r["kat"] == "pass" and r["constant_time"] is None
        assert r["cycles_per_byte"] == round(r["cycles"] / r["input_bytes"], 2)
        assert r["mul_latency"] == 5          # passed through from the simulator JSON (the double says 5; the real run: test_workbench_fixes)


def test_sizes_come_from_the_kernel_objects(bench_records):
    _, recs = bench_records
    from rvlab.build import BUILD
    by = {r["primitive"]: r for r in recs}
    for prim, src in (("aes128", "aes128.c.o"), ("chacha20", "chacha20.c.o")):
        objs = list((BUILD / prim).glob(f"ref-*/kernel/{src}"))
        assert objs
        size = subprocess.run(["riscv64-unknown-elf-size", "-A", str(objs[0])], capture_output=True, text=True).stdout
        text = sum(int(l.split()[1]) for l in size.splitlines() if l.startswith(".text"))
        data = sum(int(l.split()[1]) for l in size.splitlines()
                   if l.split() and l.split()[0].startswith((".data", ".rodata", ".bss", ".sdata", ".sbss", ".srodata")))
        # linker relaxation may shorten code a little; never lengthen it
        assert 0.9 * text <= by[prim]["code_bytes"] <= text
        assert by[prim]["static_bytes"] == data
    assert by["aes128"]["static_bytes"] == 2 * 256 + 2 * 1024     # S-box, inverse, Te0, Td0
    assert by["chacha20"]["static_bytes"] == 0


def test_stack_bytes_measured(bench_records):
    _, recs = bench_records
    st = {(r["primitive"], r["operation"], r["input_bytes"]): r["stack_bytes"] for r in recs}
    # chacha20 ref keeps two 64-byte states and a 64-byte key stream block on the stack
    assert 192 <= st[("chacha20", "encrypt", 4096)] <= 512
    assert st[("chacha20", "encrypt", 64)] == st[("chacha20", "encrypt", 4096)]
    # aes128_keyexp_dec expands into a 44-word local array first
    assert st[("aes128", "keyexp_dec", 16)] >= 176


def test_report_regenerates_markdown(bench_records, tmp_path):
    path, recs = bench_records
    p = subprocess.run([sys.executable, "-m", "rvlab", "report", "--json", str(path)], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    md = path.with_suffix(".md").read_text()
    assert "## aes128" in md and "## chacha20" in md
    assert "| ref | rv32imc | e31 | encrypt | 4,096 |" in md
    assert "seed-000 Table 1 | chacha20 cycles" in md          # published figure beside ours
    assert "seed-000 Table 1 | aes128-encrypt cycles" in md
    png = path.with_name("bench-cycles-per-byte.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "](bench-cycles-per-byte.png)" in md


def test_report_rejects_bad_records(tmp_path):
    bad = tmp_path / "bench.json"
    bad.write_text(json.dumps([{"primitive": "x"}]))
    p = subprocess.run([sys.executable, "-m", "rvlab", "report", "--json", str(bad)], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "missing" in p.stderr and "Traceback" not in p.stderr
    bad.write_text("not json")
    p = subprocess.run([sys.executable, "-m", "rvlab", "report", "--json", str(bad)], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "not valid JSON" in p.stderr


def test_record_checks_itself():
    good = {"primitive": "chacha20", "impl": "zbkb", "isa": "rv32imc_zbkb", "core": "e31",
            "operation": "encrypt", "input_bytes": 4096, "cycles": 68000, "instret": 66000,
            "cycles_per_byte": 16.6, "code_bytes": 1234, "static_bytes": 32, "stack_bytes": 40,
            "kat": "pass", "constant_time": True, "mul_latency": 5, "limbs": 8}
    r = Record.from_dict(good)
    assert r.extra == {"limbs": 8} and r.extra_label == ", limbs=8" and r.name == "chacha20/zbkb"
    assert r.constant_time_claimed is None and r.dtim_bytes is None           # optional keys may be missing
    assert Record.from_dict(r.to_dict()) == r
    assert list(r.to_dict())[:15] == RECORD_KEYS + ["mul_latency"] and list(r.to_dict())[-1] == "limbs"
    for k, v in (("kat", "ok"), ("cycles", -1), ("constant_time", "yes"), ("input_bytes", 1.5),
                 ("cycles", True), ("dtim_bytes", -3), ("mul_latency", "5"), ("primitive", "")):
        with pytest.raises(RecordError):
            Record.from_dict(dict(good, **{k: v}))
    with pytest.raises(RecordError, match=r"missing \['cycles'\]"):
        Record.from_dict({k: v for k, v in good.items() if k != "cycles"})


def test_bench_file_round_trip(bench_records, tmp_path):
    """A bench file read and written again is the same file, byte for byte."""
    from rvlab.records import dump_records
    path, _ = bench_records
    dump_records(load_records(path), tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()


def test_published_matching():
    rows = load_published()
    assert rows, "reference/published.csv missing"
    prims = {r["primitive"] for r in published_for("aes128", rows)}
    assert prims == {"aes128-keyexp", "aes128-encrypt"}       # not aes128-ctr
    assert {r["primitive"] for r in published_for("aes128-ctr", rows)} == {"aes128-ctr"}
    # the fixslicing paper's AES-256-CTR rows reach aes256-ctr's section, and only its
    aes256 = published_for("aes256-ctr", rows)
    assert {r["implementation"] for r in aes256} == {"barrel-shiftrows", "fully-fixsliced"}
    assert not any(r["primitive"] == "aes256-ctr" for r in published_for("aes128-ctr", rows))
    assert render([], rows).count("no measurements") == 1


def test_readme_block_is_updated(bench_records, tmp_path):
    from rvlab.report import README_BEGIN, README_END, update_readme
    path, _ = bench_records
    recs = load_records(path)
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{README_BEGIN}\nold\n{README_END}\noutro\n")
    assert update_readme(recs, readme)
    text = readme.read_text()
    assert "old" not in text and text.startswith("intro\n") and text.endswith("outro\n")
    assert "| chacha20 | ref | rv32imc | encrypt | 4,096 |" in text     # largest input only
    assert "| chacha20 | ref | rv32imc | encrypt | 64 |" not in text
    assert "multiplier result latency of 5 cycles" in text and "| KAT | CT |" in text
    assert all(l.endswith("| pass | – |") for l in text.splitlines() if l.startswith("| chacha20 | ref |"))


def test_compare_lists_what_changed(bench_records, tmp_path):
    """`rvlab compare OLD NEW`: a changed cycle count and code size are listed with the relative
    change, unchanged and one-sided measurements are counted; a file that is not a list of
    records is a one-line error and exit 1."""
    path, recs = bench_records
    changed = [dict(r) for r in recs]
    changed[0]["cycles"] = recs[0]["cycles"] * 2
    changed[1]["code_bytes"] = recs[1]["code_bytes"] + 4
    dropped = changed.pop()
    new = tmp_path / "new.json"
    new.write_text(json.dumps(changed))
    p = subprocess.run([sys.executable, "-m", "rvlab", "compare", str(path), str(new)], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "+100.00%" in lines[0] and f"{recs[0]['primitive']}/{recs[0]['impl']} {recs[0]['operation']}" in lines[0]
    assert "+0.00%" in lines[1] and f"code {recs[1]['code_bytes']:,} -> {recs[1]['code_bytes'] + 4:,}" in lines[1]
    assert lines[-1] == f"2 changed, {len(recs) - 3} unchanged, 1 only before"
    assert dropped["primitive"] in ("aes128", "chacha20")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    p = subprocess.run([sys.executable, "-m", "rvlab", "compare", str(bad), str(new)], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "not a list of bench records" in p.stderr
    p = subprocess.run([sys.executable, "-m", "rvlab", "compare", str(path), str(new), "--filter", "("], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "is not a regular expression" in p.stderr and "Traceback" not in p.stderr

"""Regression tests for the workbench fixes: warm timing, include dependencies, per-run
build products, constant-time verdicts on every record, report contents."""
import json
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, RVSIM
from rvlab import build as B
from rvlab.manifest import discover

needs_rvsim = pytest.mark.usefixtures("rvsim_built")   # fails, not skips, without rvsim


def _impl(name):
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    return next(i for i in impls if i.name == name)


def _bench(filter_, out, *extra):
    p = subprocess.run([sys.executable, "-m", "rvlab", "bench", "--filter", filter_, "--json", str(out),
                        "--random", "2", *extra], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(Path(out).read_text())


# ------------------------------------------------------------------ 1. warm timing
def _patch_u32(elf_in: Path, elf_out: Path, sym: str, value: int) -> None:
    """Copy an ELF32 with the initial value of a .data word changed (via the section
    holding the symbol's address)."""
    data = bytearray(elf_in.read_bytes())
    nm = subprocess.run([B.CC.replace("gcc", "nm"), str(elf_in)], capture_output=True, text=True).stdout
    addr = next(int(l.split()[0], 16) for l in nm.splitlines() if l.split() and l.split()[-1] == sym)
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2e)
    for i in range(shnum):
        _, typ, _, a, off, size = struct.unpack_from("<IIIIII", data, shoff + i * shentsize)
        if typ == 1 and a <= addr < a + size:            # PROGBITS holding the symbol
            struct.pack_into("<I", data, off + addr - a, value)
            elf_out.write_bytes(data)
            return
    raise AssertionError(f"{sym} not in a PROGBITS section of {elf_in}")


def _functions(elf: Path, isa: str, tmp: Path) -> dict:
    js = tmp / (elf.stem + ".json")
    p = subprocess.run([str(RVSIM), "--isa", isa, "--core", "e31", "--json-out", str(js), str(elf)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(js.read_text())["functions"]


@needs_rvsim
@pytest.mark.parametrize("name,fn_by_op", [
    ("aes128/zkne", {"encrypt": "aes128_encrypt", "keyexp": "aes128_keyexp_enc"}),
    ("keccakf1600/zbkb", {"permute": "keccakf1600_permute", "to_internal": "keccakf1600_to_internal",
                          "from_internal": "keccakf1600_from_internal"}),
    ("chacha20/rv32i", {}),
])
def test_record_is_the_warm_call(name, fn_by_op, tmp_path):
    """A record is the function's second call -- the one after the single warm-up run --
    plus the call's own few single-cycle instructions (argument set-up, call, return): the
    second call's cost is the difference of the function's rvsim totals with the measurement
    loop run 2 and 1 times. Before the fix the timed statement was a second, never-run copy
    (aes128/zkne encrypt 247 vs 220)."""
    impl = _impl(name)
    recs = _bench(f"^{name}$", tmp_path / "b.json")
    elf = B.build_speed(impl).speed
    _patch_u32(elf, tmp_path / "one.elf", "rvlab_bench_iters", 1)
    _patch_u32(elf, tmp_path / "two.elf", "rvlab_bench_iters", 2)
    f1 = _functions(tmp_path / "one.elf", impl.run_isa, tmp_path)
    f2 = _functions(tmp_path / "two.elf", impl.run_isa, tmp_path)
    if not fn_by_op:   # one function serves all records: check it ran once more per record
        fn = "chacha20_xor"
        assert f2[fn]["calls"] - f1[fn]["calls"] == len(recs)
        return
    for r in recs:
        fn = fn_by_op[r["operation"]]
        warm_c = f2[fn]["cycles"] - f1[fn]["cycles"]
        warm_i = f2[fn]["instret"] - f1[fn]["instret"]
        extra_c, extra_i = r["cycles"] - warm_c, r["instret"] - warm_i
        assert 2 <= extra_i <= 8, (r, warm_c, warm_i)
        # the call overhead is warm too: one cycle per instruction, plus the E31's fetch cycle
        # when the return lands on a 32-bit instruction at a 2-mod-4 address of the harness
        # (misaligned_fetch_penalty = 1)
        assert extra_i <= extra_c <= extra_i + 1, (r, warm_c, warm_i)
    # the record is what the program with the default loop (2 iterations) prints
    out2 = subprocess.run([str(RVSIM), "--isa", impl.run_isa, "--core", "e31", str(tmp_path / "two.elf")],
                          capture_output=True, text=True).stdout
    printed = {json.loads(l.split(" ", 1)[1])["operation"]: json.loads(l.split(" ", 1)[1])["cycles"]
               for l in out2.splitlines() if l.startswith("RVLAB_RESULT ")}
    assert printed == {r["operation"]: r["cycles"] for r in recs}


# ------------------------------------------------------------------ 2. dependencies
def test_rebuild_when_an_included_file_from_another_folder_changes(tmp_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "impl").mkdir()
    inc = tmp_path / "common" / "val.inc"
    inc.write_text(".word 0x11111111\n")
    src = tmp_path / "impl" / "k.S"
    src.write_text('.section .rodata\n#include "../common/val.inc"\n')
    obj = tmp_path / "out" / "k.o"
    flags = ["-march=rv32i", "-mabi=ilp32"]
    B._compile(src, obj, flags, [], "test")
    assert b"\x11\x11\x11\x11" in obj.read_bytes()
    deps = B.depfile_deps(obj.with_suffix(".d"))
    assert inc.resolve() in [d.resolve() for d in deps]
    m0 = obj.stat().st_mtime_ns
    B._compile(src, obj, flags, [], "test")          # nothing changed: no rebuild
    assert obj.stat().st_mtime_ns == m0
    time.sleep(0.01)
    inc.write_text(".word 0x22222222\n")
    t = time.time() + 2
    os.utime(inc, (t, t))
    B._compile(src, obj, flags, [], "test")
    assert b"\x22\x22\x22\x22" in obj.read_bytes()


def test_depfile_parsing(tmp_path):
    d = tmp_path / "x.d"
    d.write_text("/b/.x.o.123: /a/x.S /a/../common/y.inc \\\n /a/with\\ space.h\n")
    assert B.depfile_deps(d) == [Path("/a/x.S"), Path("/a/../common/y.inc"), Path("/a/with space.h")]
    assert B.depfile_deps(tmp_path / "missing.d") is None


# ------------------------------------------------------------------ 3. per-run products
def test_test_programs_are_keyed_by_case_parameters():
    impl = _impl("chacha20/ref")
    k = B.kernel_objects(impl)
    a = B.build_test(impl, 1, 3, k)
    b = B.build_test(impl, 1, 4, k)
    c = B.build_test(impl, 2, 3, k)
    assert len({a.test, b.test, c.test}) == 3
    assert a.n_cases + 1 == b.n_cases
    assert a.test.exists() and b.test.exists() and c.test.exists()


# ------------------------------------------------------------------ 4. constant time
def test_every_speed_program_marks_a_secret():
    """Every implementation's speed program defines an rvlab_secret_* symbol (what
    `rvlab bench` passes to rvsim --secret)."""
    from rvlab.bench import secret_symbols
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    missing = [i.name for i in impls if not secret_symbols(B.build_speed(i).speed)]
    assert not missing, f"no rvlab_secret_* symbol in the speed programs of {missing}"


@needs_rvsim
def test_no_bench_record_has_a_null_constant_time(tmp_path):
    """One implementation of every primitive (one that claims constant time where there is
    one, else the first by name): each record has a verdict."""
    impls, _ = discover([ROOT / "crypto"], [ROOT / "crypto"])
    pick = {}
    for i in sorted(impls, key=lambda i: (i.constant_time is not True, i.impl)):
        pick.setdefault(i.primitive, i)
    pattern = "^(" + "|".join(re.escape(i.name) for i in pick.values()) + ")$"
    recs = _bench(pattern, tmp_path / "b.json")
    assert {r["primitive"] for r in recs} == {p.name for p in (ROOT / "crypto").iterdir()
                                                if (p / "speed.c").exists()}
    nulls = [(r["primitive"], r["impl"], r["operation"]) for r in recs if r["constant_time"] is None]
    assert not nulls, nulls


# ------------------------------------------------------------------ 5. multiplier latency
@needs_rvsim
def test_mul_latency_run_is_merged_beside_the_default(tmp_path):
    out = tmp_path / "b.json"
    a = _bench("^bigint-add/carry$", out)
    b = _bench("^bigint-add/carry$", out, "--mul-latency", "2")
    lats = {r["mul_latency"] for r in b}
    assert lats == {5, 2} and len(b) == 2 * len(a)
    again = _bench("^bigint-add/carry$", out)          # re-running the default replaces only its own
    assert len(again) == len(b)
    md = out.with_suffix(".md").read_text()
    assert "Multiplier result latency: 5 cycles." in md and "Multiplier result latency: 2 cycles" in md
    # crypto/bigint-mul/plot.py ran: one figure per (core, latency)
    assert "bigint-add-e31-mul2.png" in md and "bigint-add-e31-mul5.png" in md
    assert (tmp_path / "bigint-add-e31-mul2.png").exists()


# ------------------------------------------------------------------ 6. report contents
def _rec(prim, impl, op, nb, cycles, **kw):
    """A bench record as a JSON object (what bench.json holds)."""
    r = {"primitive": prim, "impl": impl, "isa": kw.pop("isa", "rv32i"), "core": "e31", "operation": op,
         "input_bytes": nb, "cycles": cycles, "instret": cycles, "cycles_per_byte": round(cycles / nb, 2),
         "code_bytes": 100, "static_bytes": 0, "stack_bytes": 0, "kat": "pass", "constant_time": True,
         "mul_latency": 5}
    r.update(kw)
    return r


def _records(*dicts):
    from rvlab.records import Record
    return [Record.from_dict(d) for d in dicts]


def test_report_has_the_seed000_tables_and_fit_check():
    from rvlab.report import load_published, render
    recs = _records(_rec("keccakf1600", "rv32i", "permute", 200, 11500, dtim_bytes=2000, program_code_bytes=9000),
                    _rec("keccakf1600", "zbkb", "permute", 200, 8700, isa="rv32i_zbkb", dtim_bytes=20000,
                         program_code_bytes=9000),
                    _rec("chacha20", "rv32i", "encrypt", 4096, 100000),
                    _rec("aes128", "table", "encrypt", 16, 870))
    md = render(recs, load_published())
    t1 = md[md.index("## Seed 000 Table 1"):md.index("## Seed 000 Table 2")]
    assert "| keccakf1600 (200 B) | keccakf1600/rv32i | 11,500 | 57.5 | 13774 | 12969 | 8,700 (zbkb, rv32i_zbkb) |" in t1
    t2 = md[md.index("## Seed 000 Table 2"):md.index("## Fits the board")]
    # keccak: 1248 rotations x 2 cycles (seed 000 §7.2: single-cycle rotate instead of 2 shifts + OR)
    assert "| keccakf1600/rv32i | permute 200 B | 1248 | 200 | 57.5 | 2,496 cycles (21.7%) | 45.0 | 43.5 (zbkb) | 56.4 |" in t2
    # chacha20: 308 per 64-byte block, 64 blocks
    assert f"{308 * 2 * 64:,} cycles" in t2
    fit = md[md.index("## Fits the board"):md.index("## Notes and further results")]
    assert "| keccakf1600/rv32i | 100 | yes | 9,000 | 2,000 | yes |" in fit
    assert "| keccakf1600/zbkb | 100 | yes | 9,000 | 20,000 | NO |" in fit
    assert "polymul_table5.md" in md and "NOTES.md" in md
    assert "Multiplier result latency: 5 cycles." in md


@needs_rvsim
def test_report_regenerates_polymul_table5_from_its_bench_file(tmp_path):
    """`rvlab report` runs crypto/polymul-128/table5.py on the bench file it reports: the table is
    written beside the report, with the cycles of that bench file under rvsim's own."""
    from rvlab.report import PRIMITIVE_SCRIPTS, write_report
    assert ROOT / "crypto" / "polymul-128" / "table5.py" in PRIMITIVE_SCRIPTS
    recs = [_rec("polymul-128", impl, "mul", 32, cyc) for impl, cyc in
            (("lut", 12345), ("lut-x", 2345), ("ct", 3456), ("ct-comb", 4567), ("ct-x", 5678))]
    recs.append(_rec("polymul-128", "lut", "mul", 32, 999, mul_latency=2))   # other latency: not shown
    js = tmp_path / "bench.json"
    js.write_text(json.dumps(recs))
    write_report(js, tmp_path / "bench.md")
    t5 = (tmp_path / "polymul_table5.md").read_text()
    assert "| *e31 cycles, `rvlab bench` (bench.json)* |  |  |  |  | 12,345 | 2,345 | 3,456 | 4,567 | 5,678 |" in t5
    alone = next(l for l in t5.splitlines() if l.startswith("| *e31 cycles, the call alone"))
    assert "| – |" not in alone and "None" not in alone
    assert "](polymul_table5.md)" in (tmp_path / "bench.md").read_text()


@needs_rvsim
def test_concurrent_runs_with_different_random_counts(tmp_path):
    """Two `rvlab test` runs at once with other --random counts each run their own program."""
    cmd = [sys.executable, "-m", "rvlab", "test", "--filter", "^chacha20/rv32i$", "--runner", "rvsim", "--random"]
    ps = [subprocess.Popen(cmd + [n], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
          for n in ("6", "8")]
    outs = [p.communicate(timeout=300)[0] for p in ps]
    assert all(p.returncode == 0 for p in ps), outs
    n = [int(o.split("cases")[0].split()[-1]) for o in outs]
    assert n[1] - n[0] == 2, outs


# ------------------------------------------------------------------ the `rvsim` command
@needs_rvsim
def test_rvsim_entry_point_is_the_binary():
    """`rvsim` on PATH (pyproject script) replaces itself with sim/'s binary: its output and
    exit status pass through unchanged."""
    run = lambda *a: subprocess.run([sys.executable, "-c", "import sys; from rvlab.cli import rvsim_main; "
                                     "sys.argv[0] = 'rvsim'; sys.exit(rvsim_main())", *a],
                                    capture_output=True, text=True, timeout=60)
    p = run("--version")
    assert p.returncode == 0 and p.stdout.startswith("rvsim "), p.stdout + p.stderr
    p = run("/nonexistent.elf")
    assert p.returncode == 125 and "cannot read '/nonexistent.elf'" in p.stderr


# ------------------------------------------------------------------ bench refuses to lose records
def test_bench_refuses_unreadable_results_and_bad_options(tmp_path):
    """A bench.json that is not a list of records would be overwritten by the merge: stop
    before measuring, with a one-line error; options rvsim would reject are caught up front."""
    def bench(*a):
        return subprocess.run([sys.executable, "-m", "rvlab", "bench", "--filter", "^chacha20/zbkb$", *a],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    bad = tmp_path / "bench.json"
    for text in ('{"oops": 1', '[1]', '[{"primitive": "x"}]'):
        bad.write_text(text)
        p = bench("--json", str(bad))
        assert p.returncode == 1 and p.stderr.startswith("rvlab: error: ") and "Traceback" not in p.stderr, p.stderr
        assert bad.read_text() == text                      # left as it was
    for opts, msg in ((["--core", "nope"], "--core 'nope'"), (["--mul-latency", "0"], "--mul-latency must be"),
                      (["--core", "ideal", "--mul-latency", "2"], "no effect on the ideal core"),
                      (["--json", str(tmp_path)], "is a directory")):
        p = bench("--json", str(tmp_path / "new.json"), *opts) if "--json" not in opts else bench(*opts)
        assert p.returncode == 1 and msg in p.stderr, p.stderr
        assert not (tmp_path / "new.json").exists()


# ------------------------------------------------------------------ nothing tested is not a pass
def test_test_fails_when_every_implementation_is_skipped():
    """--runner qemu on a kernel with a custom instruction QEMU lacks runs nothing: SKIP line,
    and a non-zero exit (a green exit would claim a test happened); with one that runs, the
    skip is reported and the exit is 0."""
    cmd = [sys.executable, "-m", "rvlab", "test", "--runner", "qemu", "--random", "2", "--filter"]
    p = subprocess.run(cmd + ["^polymul-128/lut-x$"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "SKIP polymul-128/lut-x" in p.stdout, p.stdout + p.stderr
    assert "nothing was tested" in p.stderr
    p = subprocess.run(cmd + ["^polymul-128/lut(-x)?$"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "1 of 2 implementations passed, 1 skipped" in p.stdout, p.stdout + p.stderr


# ------------------------------------------------------------------ 7. long messages by default
@pytest.mark.parametrize("prim,field,unit", [("aes128-ctr", "pt", 128), ("aes256-ctr", "pt", 128),
                                             ("chacha20", "pt", 64),
                                             ("sha3-256", "msg", 136), ("shake128", "msg", 168),
                                             ("sha256", "msg", 64), ("sha512", "msg", 128),
                                             ("sm3", "msg", 64), ("hmac-sha256", "msg", 64)])
def test_default_random_cases_include_long_messages(prim, field, unit):
    """The default 200 random cases (RVLAB_TEST_RANDOM) reach the speed programs' 4096-byte
    messages and lengths past a kernel's batch/block/rate unit that end mid-unit."""
    import importlib.util
    import random
    spec = importlib.util.spec_from_file_location(f"vectors_{prim}", ROOT / "crypto" / prim / "vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for n_random in (200, 4):
        lens = [len(c.fields[field]) for c in mod.cases(random.Random(1), n_random)
                if c.name.startswith("random#")]
        assert len(lens) == n_random
        assert 4096 in lens
        assert any(n > 1024 and n % unit for n in lens)

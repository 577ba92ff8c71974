"""`rvlab lib`: the library's choice for an -march, its archive and header, and the example
firmware of examples/hifive1 built against it, run on rvsim and on QEMU's sifive_e machine and
checked line by line against Python's own ciphers and hashes."""
import hashlib
import hmac
import os
import subprocess
import sys

import pytest
from Crypto.Cipher import AES, ChaCha20

from conftest import ROOT, RVSIM, rvlab
from rvlab import build as B
from rvlab.lib import LibError, choose, fits, function_of, march_features
from rvlab.manifest import Impl, load_manifest
from rvlab.records import Record

EXAMPLE = ROOT / "examples" / "hifive1"
# what the example uses, and what they are built from: a small library keeps the test short
PRIMS = r"^(chacha20|aes128|aes128-ctr|sha256|hmac-sha256|sha3-256|keccakf1600)/"
ZK = "rv32imac_zbkb_zkne_zknd_zknh"


def _lib(tmp_path, march, *extra):
    out = tmp_path / march
    p = rvlab("lib", "--march", march, "--out", out, "--filter", PRIMS, *extra)
    assert p.returncode == 0, p.stdout + p.stderr
    return out, p.stdout


def _chosen(out) -> dict[str, str]:
    """function -> primitive/impl, from the header's RVLAB_HAS_ lines and their comments."""
    chosen, impl = {}, None
    for line in (out / "rvlab.h").read_text().splitlines():
        if line.startswith("/* ") and line.endswith(") */") and ": " in line and "----" not in line:
            prim, rest = line[3:].split(": ", 1)
            impl = f"{prim}/{rest.split()[0]}"
        elif line.startswith("#define RVLAB_HAS_"):
            chosen[line.split()[1][len("RVLAB_HAS_"):].lower()] = impl
    return chosen


def _expected(msg: bytes) -> dict[str, bytes]:
    """Each line of the example, computed by pycryptodome and hashlib (key 00..1f, iv f0..ff)."""
    key, iv = bytes(range(32)), bytes(range(0xf0, 0x100))
    chacha = ChaCha20.new(key=key, nonce=iv[:12])
    chacha.seek(64)                              # block counter 1 (RFC 8439 §2.4)
    return {"message": msg,
            "chacha20": chacha.encrypt(msg),
            "aes128-ctr": AES.new(key[:16], AES.MODE_CTR, nonce=b"", initial_value=iv).encrypt(msg),
            "aes128": AES.new(key[:16], AES.MODE_ECB).encrypt(msg[:16]),
            "sha256": hashlib.sha256(msg).digest(),
            "sha512": hashlib.sha512(msg).digest(),
            "hmac-sha256": hmac.new(key, msg, hashlib.sha256).digest(),
            "sha3-256": hashlib.sha3_256(msg).digest()}


def _check_output(text: str, march: str) -> set[str]:
    lines = text.splitlines()
    assert lines[0] == f"rvlab example, librvlab.a for -march={march}"
    got = dict(l.split() for l in lines[1:])
    msg = bytes.fromhex(got["message"])
    exp = _expected(msg)
    for name, hexval in got.items():
        assert bytes.fromhex(hexval) == exp[name], name
    return set(got)


def _build_and_run(lib_dir, march, tmp_path):
    out = tmp_path / f"example-{march}"
    out.mkdir()
    p = subprocess.run(["make", "-s", "-C", EXAMPLE, f"MARCH={march}", f"LIB={lib_dir}", f"OUT={out}",
                        f"{out}/example.elf"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    elf = out / "example.elf"
    exts = march.split("_")[1:]
    sim = subprocess.run([str(RVSIM), "--isa", "_".join(["rv32imac"] + exts), "--stop-on-trap", elf],
                         capture_output=True, text=True, timeout=120)
    qemu = subprocess.run(["qemu-system-riscv32", "-M", "sifive_e", "-cpu", ",".join(["rv32"] + [f"{e}=true" for e in exts]),
                           "-bios", "none", "-kernel", elf, "-display", "none", "-chardev", "stdio,id=c0",
                           "-semihosting-config", "enable=on,target=native,chardev=c0", "-monitor", "none",
                           "-serial", "none"], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0 and qemu.returncode == 0, sim.stderr + qemu.stderr
    assert sim.stdout == qemu.stdout
    return _check_output(sim.stdout, march)


def test_rv32imac_library_and_example(tmp_path, rvsim_built):
    out, stdout = _lib(tmp_path, "rv32imac")
    chosen = _chosen(out)
    # constant-time only: the AES-128 block cipher is the fixsliced one (T-table and C are not
    # constant time: the table names them beside it), the CTR mode the bitsliced one
    assert chosen["aes128_encrypt"] == chosen["aes128_decrypt"] == "aes128/fixsliced"
    assert chosen["aes128ctr_xor"] == "aes128-ctr/bitsliced"
    assert "| aes128_encrypt | aes128/fixsliced | rv32i | yes |" in stdout
    assert "aes128-ctr/bitsliced" in (out / "choices.md").read_text()
    # only the entry points are global: sha256/hmac-sha256/sha3-256 carry their own helpers
    nm = subprocess.run([B.CC.replace("gcc", "nm"), "-g", "--defined-only", out / "librvlab.a"],
                        capture_output=True, text=True).stdout
    exported = {l.split()[-1] for l in nm.splitlines() if len(l.split()) == 3}
    assert exported == set(chosen)
    assert _build_and_run(out, "rv32imac", tmp_path) == {"message", "chacha20", "aes128-ctr", "aes128",
                                                         "sha256", "hmac-sha256", "sha3-256"}


def test_crypto_extensions_library_and_example(tmp_path, rvsim_built):
    out, _ = _lib(tmp_path, ZK)
    chosen = _chosen(out)
    assert chosen["aes128_decrypt"] == "aes128/zknd"          # zkne's is as fast and lacks decryption
    assert chosen["chacha20_xor"] == "chacha20/zbkb" and chosen["sha256"] == "sha256/zknh"
    assert "aes128" in _build_and_run(out, ZK, tmp_path)


def test_variable_time_on_request(tmp_path):
    out, stdout = _lib(tmp_path, "rv32imac", "--allow-variable-time")
    assert _chosen(out)["aes128_encrypt"] == "aes128/table"    # faster than the C reference
    assert "| aes128_encrypt | aes128/table | rv32i | NO |" in stdout


def test_functions_the_fastest_lacks_come_from_another(tmp_path):
    # bigint-add/reduced (chosen: more functions, faster) has no bigint_add; bigint-add/full's
    # joins it in the archive with only that function global
    out = tmp_path / "lib"
    p = rvlab("lib", "--march", "rv32imac", "--out", out, "--filter", "^bigint-add/")
    assert p.returncode == 0, p.stdout + p.stderr
    chosen = _chosen(out)
    assert chosen["bigint_add_reduced"] == chosen["bigint_normalize"] == "bigint-add/reduced"
    assert chosen["bigint_add"] == "bigint-add/full"
    assert "| bigint_add | bigint-add/full | rv32i | yes |" in p.stdout and "bigint_add from full" in p.stdout
    nm = subprocess.run([B.CC.replace("gcc", "nm"), "-g", "--defined-only", str(out / "librvlab.a")],
                        capture_output=True, text=True, check=True).stdout
    assert sorted(l.split()[-1] for l in nm.splitlines() if len(l.split()) == 3) == \
        ["bigint_add", "bigint_add_reduced", "bigint_normalize"]


def test_a_missing_function_comes_from_whichever_runs_it_fastest():
    # "wide" has the most functions and is chosen; it lacks p_decrypt, which "slow" (first in the
    # candidates' order: faster overall) and "fast" both have: fast decrypts in fewer cycles
    def impl(name, fns):
        return Impl("p", name, "rv32i", [], fns, "", ROOT, ROOT)

    def rec(name, op, cycles):
        return Record("p", name, "rv32i", "e31", op, 16, cycles, cycles, None, 100, 0, 0, "pass", True, 1)
    impls = [impl("wide", ["p_keyexp", "p_encrypt", "p_extra"]), impl("slow", ["p_keyexp", "p_encrypt", "p_decrypt"]),
             impl("fast", ["p_keyexp", "p_encrypt", "p_decrypt"])]
    records = [rec("wide", "encrypt", 100), rec("slow", "encrypt", 200), rec("slow", "decrypt", 900),
               rec("fast", "encrypt", 800), rec("fast", "decrypt", 300)]
    [c] = choose(impls, records, march_features("rv32imac"), allow_variable_time=False)
    assert c.impl.impl == "wide"
    assert [(i.impl, fns) for i, fns, _ in c.extra] == [("fast", ["p_decrypt"])]
    # without a timing of p_decrypt, the candidates' order decides
    [c] = choose(impls, [r for r in records if r.operation != "decrypt"], march_features("rv32imac"), False)
    assert [(i.impl, fns) for i, fns, _ in c.extra] == [("slow", ["p_decrypt"])]


def test_max_code(tmp_path):
    # the fastest chacha20 for rv32imac (the unrolled rv32i kernel) against a limit below its code
    # size: the C reference is taken; below every implementation's: none, with the smallest named
    out = tmp_path / "lib"
    free = rvlab("lib", "--march", "rv32imac", "--out", out, "--filter", "^chacha20/")
    assert free.returncode == 0 and _chosen(out)["chacha20_xor"] == "chacha20/rv32i", free.stdout + free.stderr
    size = next(int(l.split("|")[5].replace(",", "")) for l in free.stdout.splitlines() if l.startswith("| chacha20_xor |"))
    small = rvlab("lib", "--march", "rv32imac", "--out", out, "--filter", "^chacha20/", "--max-code", str(size - 1))
    assert small.returncode == 0 and _chosen(out)["chacha20_xor"] == "chacha20/ref", small.stdout + small.stderr
    none = rvlab("lib", "--march", "rv32imac", "--out", out, "--filter", "^chacha20/", "--max-code", "16")
    assert "none has at most 16 code bytes (--max-code; smallest: ref" in none.stdout, none.stdout + none.stderr


@pytest.mark.parametrize("march, says", [("rv32imafc", "ilp32"), ("arm", "not an RV32"), ("rv64imac", "not an RV32")])
def test_bad_march(march, says):
    p = rvlab("lib", "--march", march)
    assert p.returncode == 1 and says in p.stderr and "Traceback" not in p.stderr


def test_what_fits():
    f = march_features("rv32imac_zkn")
    assert {"zbkb", "zbkc", "zknh", "zkne", "zknd", "m", "c"} <= f
    impl = load_manifest(ROOT / "crypto" / "sha256" / "zknh" / "manifest.toml", [ROOT / "crypto"])
    assert fits(impl, f) and not fits(impl, march_features("rv32imac_zknh"))   # it needs zbkb too
    assert not fits(impl, march_features("rv32e_zkn"))
    with pytest.raises(LibError):
        march_features("rv32xyz_")


def test_functions_of_operations():
    aes = ["aes128_keyexp_enc", "aes128_keyexp_dec", "aes128_encrypt", "aes128_decrypt"]
    assert [function_of(o, "aes128", aes) for o in ("keyexp", "keyexp_dec", "encrypt", "decrypt")] == \
        ["aes128_keyexp_enc", "aes128_keyexp_dec", "aes128_encrypt", "aes128_decrypt"]
    assert function_of("encrypt", "aes128-ctr", ["aes128ctr_keyexp", "aes128ctr_xor"]) == "aes128ctr_xor"
    sha = ["sha256_compress", "sha256_init", "sha256_update", "sha256_final", "sha256"]
    assert function_of("hash", "sha256", sha) == "sha256"
    assert function_of("compress", "sha256", sha) == "sha256_compress"
    assert function_of("add_bits", "bigint-add", ["bigint_add"]) == "bigint_add"
    assert function_of("squeeze", "sha256", sha) is None


def test_documented_flags_are_rvlabs():
    """The README's link lines and the example's Makefile use the harness's link flags (the E31
    map, picolibc with semihosting), which test_harness_doc runs as written."""
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("## Linking your firmware"):]
    block = " ".join(block[block.index("```sh"):block.index("```", block.index("```sh") + 5)].replace("\\\n", " ").split())
    makefile = " ".join((EXAMPLE / "Makefile").read_text().replace("\\\n", " ").split())
    for flag in B.LINK_FLAGS:
        assert flag in block, flag
        assert flag.replace("-march=rv32imac", "-march=$(LINK_MARCH)") in makefile, flag


def test_readme_firmware_block_runs_as_written(tmp_path, rvsim_built):
    """The README's "Linking your firmware" block, run from the checkout as written (python3 and
    rvsim as after `. .venv/bin/activate`): it builds examples/hifive1 against the library and
    the firmware runs on rvsim."""
    readme = (ROOT / "README.md").read_text()
    sec = readme[readme.index("## Linking your firmware"):]
    block = sec[sec.index("```sh\n") + 6:sec.index("```", sec.index("```sh") + 5)]
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "python3").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')  # (a symlink would leave the venv)
    (bin_ / "python3").chmod(0o755)
    (bin_ / "rvsim").symlink_to(RVSIM)
    env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}")
    made = [EXAMPLE / f for f in ("main.o", "firmware.elf", "firmware.map")]
    try:
        p = subprocess.run(["sh", "-e", "-c", block], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "librvlab.a for -march=rv32imac_zbkb" in p.stdout and "\nchacha20 " in p.stdout, p.stdout
    finally:
        for f in made:
            f.unlink(missing_ok=True)


def test_example_without_library_says_what_to_run(tmp_path):
    p = subprocess.run(["make", "-s", "-C", EXAMPLE, "MARCH=rv32imc", f"LIB={tmp_path / 'none'}", f"OUT={tmp_path}"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "python3 -m rvlab lib --march rv32imc" in p.stderr, p.stderr


def test_bad_json_and_out_are_one_line(tmp_path):
    """--json FILE that is not there is an error (not a reason to measure every candidate);
    an --out folder that cannot be made is one line, not a traceback."""
    p = rvlab("lib", "--march", "rv32imac", "--json", tmp_path / "nosuch.json", "--filter", "^chacha20/")
    assert p.returncode == 1 and p.stderr == f"rvlab: error: --json {tmp_path / 'nosuch.json'}: no such file\n", p.stderr
    (tmp_path / "afile").write_text("")
    p = rvlab("lib", "--march", "rv32imac", "--out", tmp_path / "afile" / "lib", "--filter", "^chacha20/")
    assert p.returncode == 1 and "cannot make the folder" in p.stderr and "Traceback" not in p.stderr, p.stderr

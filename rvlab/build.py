"""Building test, speed and stack programs for one implementation."""
from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .manifest import Impl
from .testcase import Case

ROOT = Path(os.environ.get("RVLAB_ROOT", Path(__file__).resolve().parent.parent))
HARNESS = ROOT / "harness"
BUILD = Path(os.environ.get("RVLAB_BUILD", ROOT / "build"))
CC = os.environ.get("RVLAB_CC", "riscv64-unknown-elf-gcc")

HARNESS_MARCH = "rv32imac_zicsr"

# The E31 memory map of the HiFive1 board as picolibc.ld --defsym values: harness/board.toml,
# the one place the tests (Python and Rust) and rvlab take it from.
BOARD = tomllib.loads((HARNESS / "board.toml").read_text())
FLASH = BOARD["__flash"]                                          # where the HiFive1's boot loader jumps
RAM_BASE, RAM_SIZE = BOARD["__ram"], BOARD["__ram_size"]          # the 16 KiB DTIM


def board_link_flags(flash: int = FLASH) -> list[str]:
    """The E31 link recipe: picolibc's picolibc.ld placed on the board's map by --defsym (no
    linker script per board). Every program built for the board links with these; `flash` moves
    the code (HiFive1 Rev B's boot loader jumps to 0x2001_0000)."""
    return [f"-Wl,--defsym={sym}={flash if sym == '__flash' else v:#x}" for sym, v in BOARD.items()]


PICOLIBC_SEMIHOST = ["--specs=picolibc.specs", "--crt0=semihost", "--oslib=semihost"]
LINK_BASE = ["-march=rv32imac", "-mabi=ilp32"] + PICOLIBC_SEMIHOST
LINK_FLAGS = LINK_BASE + board_link_flags()
COMMON = ["-mabi=ilp32", "--specs=picolibc.specs", "-ffunction-sections", "-fdata-sections", "-g"]


class BuildError(Exception):
    """A compile/link/case-generation step failed; the message holds the command and its output."""


def _run(cmd: list[str], what: str, names: dict[str, str] | None = None) -> None:
    """Run a build command; BuildError with the command and its output if it fails. `names`
    maps the private names of the outputs (see _private) to the real ones in the message, so
    it shows a command that can be run again, and the same text whichever process ran it."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{what}: {cmd[0]} not found — run `make setup` (scripts/setup.sh)") from None
    if p.returncode != 0:
        msg = f"{what} failed:\n  $ {shlex.join(cmd)}\n{(p.stderr + p.stdout).rstrip()}"
        for private, real in (names or {}).items():
            msg = msg.replace(private, real)
        raise BuildError(msg)


def _newer(target: Path, deps: list[Path]) -> bool:
    if not target.exists():
        return False
    t = target.stat().st_mtime
    return all(d.stat().st_mtime <= t for d in deps if d.exists())


def depfile_deps(dfile: Path) -> list[Path] | None:
    """The prerequisites listed in a gcc -MMD dependency file (None if it is missing or
    unreadable, which forces a rebuild)."""
    try:
        text = dfile.read_text()
    except OSError:
        return None
    text = text.replace("\\\n", " ")
    deps: list[Path] = []
    for line in text.splitlines():
        if ":" not in line:
            continue
        # "target: dep dep ..." (targets never contain ": " here; Windows drive letters do not occur)
        rhs = line.split(": ", 1)[1] if ": " in line else line.split(":", 1)[1]
        # gcc escapes spaces in names as "\ "
        for tok in rhs.replace("\\ ", "\0").split():
            deps.append(Path(tok.replace("\0", " ")))
        break                                   # -MP phony targets (if any) follow; the first rule lists all
    return deps


def _private() -> str:
    """A name part no other rvlab process or thread uses now: build products are written under a
    private name and renamed, as several runs (and `-j N` workers) may build the same file."""
    return f"{os.getpid()}-{threading.get_native_id()}"


def _compile(src: Path, obj: Path, flags: list[str], deps: list[Path], what: str) -> Path:
    """Compile src to obj unless obj is newer than src, the given deps and every file the
    previous compilation read (gcc -MMD dependency file obj.d: headers and .S/.inc files
    included from other folders), and was built with the same command."""
    obj.parent.mkdir(parents=True, exist_ok=True)
    cmdfile = obj.with_suffix(".cmd")
    dfile = obj.with_suffix(".d")
    cmd = [CC] + flags + ["-c", str(src), "-o", str(obj)]
    if cmdfile.exists() and cmdfile.read_text() == shlex.join(cmd):
        listed = depfile_deps(dfile)
        if listed is not None and all(d.exists() for d in listed) and _newer(obj, [src] + deps + listed):
            return obj
    # build under a private name and rename: several rvlab runs may share build/
    tmp = obj.with_name(f".{obj.name}.{_private()}")
    tmpd = obj.with_name(f".{obj.name}.{_private()}.d")
    try:
        _run([CC] + flags + ["-MMD", "-MF", str(tmpd), "-c", str(src), "-o", str(tmp)], what,
             {str(tmpd): str(dfile), str(tmp): str(obj)})
        os.replace(tmpd, dfile)
        os.replace(tmp, obj)
    finally:
        tmp.unlink(missing_ok=True)
        tmpd.unlink(missing_ok=True)
    _atomic_write(cmdfile, shlex.join(cmd))
    return obj


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{_private()}")
    tmp.write_text(text)
    os.replace(tmp, path)


# ------------------------------------------------------------------ test cases
_VECTORS_LOCK = threading.Lock()


def forget_primitive_modules() -> None:
    """Drop every module loaded from a file under crypto/ from sys.modules. Primitives' helper
    modules share bare names (ref, gen, optable, ...) and import each other by them, so the next
    primitive's `import ref` must not get the previous one's from the cache."""
    crypto = str(ROOT / "crypto") + os.sep
    for name, mod in list(sys.modules.items()):
        if (getattr(mod, "__file__", None) or "").startswith(crypto):
            del sys.modules[name]


def load_cases(impl: Impl, seed: int, n_random: int) -> list[Case]:
    """Run the primitive's vectors.py cases(rng, n_random) and validate the result."""
    vp = impl.primitive_dir / "vectors.py"
    spec = importlib.util.spec_from_file_location(f"rvlab_vectors_{impl.primitive.replace('-', '_')}", vp)
    mod = importlib.util.module_from_spec(spec)
    # one at a time: vectors.py may import helpers beside it (sys.path is the process's)
    with _VECTORS_LOCK:
        sys.path.insert(0, str(impl.primitive_dir))
        forget_primitive_modules()
        try:
            spec.loader.exec_module(mod)
            rng = random.Random(f"{seed}:{impl.primitive}")
            cases = mod.cases(rng, n_random)
        except Exception as e:  # noqa: BLE001 - report any error in user code clearly
            raise BuildError(f"{vp}: cases() raised {type(e).__name__}: {e}") from None
        finally:
            sys.path.remove(str(impl.primitive_dir))
    if not isinstance(cases, list) or not cases:
        raise BuildError(f"{vp}: cases() must return a non-empty list of rvlab.testcase.Case")
    seen = set()
    for c in cases:
        if not isinstance(c, Case):
            raise BuildError(f"{vp}: cases() returned a {type(c).__name__}, not a Case")
        try:
            c.validate()
        except ValueError as e:
            raise BuildError(f"{vp}: {e}") from None
        if c.name in seen:
            raise BuildError(f"{vp}: duplicate case name {c.name!r}")
        seen.add(c.name)
    return cases


def cases_c(cases: list[Case]) -> str:
    """C source for the cases: const arrays (in flash), 4-byte aligned fields."""
    out = ['/* generated by rvlab from vectors.py — do not edit */', '#include "rvlab.h"', ""]
    strings: dict[str, str] = {}

    def cstr(s: str) -> str:
        if s not in strings:
            strings[s] = f"s{len(strings)}"
            out.append(f'static const char {strings[s]}[] = "{s}";')
        return strings[s]

    for i, c in enumerate(cases):
        names = []
        for j, (k, v) in enumerate(c.fields.items()):
            nm = cstr(k)
            data = ",".join(str(b) for b in v) if v else "0"
            out.append(f"static const uint8_t c{i}_{j}[{max(len(v), 1)}] __attribute__((aligned(4))) = {{{data}}};")
            names.append(f"{{{nm}, c{i}_{j}, {len(v)}}}")
        out.append(f"static const rvlab_field f{i}[] = {{{', '.join(names)}}};")
        out.append(f'static const char n{i}[] = "{c.name}";')
    out.append("const rvlab_case rvlab_cases[] = {")
    out += [f"  {{n{i}, {len(c.fields)}, f{i}}}," for i, c in enumerate(cases)]
    out.append("};")
    out.append(f"const uint32_t rvlab_ncases = {len(cases)};")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ programs
@dataclass
class Programs:
    test: Path | None = None
    speed: Path | None = None
    stack: Path | None = None
    n_cases: int = 0


def impl_build_dir(impl: Impl) -> Path:
    tag = hashlib.sha1(str(impl.path.resolve()).encode()).hexdigest()[:6]
    return BUILD / impl.primitive / f"{impl.impl}-{tag}"


ISA_FILE = "rvsim-isa"      # beside the programs: the --isa `rvlab run` gives rvsim for them


def _make_build_dir(impl: Impl) -> Path:
    bd = impl_build_dir(impl)
    bd.mkdir(parents=True, exist_ok=True)
    f = bd / ISA_FILE
    if not f.exists() or f.read_text().strip() != impl.run_isa:
        _atomic_write(f, impl.run_isa + "\n")
    return bd


def kernel_objects(impl: Impl) -> list[Path]:
    bd = impl_build_dir(impl) / "kernel"
    inc = [f"-I{impl.path}", f"-I{impl.primitive_dir}", f"-I{ROOT / 'ise'}", f"-I{HARNESS}"]
    hdrs = [p for p in impl.path.iterdir() if p.suffix in (".h", ".inc")] + [impl.primitive_dir / "api.h"]
    ise_inc = ROOT / "ise" / "ise.inc"
    if ise_inc.exists():
        hdrs.append(ise_inc)
    objs = []
    for s in impl.sources:
        src = impl.path / s
        flags = [f"-march={impl.march}"] + COMMON + inc
        if s.endswith(".c"):
            flags += impl.cflags
        objs.append(_compile(src, bd / impl.object_name(s), flags, hdrs, f"{impl.name}: compiling {s}"))
    return objs


def _defines(impl: Impl) -> list[str]:
    return [f"-DRVLAB_HAS_{e.upper()}=1" for e in impl.entry_points]


def _harness_obj(name: str, extra: list[str], tag: str) -> Path:
    src = HARNESS / name
    return _compile(src, BUILD / "harness" / f"{Path(name).stem}{tag}.o",
                    [f"-march={HARNESS_MARCH}", "-O2"] + COMMON + extra + [f"-I{HARNESS}"],
                    [HARNESS / "rvlab.h"], f"harness: compiling {name}")


def _link(objs: list[Path], elf: Path, what: str, flash: int = FLASH) -> Path:
    """Link with picolibc for the board map; `flash` = where the code goes (the board's boot
    loader jumps there: HiFive1 0x2040_0000, HiFive1 Rev B 0x2001_0000)."""
    tmp = elf.with_name(f".{elf.stem}.{_private()}")
    cmd = [CC] + LINK_BASE + board_link_flags(flash) + [f"-Wl,-Map={tmp}.map"] + [str(o) for o in objs] + ["-o", str(tmp) + ".elf"]
    try:
        _run(cmd, what, {f"{tmp}.map": str(elf.with_suffix(".map")), f"{tmp}.elf": str(elf)})
        os.replace(f"{tmp}.map", elf.with_suffix(".map"))
        os.replace(f"{tmp}.elf", elf)
    finally:
        for suf in (".map", ".elf"):
            Path(f"{tmp}{suf}").unlink(missing_ok=True)
    return elf


def build_test(impl: Impl, seed: int, n_random: int, kobjs: list[Path] | None = None) -> Programs:
    bd = _make_build_dir(impl)
    kobjs = kobjs if kobjs is not None else kernel_objects(impl)
    cases = load_cases(impl, seed, n_random)
    csrc = BUILD / "cases" / f"{impl.primitive}-{seed}-{n_random}.c"
    csrc.parent.mkdir(parents=True, exist_ok=True)
    text = cases_c(cases)
    if not csrc.exists() or csrc.read_text() != text:
        _atomic_write(csrc, text)
    cobj = _compile(csrc, csrc.with_suffix(".o"), [f"-march={HARNESS_MARCH}", "-O1"] + COMMON + [f"-I{HARNESS}"],
                    [HARNESS / "rvlab.h"], f"{impl.primitive}: compiling generated cases")
    pflags = [f"-march={HARNESS_MARCH}", "-O2"] + COMMON + [f"-I{HARNESS}", f"-I{impl.primitive_dir}"] + _defines(impl)
    tobj = _compile(impl.primitive_dir / "test.c", bd / "test.o", pflags,
                    [HARNESS / "rvlab.h", impl.primitive_dir / "api.h"], f"{impl.name}: compiling test.c")
    objs = [_harness_obj("main_test.c", [], ""), _harness_obj("rvlab.c", [], ""),
            _harness_obj("trampoline.S", [], ""), cobj, tobj] + kobjs
    # keyed by the case parameters: concurrent runs with other --seed/--random values
    # must not overwrite the program this run is about to execute
    elf = _link(objs, bd / f"test-s{seed}-r{n_random}.elf", f"{impl.name}: linking the test program")
    return Programs(test=elf, n_cases=len(cases))


def build_speed(impl: Impl, kobjs: list[Path] | None = None, flash: int = FLASH) -> Programs:
    """The speed and stack programs, linked with their code at `flash` (the board's boot
    loader entry; programs for another board than the HiFive1 get their own file names)."""
    bd = _make_build_dir(impl)
    board = "" if flash == FLASH else f"-{flash:x}"
    kobjs = kobjs if kobjs is not None else kernel_objects(impl)
    progs = Programs()
    for kind, extra in (("speed", []), ("stack", ["-DRVLAB_STACK"])):
        pflags = [f"-march={HARNESS_MARCH}", "-O2"] + COMMON + [f"-I{HARNESS}", f"-I{impl.primitive_dir}"] \
            + _defines(impl) + extra
        sobj = _compile(impl.primitive_dir / "speed.c", bd / f"{kind}.o", pflags,
                        [HARNESS / "rvlab.h", impl.primitive_dir / "api.h"], f"{impl.name}: compiling speed.c ({kind})")
        tag = "" if kind == "speed" else "_stack"
        objs = [_harness_obj("main_speed.c", extra, tag), _harness_obj("rvlab.c", extra, tag), sobj] + kobjs
        setattr(progs, kind, _link(objs, bd / f"{kind}{board}.elf", f"{impl.name}: linking the {kind} program",
                                   flash=flash))
    return progs


# ------------------------------------------------------------------ sizes
_CODE = re.compile(r"^\.(text|init|fini)(\.|$)")
_STATIC = re.compile(r"^\.(rodata|srodata|data|sdata|bss|sbss|tdata|tbss)(\.|$)|^COMMON$")
_ENTRY = re.compile(r"^\s+(\S+)?\s*0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(\S.*)$")


_RODATA = re.compile(r"^\.(rodata|srodata)(\.|$)")


def sizes_from_map(map_path: Path, objs: list[Path], static_re: re.Pattern = _STATIC) -> tuple[int, int]:
    """(code_bytes, static_bytes) of the given objects' input sections as linked
    (static_re=_RODATA: only the read-only data, which is linked to flash)."""
    want = {str(Path(o).resolve()) for o in objs}
    code = static = 0
    in_map = False
    pending = None
    for line in Path(map_path).read_text().splitlines():
        if line.startswith("Linker script and memory map"):
            in_map = True
            continue
        if not in_map:
            continue
        s = line.strip()
        if line.startswith(" ") and not line.startswith("  ") and s and " " not in s:
            pending = s                    # long section name alone on its line
            continue
        m = _ENTRY.match(line)
        if m:
            sec = m.group(1) or pending
            pending = None
            if not sec or not line.startswith(" ") or line.startswith("  ") and m.group(1):
                continue
            size = int(m.group(3), 16)
            fname = m.group(4).strip()
            if size == 0 or str(Path(fname).resolve()) not in want:
                continue
            if _CODE.match(sec):
                code += size
            elif static_re.match(sec):
                static += size
        else:
            pending = None
    return code, static


def ram_static_bytes(elf: Path) -> int:
    """Bytes of the program's allocated sections in the DTIM (data, bss, ...), without the
    linker's stack reservation (.stack): the measured stack is added separately."""
    p = subprocess.run([CC.replace("gcc", "readelf"), "-SW", str(elf)], capture_output=True, text=True)
    if p.returncode != 0:
        raise BuildError(f"readelf -S {elf} failed: {p.stderr.strip()}")
    total = 0
    for line in p.stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]{8})\s+[0-9a-f]+\s+([0-9a-f]+)\s", line)
        if not m or m.group(1) == ".stack":
            continue
        addr, size = int(m.group(2), 16), int(m.group(3), 16)
        if RAM_BASE <= addr < RAM_BASE + RAM_SIZE:
            total += size
    return total



def program_code_bytes(elf: Path) -> int:
    """Bytes of executable sections of the whole program (harness, libc and kernel)."""
    p = subprocess.run([CC.replace("gcc", "readelf"), "-SW", str(elf)], capture_output=True, text=True)
    if p.returncode != 0:
        raise BuildError(f"readelf -S {elf} failed: {p.stderr.strip()}")
    total = 0
    for line in p.stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]{8}\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*X\S*)\s", line)
        if m:
            total += int(m.group(2), 16)
    return total

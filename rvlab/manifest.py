"""Implementation manifests (interfaces.md §4): discovery and validation."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REQUIRED = {"primitive": str, "impl": str, "isa": str, "sources": list,
            "entry_points": list, "description": str}
OPTIONAL = {"cflags": list, "constant_time": bool, "baseline": str}
_ISA_RE = re.compile(r"^rv32[a-z]+(_[a-z][a-z0-9]*)*$")
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# single-letter extensions gcc -march accepts for these kernels
_BASE_LETTERS = set("imac")
# extensions gcc 12 / binutils 2.40 know; others must be written with .insn macros
GCC_EXTS = {"zicsr", "zifencei", "zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx",
            "zkne", "zknd", "zknh", "zksed", "zksh", "zkn", "zks", "zk", "zkt", "zkr"}


class ManifestError(Exception):
    """A manifest is missing, unreadable or inconsistent; the message says which and why."""


@dataclass
class Impl:
    primitive: str
    impl: str
    isa: str
    sources: list[str]
    entry_points: list[str]
    description: str
    path: Path                      # the implementation folder
    primitive_dir: Path             # folder holding api.h, vectors.py, test.c, speed.c
    cflags: list[str] = field(default_factory=lambda: ["-O2"])
    constant_time: bool | None = None
    baseline: str | None = None     # impl of the same primitive this one's extensions are measured against

    @property
    def name(self) -> str:
        return f"{self.primitive}/{self.impl}"

    @property
    def base(self) -> str:
        return self.isa.split("_")[0][4:]

    @property
    def extensions(self) -> list[str]:
        return [e for e in self.isa.split("_")[1:] if e not in ("zicsr", "zifencei")]

    @property
    def march(self) -> str:
        """-march for the kernel sources: the manifest ISA with zicsr, minus
        extensions gcc does not know (custom x* ones, used through .insn macros)."""
        exts = [e for e in self.extensions if e in GCC_EXTS]
        return "_".join([f"rv32{self.base}"] + exts + ["zicsr"])

    @property
    def run_isa(self) -> str:
        """ISA given to rvsim/QEMU: rv32imac (the harness) plus the kernel's extensions."""
        base = "imac" + "".join(ch for ch in self.base if ch not in "imac")
        return "_".join([f"rv32{base}"] + self.extensions)

    def object_name(self, source: str) -> str:
        """Where a source's object goes inside the implementation's build folder: its path in
        the implementation folder, or under `primitive/` for a shared file of the primitive's
        folder (load_manifest confines sources to those two), so never outside the build folder."""
        real = (self.path / source).resolve()
        if real.is_relative_to(self.path.resolve()):
            return real.relative_to(self.path.resolve()).as_posix() + ".o"
        return "primitive/" + real.relative_to(self.path.parent.resolve()).as_posix() + ".o"

    @property
    def custom_extensions(self) -> list[str]:
        return [e for e in self.extensions if e.startswith("x")]


def load_manifest(path: Path, primitive_roots: list[Path]) -> Impl:
    """Read and check one manifest.toml. Raises ManifestError with a clear message."""
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise ManifestError(f"{where}: no manifest.toml in {path.parent}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ManifestError(f"{where}: not valid TOML: {e}") from None
    for k, t in REQUIRED.items():
        if k not in data:
            raise ManifestError(f"{where}: missing required key '{k}' "
                                f"(required: {', '.join(REQUIRED)}; see docs/interfaces.md §4)")
        if not isinstance(data[k], t):
            raise ManifestError(f"{where}: '{k}' must be a {t.__name__}, got {type(data[k]).__name__}")
    for k, t in OPTIONAL.items():
        if k in data and not isinstance(data[k], t):
            raise ManifestError(f"{where}: '{k}' must be a {t.__name__}, got {type(data[k]).__name__}")
    # extra keys (notes such as `rotations = 320`) are allowed and ignored
    folder = path.parent
    if data["impl"] != folder.name:
        raise ManifestError(f"{where}: impl = \"{data['impl']}\" but the folder is '{folder.name}' (they must be equal)")
    if data["primitive"] != folder.parent.name:
        raise ManifestError(f"{where}: primitive = \"{data['primitive']}\" but the parent folder is "
                            f"'{folder.parent.name}' (they must be equal)")
    isa = data["isa"]
    if not _ISA_RE.match(isa):
        raise ManifestError(f"{where}: isa = \"{isa}\" is not an ISA string like rv32i or rv32imc_zbkb")
    bad = set(isa.split("_")[0][4:]) - _BASE_LETTERS
    if "i" not in isa.split("_")[0][4:] or bad:
        raise ManifestError(f"{where}: isa = \"{isa}\": base must be rv32i with optional m, a, c")
    if not data["sources"] or not all(isinstance(s, str) for s in data["sources"]):
        raise ManifestError(f"{where}: 'sources' must be a non-empty list of file names")
    for s in data["sources"]:
        if not (s.endswith(".S") or s.endswith(".c") or s.endswith(".s")):
            raise ManifestError(f"{where}: source '{s}' is not a .S, .s or .c file")
        # confined to the implementation's folder and the files of its primitive's folder itself
        # (shared files; not another implementation's): a source elsewhere is not part of the
        # implementation, and its object would be named after it
        real = (folder / s).resolve()
        if Path(s).is_absolute() or not (real.is_relative_to(folder.resolve())
                                         or real.parent == folder.parent.resolve()):
            raise ManifestError(f"{where}: source '{s}' is outside {folder} and its primitive's folder "
                                f"{folder.parent} (sources are paths relative to the implementation folder; "
                                f"outside it only files of the primitive's folder itself, not another "
                                f"implementation's)")
        if not (folder / s).is_file():
            raise ManifestError(f"{where}: source '{s}' does not exist in {folder}")
    eps = data["entry_points"]
    if not eps or not all(isinstance(e, str) and _IDENT_RE.match(e) for e in eps):
        raise ManifestError(f"{where}: 'entry_points' must be a non-empty list of C identifiers")
    if "cflags" in data and not all(isinstance(c, str) for c in data["cflags"]):
        raise ManifestError(f"{where}: 'cflags' must be a list of strings")
    prim_dir = None
    for root in primitive_roots:
        cand = Path(root) / data["primitive"]
        if (cand / "vectors.py").is_file():
            prim_dir = cand
            break
    if prim_dir is None:
        raise ManifestError(f"{where}: primitive '{data['primitive']}' has no folder with vectors.py "
                            f"(looked in {', '.join(str(Path(r) / data['primitive']) for r in primitive_roots)})")
    for f in ("api.h", "test.c", "speed.c"):
        if not (prim_dir / f).is_file():
            raise ManifestError(f"{where}: primitive folder {prim_dir} lacks {f}")
    return Impl(primitive=data["primitive"], impl=data["impl"], isa=isa, sources=list(data["sources"]),
                entry_points=list(eps), description=data["description"], path=folder,
                primitive_dir=prim_dir, cflags=list(data.get("cflags", ["-O2"])),
                constant_time=data.get("constant_time"), baseline=data.get("baseline"))


def discover(crypto_dirs: list[Path], primitive_roots: list[Path]) -> tuple[list[Impl], list[str]]:
    """All implementations under the given crypto folders: (impls, errors)."""
    impls, errors = [], []
    for d in crypto_dirs:
        for m in sorted(Path(d).glob("*/*/manifest.toml")):
            try:
                impls.append(load_manifest(m, primitive_roots))
            except ManifestError as e:
                errors.append(str(e))
    names = {(i.primitive, i.impl) for i in impls}
    for i in impls:
        if i.baseline is not None and (i.primitive, i.baseline) not in names:
            errors.append(f"{i.path / 'manifest.toml'}: baseline = \"{i.baseline}\" is not an "
                          f"implementation of {i.primitive} (have: "
                          f"{', '.join(sorted(n for p, n in names if p == i.primitive))})")
    return impls, errors

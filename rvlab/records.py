"""Bench records: one measurement of one implementation, as results/bench.json holds them
(docs/interfaces.md §6). `Record` is the one place that knows the format; it checks itself
when made, so a record that exists is a valid one."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path


class RecordError(ValueError):
    """A record or a bench JSON file is not in the format; the message says which and why."""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class Record:
    primitive: str
    impl: str
    isa: str
    core: str                       # e31 | ideal | a core parameter file
    operation: str                  # keyexp, encrypt, hash, mul, ... (interfaces.md §7)
    input_bytes: int
    cycles: int
    instret: int
    cycles_per_byte: float | None
    code_bytes: int                 # the implementation's own .text in the linked ELF
    static_bytes: int               # its .rodata/.data/.bss
    stack_bytes: int | None         # bytes below the caller's sp the call touched
    kat: str                        # "pass" | "fail": the test program on rvsim
    constant_time: bool | None      # the checker's verdict (None: not checked)
    mul_latency: int | None         # multiplier result latency of the run
    constant_time_claimed: bool | None = None     # the manifest's claim
    program_code_bytes: int | None = None         # whole speed program's executable bytes
    dtim_bytes: int | None = None                 # RAM sections + kernel tables + peak stack
    # sweep keys the speed program printed beside the operation (limbs=8, bits=2048, outlen=...)
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.validate()

    @property
    def name(self) -> str:
        return f"{self.primitive}/{self.impl}"

    @property
    def extra_label(self) -> str:
        """The sweep keys as shown beside the operation: ", limbs=8" ('' for none)."""
        return "".join(f", {k}={self.extra[k]}" for k in sorted(self.extra))

    @property
    def merge_key(self) -> tuple:
        """What one bench run of one implementation replaces in bench.json: its records of
        the same core and multiplier latency (a --mul-latency 2 run keeps the latency-5 ones)."""
        return (self.primitive, self.impl, self.core, self.mul_latency)

    @property
    def measurement_key(self) -> tuple:
        """What the record measures (not what it found): implementation, core, multiplier
        latency, operation, input size and sweep keys."""
        return (self.primitive, self.impl, self.core, self.mul_latency, self.operation, self.input_bytes,
                self.extra_label)

    @property
    def sort_key(self) -> tuple:
        """The order of records in bench.json."""
        return (self.primitive, self.impl, self.core, self.mul_latency or 0, self.operation, self.input_bytes)

    def validate(self) -> None:
        where = f"record {self.primitive}/{self.impl} {self.operation}"
        for k in ("primitive", "impl", "isa", "core", "operation"):
            if not isinstance(getattr(self, k), str) or not getattr(self, k):
                raise RecordError(f"record: '{k}' must be a non-empty string")
        for k in ("input_bytes", "cycles", "instret", "code_bytes", "static_bytes"):
            v = getattr(self, k)
            if not _is_int(v) or v < 0:
                raise RecordError(f"record {self.primitive}/{self.impl}: '{k}' must be a non-negative int")
        for k in ("stack_bytes", "program_code_bytes", "dtim_bytes"):
            v = getattr(self, k)
            if v is not None and (not _is_int(v) or v < 0):
                raise RecordError(f"{where}: '{k}' must be a non-negative int or null")
        if self.cycles_per_byte is not None and (not isinstance(self.cycles_per_byte, (int, float))
                                                 or isinstance(self.cycles_per_byte, bool)):
            raise RecordError("record: 'cycles_per_byte' must be a number or null")
        if self.kat not in ("pass", "fail"):
            raise RecordError("record: 'kat' must be \"pass\" or \"fail\"")
        for k in ("constant_time", "constant_time_claimed"):
            if getattr(self, k) not in (True, False, None):
                raise RecordError(f"record: '{k}' must be true, false or null")
        if self.mul_latency is not None and not _is_int(self.mul_latency):
            raise RecordError("record: 'mul_latency' must be an int or null")
        if not isinstance(self.extra, dict) or any(k in FIELDS for k in self.extra):
            raise RecordError(f"{where}: 'extra' must be a dict of keys other than the record's own")

    # ---------------------------------------------------------------- JSON
    @classmethod
    def from_dict(cls, d: dict) -> Record:
        """A record from its JSON object: the required keys must be there, the optional ones
        may be missing (older files), every other key is a sweep key."""
        if not isinstance(d, dict):
            raise RecordError("record: not a JSON object")
        missing = [k for k in REQUIRED if k not in d]
        if missing:
            raise RecordError(f"record {d.get('primitive')}/{d.get('impl')} {d.get('operation')}: missing {missing}")
        known = {k: d[k] for k in FIELDS if k in d and k != "extra"}
        return cls(**known, extra={k: v for k, v in d.items() if k not in FIELDS})

    def to_dict(self) -> dict:
        """The JSON object: the fields in their order, then the sweep keys in theirs."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        d.update(self.extra)
        return d


FIELDS = [f.name for f in fields(Record)]
# the keys every record in a bench file must have (DESIGN.md / interfaces.md §6)
REQUIRED = FIELDS[:FIELDS.index("constant_time_claimed")]
RECORD_KEYS = REQUIRED[:-1]          # ... without mul_latency: the columns of the report tables


def load_records(path: Path) -> list[Record]:
    """A bench JSON file as a list of records (RecordError with the reason if it is not one)."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise RecordError(f"{path} does not exist — run `rvlab bench` first") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not valid JSON: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot read ({e})") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise RecordError(f"{path}: not a list of bench records")
    try:
        return [Record.from_dict(r) for r in data]
    except (RecordError, TypeError) as e:
        raise RecordError(f"{path}: not a list of bench records ({e})") from None


def dump_records(records: list[Record], path: Path) -> None:
    Path(path).write_text(json.dumps([r.to_dict() for r in records], indent=1) + "\n")

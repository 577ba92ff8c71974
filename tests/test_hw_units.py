"""The Verilog instruction units compute what rvsim computes (hw/units/check_units.py)."""
import importlib.util
import sys

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("check_units", ROOT / "hw" / "units" / "check_units.py")
cu = importlib.util.module_from_spec(spec)
sys.modules["check_units"] = cu          # dataclasses look their module up there
spec.loader.exec_module(cu)

UNITS = {u.name: u for u in cu.discover()}


def test_every_custom_instruction_has_a_unit():
    custom = {p.parent.name for p in (ROOT / "ise").glob("*/insn.toml")}
    assert custom <= set(UNITS), f"no unit.v for {sorted(custom - set(UNITS))}"
    assert {"zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh", "zksed", "zksh", "xzbp",
            "zkne_zknd_zksed"} <= set(UNITS)


@pytest.mark.parametrize("name", sorted(UNITS))
def test_unit_matches_rvsim(name):
    assert cu.check(UNITS[name], n_random=300, seed=7) == []


@pytest.mark.parametrize("name,wrong,right", [
    ("addc", "{32'd0, carry_in}", "32'd0"),               # carry-in ignored
    ("sboxaddrw", "{22'd0, x, 2'b00}", "{24'd0, x}"),     # not scaled by 4
    ("zbkb", "a[(i & ~7) | (7 - (i & 7))]", "a[i]"),      # brev8 as identity
    ("zkne", "8'h63", "8'h62"),                           # one S-box entry wrong
    ("zkne_zknd_zksed", "3'd5: u = ks;", "3'd5: u = ed;"),   # sm4ks with sm4ed's linear layer
    ("zkne_zknd_zksed", "4'd2: i4 = 4'd9;", "4'd2: i4 = 4'd8;"),  # shared inverter wrong once
    ("xzbp", "stage(s2, 3, b[3])", "stage(s2, 2, b[3])"),  # unshfl's last stage wrong
    ("zbkx", "b[4*i + 3] ? 4'd0", "1'b0 ? 4'd0"),          # xperm4 index >= 8 not zero
    ("zknh", "(b << 31) ^ (b << 24);", "(b << 31) ^ (b << 25);"),  # sha512sig0h as sig0l
])
def test_a_wrong_unit_is_caught(tmp_path, name, wrong, right):
    unit = UNITS[name]
    src = unit.verilog.read_text()
    assert wrong in src
    broken = tmp_path / unit.verilog.name
    broken.write_text(src.replace(wrong, right, 1))
    bad = cu.check(cu.Unit(unit.name, broken, unit.top, unit.ops, unit.form), n_random=50)
    assert bad and "rvsim y=" in bad[0]


def test_missing_ops_line_is_a_clear_error(tmp_path):
    (tmp_path / "ise").mkdir()
    (tmp_path / "hw" / "units").mkdir(parents=True)
    (tmp_path / "hw" / "units" / "zfoo_unit.v").write_text("module zfoo_unit; endmodule\n")
    with pytest.raises(cu.CheckError, match="no `// ops: name ...` line"):
        cu.discover(tmp_path)

"""`rvlab area`: the Yosys flow counts gates right, and the report covers every unit."""
import json

import pytest

from conftest import ROOT, rvlab
from rvlab import area


@pytest.mark.parametrize("body,transistors", [
    ("assign y = ~(a & b);", 4),        # one NAND2 = 1 GE
    ("assign y = ~a;", 2),              # one inverter
    ("assign y = a;", 0),               # a wire costs nothing
])
def test_gate_counts_of_known_circuits(tmp_path, body, transistors):
    v = tmp_path / "g.v"
    v.write_text(f"module g(input a, b, output y); {body} endmodule\n")
    a = area.synthesise(area.Unit("g", "x", v, "g"))
    assert a.transistors == transistors and a.ge == transistors / 4


def test_flip_flops_with_reset_and_enable_are_counted(tmp_path):
    v = tmp_path / "r.v"
    v.write_text("module r(input clk, rst, en, input [7:0] d, output reg [7:0] q);\n"
                 "always @(posedge clk) if (rst) q <= 0; else if (en) q <= d; endmodule\n")
    a = area.synthesise(area.Unit("r", "x", v, "r"))
    assert a.flip_flops == 8 and a.transistors > 8 * 16      # 16 per flip-flop, plus the muxes


def test_bad_verilog_is_a_clear_error(tmp_path):
    v = tmp_path / "bad.v"
    v.write_text("module bad(input a, output y); assign y = ; endmodule\n")
    with pytest.raises(area.AreaError, match="bad: yosys failed on"):
        area.synthesise(area.Unit("bad", "x", v, "bad"))


def test_area_report_covers_every_unit_and_the_core(tmp_path):
    p = rvlab("area", "--out", tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "area.json").read_text())
    names = {u["name"] for u in data["units"]}
    assert {"addc", "subc", "sboxaddr", "sboxaddrw", "srliandi", "sllior", "muladd",
            "andbnexadd", "zbkb", "zbkc", "zkne", "zknd"} <= names
    assert data["core"] and data["core"]["flip_flops"] >= 31 * 32      # x1..x31 at least
    units = {u["name"]: u for u in data["units"]}
    # a carry-less 32x32 multiplier is far bigger than a 32-bit adder with carry
    assert units["zbkc"]["ge"] > 5 * units["addc"]["ge"] > 0
    rows = {(r["primitive"], r["impl"], r["operation"]): r for r in data["speedups"]}
    carry = rows[("bigint-add", "carry", "add")]
    assert carry["baseline"] == "full" and carry["extensions"] == ["xcarry"]
    assert carry["units"] == ["addc"]                 # the only xcarry instruction its sources use
    assert carry["relative_area"] == pytest.approx(units["addc"]["ge"] / data["core"]["ge"])
    kara = rows[("bigint-mul", "karatsuba-carry", "mul")]
    assert kara["units"] == ["addc", "subc"]          # found through the sources' #include
    assert rows[("polymul-128", "zbkc", "mul")]["units"] == ["zbkc"]
    md = (tmp_path / "area.md").read_text()
    assert "| `addc` | xcarry |" in md and "bigint-add/carry | full | add | addc |" in md
    assert "| hw-sbox-address | custom |" in md and "| sboxaddrw |" in md      # seed 003's figure beside ours
    assert (tmp_path / "area-speedup.png").stat().st_size > 0

"""`rvlab area`: the Yosys flow counts gates right, and the report covers every unit."""
import json

import pytest

from conftest import rvlab
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


def test_standard_cell_library_gives_um2_ge_and_delay(tmp_path):
    assert area.LIBERTY.is_file(), "qflow-tech-osu018 not installed: run `make setup`"
    nand = area.lib_nand2_area()
    v = tmp_path / "g.v"
    v.write_text("module g(input a, b, output y); assign y = ~(a & b); endmodule\n")
    a = area.synthesise(area.Unit("g", "x", v, "g"), liberty=area.LIBERTY)
    assert a.lib_um2 == nand and a.lib_ge == 1 and a.delay_ns > 0      # one NAND2X1 cell
    x = area.synthesise(area.Unit("zbkx", "zbkx", area.ROOT / "hw" / "units" / "zbkx_unit.v", "zbkx_unit"),
                        liberty=area.LIBERTY)
    assert 0.3 < x.lib_ge / x.ge < 3 and x.delay_ns > 0.1


def test_seed_module_keeps_only_its_instructions():
    """Logic-with-negate built from zbkb restricted to andn/orn/xnor is far smaller than zbkb."""
    parts = dict((n, p) for n, _, p in area.SEED_GROUPS)
    lwn = area.synthesise(area.group_unit("Logic With Negate", parts["Logic With Negate"]))
    zbkb = area.synthesise(area.Unit("zbkb", "zbkb", area.ROOT / "hw" / "units" / "zbkb_unit.v", "zbkb_unit"))
    assert 0 < lwn.ge < zbkb.ge / 4
    assert area.seed_module_of("xperm4") == "Crossbar Permutation" and area.seed_module_of("grevi") == "Bit Re-positioning"


def test_area_report_covers_every_unit_and_the_core(tmp_path):
    # the seed's RV32I configuration of the 5-stage core only (the others take minutes each)
    p = rvlab("area", "--out", tmp_path, "--cores", "rv32i", "--liberty", "none", timeout=1200)
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "area.json").read_text())
    names = {u["name"] for u in data["units"]}
    assert {"addc", "subc", "sboxaddr", "sboxaddrw", "srliandi", "sllior", "muladd",
            "andbnexadd", "zbkb", "zbkc", "zkne", "zknd"} <= names
    assert data["core"] and data["core"]["flip_flops"] >= 31 * 32      # x1..x31 at least
    assert data["core"]["name"] == "rv32i" and data["core"]["verilog"] == "hw/core/rv5_core.v"
    # pipeline registers: the 5-stage core has far more flip-flops than the single-cycle one
    assert data["core"]["flip_flops"] > data["single_cycle_core"]["flip_flops"] + 200
    t20 = {(r["primitive"], r["impl"]): r for r in data["table20"]}
    assert set(t20[("aes128", "zkne")]["insns"]) == {"aes32esi", "aes32esmi"}
    assert t20[("aes128", "zkne")]["groups"] == ["AES and SM4"]
    assert {"Carry-Less Multiply"} == set(t20[("polymul-128", "zbkc")]["groups"])
    assert len(data["seed003_modules"]) == 7
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
    assert "| Address Calculation | 220 | `sboxaddrw` |" in md                  # seed 003's figure beside ours
    assert "## Seed 003 Table 19" in md and "## Seed 003 Table 20" in md and "## Seed 003 Table 21" in md
    assert (tmp_path / "area-speedup.png").stat().st_size > 0


def test_custom_extension_on_an_m_isa_costs_what_the_core_with_m_grew_by():
    # muladd's unit has its own multiplier; on an ISA with M it shares M's, so lut-x (rv32im)
    # is charged the measured growth of the core with M, ct-x (rv32i) the sum of its units
    from rvlab.records import load_records
    data = json.loads((area.ROOT / "results" / "area.json").read_text())
    unit_ge = {u["name"]: u["ge"] for u in data["units"]}
    ext_of = {u["name"]: u["ext"] for u in data["units"]}
    records = load_records(area.ROOT / "results" / "bench.json")
    rows = {(r["primitive"], r["impl"]): r
            for r in area.speedups(records, unit_ge, ext_of, 20000.0, in_m_core={"xpolymul": 5000.0})}
    lut = rows[("polymul-128", "lut-x")]
    assert lut["ext_ge"] == 5000.0 and lut["ext_ge_in_m_core"] and lut["relative_area"] == 0.25
    ct = rows[("polymul-128", "ct-x")]
    assert not ct["ext_ge_in_m_core"]
    assert ct["ext_ge"] == pytest.approx(unit_ge["andbnexadd"] + unit_ge["sllior"])

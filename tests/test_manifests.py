"""Manifests: every shipped one parses; malformed ones get a clear message."""
import pytest

from conftest import ROOT, rvlab
from rvlab.manifest import ManifestError, discover, load_manifest

ROOTS = [ROOT / "crypto"]


def test_all_shipped_manifests_parse():
    impls, errors = discover([ROOT / "crypto"], ROOTS)
    assert errors == [], "\n".join(errors)
    names = {i.name for i in impls}
    assert {"aes128/ref", "chacha20/ref"} <= names
    for i in impls:
        assert i.path.name == i.impl and i.path.parent.name == i.primitive


def test_ref_manifest_fields():
    m = load_manifest(ROOT / "crypto" / "chacha20" / "ref" / "manifest.toml", ROOTS)
    assert m.isa == "rv32imc" and m.entry_points == ["chacha20_xor"] and m.cflags == ["-O2"]
    assert m.march == "rv32imc_zicsr" and m.run_isa == "rv32imac"


def test_isa_derivations(tmp_path):
    d = tmp_path / "chacha20" / "x"
    d.mkdir(parents=True)
    (d / "k.S").write_text("")
    (d / "manifest.toml").write_text('primitive="chacha20"\nimpl="x"\nisa="rv32i_zbkb_xcarry"\n'
                                     'sources=["k.S"]\nentry_points=["chacha20_xor"]\ndescription="d"\n')
    m = load_manifest(d / "manifest.toml", ROOTS)
    assert m.march == "rv32i_zbkb_zicsr"          # custom x* dropped from -march
    assert m.run_isa == "rv32imac_zbkb_xcarry"
    assert m.custom_extensions == ["xcarry"]


GOOD = {"primitive": '"chacha20"', "impl": '"m"', "isa": '"rv32i"', "sources": '["k.S"]',
        "entry_points": '["chacha20_xor"]', "description": '"d"'}


def _write(tmp_path, fields, raw=None, folder="m", parent="chacha20"):
    d = tmp_path / parent / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "k.S").write_text("")
    (d / "manifest.toml").write_text(raw if raw is not None else
                                     "".join(f"{k} = {v}\n" for k, v in fields.items()))
    return d / "manifest.toml"


@pytest.mark.parametrize("change,message", [
    ({"isa": None}, "missing required key 'isa'"),
    ({"entry_points": None}, "missing required key 'entry_points'"),
    ({"sources": '"k.S"'}, "'sources' must be a list"),
    ({"impl": '"other"'}, "impl = \"other\" but the folder is 'm'"),
    ({"primitive": '"aes128"'}, "primitive = \"aes128\" but the parent folder is 'chacha20'"),
    ({"isa": '"riscv32"'}, "is not an ISA string"),
    ({"isa": '"rv32e"'}, "base must be rv32i"),
    ({"isa": '"rv32gc"'}, "base must be rv32i"),
    ({"sources": '["missing.S"]'}, "source 'missing.S' does not exist"),
    ({"sources": '["k.txt"]'}, "is not a .S, .s or .c file"),
    ({"entry_points": '["not an identifier"]'}, "C identifiers"),
    ({"cflags": '"-O2"'}, "'cflags' must be a list"),
    ({"constant_time": '"yes"'}, "'constant_time' must be a bool"),
    ({"baseline": "3"}, "'baseline' must be a str"),
])
def test_malformed_manifest_messages(tmp_path, change, message):
    fields = dict(GOOD)
    for k, v in change.items():
        if v is None:
            del fields[k]
        else:
            fields[k] = v
    path = _write(tmp_path, fields)
    with pytest.raises(ManifestError) as e:
        load_manifest(path, ROOTS)
    assert message in str(e.value)
    assert str(path) in str(e.value)          # the message names the file


def test_invalid_toml(tmp_path):
    path = _write(tmp_path, None, raw='primitive = "chacha20\nimpl = 3\n')
    with pytest.raises(ManifestError, match="not valid TOML"):
        load_manifest(path, ROOTS)


def test_unknown_primitive(tmp_path):
    fields = dict(GOOD, primitive='"nosuchprim"')
    path = _write(tmp_path, fields, parent="nosuchprim")
    with pytest.raises(ManifestError, match="primitive 'nosuchprim' has no folder with vectors.py"):
        load_manifest(path, ROOTS)


def test_cli_reports_malformed_manifest(tmp_path):
    _write(tmp_path, {k: v for k, v in GOOD.items() if k != "entry_points"})
    p = rvlab("test", "--crypto-dir", tmp_path, "--runner", "qemu")
    assert p.returncode != 0
    assert "FAIL manifest:" in p.stdout and "missing required key 'entry_points'" in p.stdout
    assert "Traceback" not in p.stdout + p.stderr


def test_cli_bad_filter_and_no_match():
    p = rvlab("test", "--filter", "(", "--runner", "qemu")
    assert p.returncode != 0 and "not a regular expression" in p.stdout + p.stderr
    p = rvlab("build", "--filter", "^no/such$")
    assert p.returncode == 1 and "no implementation matches" in p.stderr


def test_select_reported_is_the_one_preamble(tmp_path, capsys):
    """build/test/bench (for_each_impl), lib and rtl select and report through one helper:
    each selected manifest's error printed once, "no implementation matches" by the command's
    rule (a broken manifest is something for build/test/bench to fail, nothing for lib to
    build; rtl's --filter picks its programs afterwards)."""
    from types import SimpleNamespace
    from rvlab.driver import select_reported
    _write(tmp_path, {k: v for k, v in GOOD.items() if k != "entry_points"})
    args = SimpleNamespace(crypto_dir=[tmp_path], filter="chacha20")
    for none, want in [("matched", "some"), ("working", None), (None, "some")]:
        got = select_reported(args, none)
        out = capsys.readouterr()
        assert out.out.count("FAIL manifest:") == 1, (none, out)
        assert (got is None) == (want is None) and ("no implementation matches" in out.err) == (want is None), none
        if got is not None:
            assert got[0] == [] and len(got[1]) == 1
    args.filter = "^no/such$"
    assert select_reported(args) is None and select_reported(args, "working") is None
    assert select_reported(args, None) == ([], [])


def test_baseline_must_name_an_implementation_of_the_primitive(tmp_path):
    _write(tmp_path, dict(GOOD, baseline='"nosuch"'))
    _, errors = discover([tmp_path], ROOTS)
    assert len(errors) == 1 and 'baseline = "nosuch" is not an implementation of chacha20 (have: m)' in errors[0]
    _write(tmp_path, dict(GOOD, impl='"n"', baseline='"m"'), folder="n")
    impls, errors = discover([tmp_path], ROOTS)
    assert any(i.impl == "n" and i.baseline == "m" for i in impls)


@pytest.mark.parametrize("source", ["../../elsewhere/x.S", "../../../../../../tmp/x.S", "/etc/x.S", "link.S",
                                    "../other/x.S"])
def test_sources_outside_the_implementation_and_its_primitive_are_refused(tmp_path, source):
    """Issue 22: a manifest's sources may not reach outside the implementation folder and its
    primitive's (shared files, not another implementation's folder); a symbolic link out of it
    counts as outside."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.S").write_text("")
    path = _write(tmp_path, dict(GOOD, sources=f'["{source}"]'))
    (path.parent.parent / "other").mkdir()
    (path.parent.parent / "other" / "x.S").write_text("")
    (path.parent / "link.S").symlink_to(tmp_path / "elsewhere" / "x.S")
    with pytest.raises(ManifestError, match="is outside .* and its primitive's folder"):
        load_manifest(path, ROOTS)


def test_a_shared_source_of_the_primitive_builds_inside_build(tmp_path):
    """A source in the primitive's folder (shared by its implementations) is allowed; its object
    is written inside the implementation's build folder, as every build product is."""
    from rvlab import build as B
    d = tmp_path / "chacha20"
    _write(tmp_path, dict(GOOD, sources='["k.S", "../shared.S"]'))
    (d / "shared.S").write_text(".text\n.globl chacha20_xor\nchacha20_xor: ret\n")
    impl = load_manifest(d / "m" / "manifest.toml", ROOTS)
    objs = B.kernel_objects(impl)
    bd = B.impl_build_dir(impl).resolve()
    assert [o.resolve().relative_to(bd).as_posix() for o in objs] == ["kernel/k.S.o", "kernel/primitive/shared.S.o"]
    assert all(o.resolve().is_relative_to(B.BUILD.resolve()) for o in objs)
    assert not list(d.glob("*.o")) and not list((d / "m").glob("*.o"))

//! Build script: compiles the custom instructions of `ise/*/` into rvsim's extension table.
//!
//! For every folder `ise/<name>/` holding an `insn.toml`:
//!   * reads and checks `insn.toml` (see ise/README.md for the keys),
//!   * wraps `semantics.rs` (which defines `pub fn exec(&mut ExtState, u32, u32, u32) -> u32`)
//!     in a module `ise_<name>` ($OUT_DIR/ise_semantics.rs),
//!   * emits one `ExtInsn` row per instruction after the standard rows ($OUT_DIR/ise_table.rs),
//!   * writes `ise/<name>/macro.inc` if the folder has none (a default `.insn` macro),
//!   * rewrites `ise/ise.inc` (one `#include` per folder) when it is out of date.
//! Errors (missing keys, bad values, encodings that overlap another custom instruction, a
//! missing semantics.rs) stop the build with a message naming the file.
//! No dependencies: insn.toml is read with the small TOML subset parser below
//! (key = "string" | """multi-line string""" | integer | true/false, # comments).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
enum Val { Str(String), Int(i64), Bool(bool) }

fn parse_toml(text: &str, file: &Path) -> Result<BTreeMap<String, Val>, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines().enumerate();
    while let Some((ln, raw)) = lines.next() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') { continue; }
        let err = |m: &str| format!("{}:{}: {}", file.display(), ln + 1, m);
        let (k, v) = line.split_once('=').ok_or_else(|| err("expected `key = value`"))?;
        let key = k.trim().to_string();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(err(&format!("bad key `{}` (tables and dotted keys are not supported)", k.trim())));
        }
        let v = v.trim();
        let val = if let Some(rest) = v.strip_prefix("\"\"\"") {
            // multi-line basic string (no escapes needed in our files; \ sequences kept verbatim)
            let mut s = String::new();
            let mut cur = rest.to_string();
            loop {
                if let Some(end) = cur.find("\"\"\"") {
                    s.push_str(&cur[..end]);
                    let tail = cur[end + 3..].trim();
                    if !tail.is_empty() && !tail.starts_with('#') { return Err(err("text after closing \"\"\"")); }
                    break;
                }
                s.push_str(&cur);
                s.push('\n');
                match lines.next() {
                    Some((_, l)) => cur = l.to_string(),
                    None => return Err(err("unterminated \"\"\" string")),
                }
            }
            Val::Str(s.trim_start_matches('\n').to_string())
        } else if let Some(rest) = v.strip_prefix('"') {
            let mut s = String::new();
            let mut chars = rest.chars();
            let mut closed = false;
            while let Some(c) = chars.next() {
                match c {
                    '"' => { closed = true; break; }
                    '\\' => match chars.next() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('"') => s.push('"'),
                        Some('\\') => s.push('\\'),
                        other => return Err(err(&format!("unsupported escape \\{}", other.unwrap_or(' ')))),
                    },
                    c => s.push(c),
                }
            }
            if !closed { return Err(err("unterminated string")); }
            let tail: String = chars.collect();
            let tail = tail.trim();
            if !tail.is_empty() && !tail.starts_with('#') { return Err(err("text after string")); }
            Val::Str(s)
        } else {
            let tok = v.split('#').next().unwrap().trim().replace('_', "");
            if tok == "true" { Val::Bool(true) } else if tok == "false" { Val::Bool(false) }
            else if let Some(h) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
                Val::Int(i64::from_str_radix(h, 16).map_err(|_| err(&format!("bad hex integer `{tok}`")))?)
            } else if let Some(b) = tok.strip_prefix("0b") {
                Val::Int(i64::from_str_radix(b, 2).map_err(|_| err(&format!("bad binary integer `{tok}`")))?)
            } else {
                Val::Int(tok.parse().map_err(|_| err(&format!("bad value `{v}` (string, integer or boolean expected)")))?)
            }
        };
        if out.insert(key.clone(), val).is_some() { return Err(err(&format!("duplicate key `{key}`"))); }
    }
    Ok(out)
}

const KEYS: &[&str] = &["name", "ext", "opcode", "funct3", "funct7", "funct5", "funct2", "funct12",
    "form", "latency", "seed", "description", "mask", "matches", "assembler", "semantics",
    "uses_multiplier", "taint", "state", "rtl"];

struct Insn {
    name: String, ext: String, form: String, mask: u32, matches: u32, latency: u8,
    opcode: u32, funct3: u32, field: Option<(String, u32)>,
    uses_multiplier: bool, taint: String, state: String, dir: PathBuf,
}

fn get_str(m: &BTreeMap<String, Val>, k: &str, f: &Path) -> Result<Option<String>, String> {
    match m.get(k) {
        None => Ok(None),
        Some(Val::Str(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{}: `{k}` must be a string", f.display())),
    }
}
fn get_int(m: &BTreeMap<String, Val>, k: &str, f: &Path, max: i64) -> Result<Option<u32>, String> {
    match m.get(k) {
        None => Ok(None),
        Some(Val::Int(i)) if *i >= 0 && *i <= max => Ok(Some(*i as u32)),
        Some(Val::Int(i)) => Err(format!("{}: `{k}` = {i} is out of range 0..={max}", f.display())),
        Some(_) => Err(format!("{}: `{k}` must be an integer", f.display())),
    }
}

fn load(dir: &Path) -> Result<Insn, String> {
    let f = dir.join("insn.toml");
    let text = fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
    let m = parse_toml(&text, &f)?;
    // Unknown keys only warn (a documentation key added by another tool must not break the
    // simulator build for everyone); a misspelt *required* key still fails below.
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            println!("cargo:warning={}: unknown key `{k}` ignored (known: {})", f.display(), KEYS.join(", "));
        }
    }
    let need = |k: &str| format!("{}: missing key `{k}`", f.display());
    let name = get_str(&m, "name", &f)?.ok_or_else(|| need("name"))?;
    let folder = dir.file_name().unwrap().to_string_lossy().to_string();
    if name != folder {
        return Err(format!("{}: name `{name}` must equal the folder name `{folder}`", f.display()));
    }
    if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(format!("{}: name `{name}` must be lower case letters, digits, `_` or `.`", f.display()));
    }
    let ext = get_str(&m, "ext", &f)?.ok_or_else(|| need("ext"))?;
    if !ext.starts_with('x') || ext.len() < 2 || !ext.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        return Err(format!("{}: ext `{ext}` must be `x` followed by lower-case letters/digits (a vendor extension name)", f.display()));
    }
    if ext == "xzbp" { return Err(format!("{}: ext `xzbp` is reserved for the draft bitmanip instructions", f.display())); }
    let opcode = match m.get("opcode") {
        Some(Val::Str(s)) => match s.as_str() {
            "custom-0" => 0x0b, "custom-1" => 0x2b, "custom-2" => 0x5b, "custom-3" => 0x7b,
            _ => return Err(format!("{}: opcode `{s}` must be custom-0, custom-1, custom-2 or custom-3", f.display())),
        },
        Some(Val::Int(i)) if [0x0b, 0x2b, 0x5b, 0x7b].contains(i) => *i as u32,
        Some(_) => return Err(format!("{}: opcode must be \"custom-0\"..\"custom-3\" (or 0x0b/0x2b/0x5b/0x7b)", f.display())),
        None => return Err(need("opcode")),
    };
    let funct3 = get_int(&m, "funct3", &f, 7)?.ok_or_else(|| need("funct3"))?;
    let form = get_str(&m, "form", &f)?.ok_or_else(|| need("form"))?;
    // (field name, width, shift, mask bits it fixes)
    let (field, dmask): (Option<(&str, i64, u32)>, u32) = match form.as_str() {
        "R" | "RdAcc" => (Some(("funct7", 0x7f, 25)), 0xfe00_707f),
        "Bs" => (Some(("funct5", 0x1f, 25)), 0x3e00_707f),
        "R4" => (Some(("funct2", 0x3, 25)), 0x0600_707f),
        "Unary" => (Some(("funct12", 0xfff, 20)), 0xfff0_707f),
        "Imm" | "RdAccImm" => (None, 0x0000_707f),
        _ => return Err(format!("{}: form `{form}` must be one of R, Unary, Imm, Bs, R4, RdAcc, RdAccImm", f.display())),
    };
    let mut dmatch = opcode | (funct3 << 12);
    let mut fieldv = None;
    for other in ["funct7", "funct5", "funct2", "funct12"] {
        if m.contains_key(other) && field.map(|x| x.0) != Some(other) {
            return Err(format!("{}: `{other}` does not apply to form {form}", f.display()));
        }
    }
    if let Some((fname, max, shift)) = field {
        let v = get_int(&m, fname, &f, max)?.ok_or_else(|| need(fname))?;
        dmatch |= v << shift;
        fieldv = Some((fname.to_string(), v));
    }
    let (mask, matches) = match (get_int(&m, "mask", &f, 0xffff_ffff)?, get_int(&m, "matches", &f, 0xffff_ffff)?) {
        (None, None) => (dmask, dmatch),
        (Some(mk), Some(mt)) => {
            if mk & dmask != dmask || mt & dmask != dmatch || mt & !mk != 0 {
                return Err(format!("{}: mask {mk:#010x} / matches {mt:#010x} disagree with opcode/funct fields \
                    (they imply mask {dmask:#010x}, matches {dmatch:#010x}; an explicit mask may only fix more bits)", f.display()));
            }
            (mk, mt)
        }
        _ => return Err(format!("{}: give both `mask` and `matches`, or neither", f.display())),
    };
    let latency = get_int(&m, "latency", &f, 255)?.ok_or_else(|| need("latency"))?;
    if latency == 0 { return Err(format!("{}: latency must be >= 1", f.display())); }
    // documentation for people (ise/README.md): required, or a string, but not compiled in
    get_str(&m, "description", &f)?.ok_or_else(|| need("description"))?;
    get_str(&m, "seed", &f)?;
    let uses_multiplier = match m.get("uses_multiplier") {
        None => false, Some(Val::Bool(b)) => *b,
        Some(_) => return Err(format!("{}: uses_multiplier must be true or false", f.display())),
    };
    // secrecy flow for the constant-time checker (sim/src/ct.rs): how output bytes depend on
    // input bytes; "mix" (any secret input byte makes every output byte secret) is always sound
    let taint = match get_str(&m, "taint", &f)?.as_deref() {
        None | Some("mix") => "Mix", Some("bytewise") => "Bytewise", Some("carry") => "Carry",
        Some(o) => return Err(format!("{}: taint = \"{o}\": must be \"mix\", \"bytewise\" or \"carry\"", f.display())),
    }.to_string();
    // custom architectural state the instruction reads and writes (a field of ExtState)
    let state = match get_str(&m, "state", &f)?.as_deref() {
        None => "None", Some("carry") => "Some(StateVar::Carry)",
        Some(o) => return Err(format!("{}: state = \"{o}\": the custom state rvsim has is \"carry\" (ExtState; adding one is a change of docs/interfaces.md §2)", f.display())),
    }.to_string();
    let sem = dir.join("semantics.rs");
    let st = fs::read_to_string(&sem).map_err(|e| format!("{}: {e} (every instruction needs its semantics.rs)", sem.display()))?;
    if !st.contains("fn exec") {
        return Err(format!("{}: must define `pub fn exec(st: &mut ExtState, a: u32, b: u32, c: u32) -> u32`", sem.display()));
    }
    Ok(Insn { name, ext, form, mask, matches, latency: latency as u8, opcode, funct3, field: fieldv,
              uses_multiplier, taint, state, dir: dir.to_path_buf() })
}

fn default_macro(i: &Insn) -> String {
    let op = i.opcode;
    let f3 = i.funct3;
    let fv = i.field.as_ref().map(|x| x.1).unwrap_or(0);
    let (args, body) = match i.form.as_str() {
        "R" | "RdAcc" => ("rd, rs1, rs2", format!(".insn r {op:#04x}, {f3}, {fv}, \\rd, \\rs1, \\rs2")),
        "Bs" => ("rd, rs1, rs2, bs", format!(".if (\\bs) < 0 || (\\bs) > 3\n  .error \"{}: bs must be 0..3\"\n  .endif\n  .insn r {op:#04x}, {f3}, ((\\bs) << 5) | {fv}, \\rd, \\rs1, \\rs2", i.name)),
        "R4" => ("rd, rs1, rs2, rs3", format!(".insn r4 {op:#04x}, {f3}, {fv}, \\rd, \\rs1, \\rs2, \\rs3")),
        "Unary" => ("rd, rs1", format!(".insn i {op:#04x}, {f3}, \\rd, \\rs1, {}", ((fv as i32) << 20) >> 20)),
        _ => ("rd, rs1, imm", format!(".if (\\imm) < 0 || (\\imm) > 4095\n  .error \"{}: imm must be 0..4095\"\n  .endif\n  .insn i {op:#04x}, {f3}, \\rd, \\rs1, (((\\imm) ^ 0x800) - 0x800)", i.name)),
    };
    format!("/* {name} {args} -- {ext} (generated default by sim/build.rs from insn.toml; edit freely) */\n\
             .macro {name} {args}\n  {body}\n.endm\n", name = i.name, ext = i.ext)
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let ise = manifest.parent().unwrap().join("ise");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", ise.display());

    let mut insns = Vec::new();
    let mut errors = Vec::new();
    if let Ok(rd) = fs::read_dir(&ise) {
        let mut dirs: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path())
            .filter(|p| p.is_dir() && p.join("insn.toml").is_file()).collect();
        dirs.sort();
        for d in dirs {
            for f in ["insn.toml", "semantics.rs", "macro.inc"] {
                println!("cargo:rerun-if-changed={}", d.join(f).display());
            }
            match load(&d) { Ok(i) => insns.push(i), Err(e) => errors.push(e) }
        }
    }
    // Encodings of custom instructions must not overlap each other (they may all be enabled).
    for (x, a) in insns.iter().enumerate() {
        for b in &insns[x + 1..] {
            if (a.matches ^ b.matches) & a.mask & b.mask == 0 {
                errors.push(format!("ise/{}/insn.toml and ise/{}/insn.toml: encodings overlap \
                    (mask {:#010x} match {:#010x} vs mask {:#010x} match {:#010x})",
                    a.name, b.name, a.mask, a.matches, b.mask, b.matches));
            }
        }
    }
    if !errors.is_empty() {
        for e in &errors { eprintln!("error: {e}"); println!("cargo:warning={e}"); }
        panic!("invalid custom-instruction definitions in ise/ (see the messages above)");
    }

    let mut sem = String::from("// @generated by sim/build.rs from ise/*/semantics.rs\n");
    let mut tab = String::from("// @generated by sim/build.rs from ise/*/insn.toml\next_table!(\n");
    for i in &insns {
        let modname = format!("ise_{}", i.name.replace('.', "_"));
        let path = i.dir.join("semantics.rs");
        writeln!(sem, "#[allow(unused_imports, clippy::all)]\npub mod {modname} {{\n    use crate::ext::ExtState;\n    include!({:?});\n}}", path.display().to_string()).unwrap();
        writeln!(tab, "    ExtInsn {{ name: {:?}, ext: {:?}, mask: {:#010x}, matches: {:#010x}, form: ExtForm::{}, exec: {modname}::exec, \
                       latency: {}, uses_multiplier: {}, taint: TaintFlow::{}, state: {} }},",
                 i.name, i.ext, i.mask, i.matches, i.form, i.latency, i.uses_multiplier, i.taint, i.state).unwrap();
    }
    tab.push_str(")\n");
    fs::write(out.join("ise_semantics.rs"), sem).unwrap();
    fs::write(out.join("ise_table.rs"), tab).unwrap();

    // Assembler side: default macro.inc where missing, and ise/ise.inc including them all.
    let mut inc = String::from("/* ise.inc -- assembler macros of every custom instruction (one ise/<name>/macro.inc each).\n\
        * @generated by sim/build.rs, one line per folder; kernels: #include \"ise.inc\" */\n\
        #ifndef RVLAB_ISE_INC\n#define RVLAB_ISE_INC\n");
    for i in &insns {
        let mpath = i.dir.join("macro.inc");
        if !mpath.exists() {
            if let Err(e) = fs::write(&mpath, default_macro(i)) {
                println!("cargo:warning=could not write {}: {e}", mpath.display());
            }
        }
        writeln!(inc, "#include \"{}/macro.inc\"", i.name).unwrap();
    }
    inc.push_str("#endif\n");
    let inc_path = ise.join("ise.inc");
    if ise.is_dir() && fs::read_to_string(&inc_path).ok().as_deref() != Some(inc.as_str()) {
        if let Err(e) = fs::write(&inc_path, &inc) {
            println!("cargo:warning=could not write {}: {e}", inc_path.display());
        }
    }
}

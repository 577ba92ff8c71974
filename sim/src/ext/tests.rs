//! Table-level tests: encodings, overlaps, operand extraction, custom instructions.
use super::*;

fn values() -> Vec<u32> {
    let mut v = vec![0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x1234_5678, 0xdead_beef, 0x80, 0xff00];
    let mut s = 0x1357_9bdfu32;
    for _ in 0..64 { s ^= s << 13; s ^= s >> 17; s ^= s << 5; v.push(s); }
    v
}

#[test]
fn rows_are_well_formed() {
    for e in EXT_INSNS {
        assert_eq!(e.matches & !e.mask, 0, "{e:?}: match bits outside mask");
        assert_eq!(e.mask & 0x7f, 0x7f, "{e:?}: opcode must be fixed");
        assert_eq!(e.mask & 0x7000, 0x7000, "{e:?}: funct3 must be fixed");
        assert_eq!(e.matches & 3, 3, "{e:?}: 32-bit encodings only");
        assert!(e.latency >= 1);
        assert!(!e.name.is_empty() && (e.ext.starts_with('z') || e.ext.starts_with('x')));
    }
}

/// Two rows overlap if some word matches both. Overlaps are allowed only between rows of
/// different extensions that compute the same function on the overlap (the decoder takes the
/// first enabled row); within one extension no two rows may overlap.
#[test]
fn overlaps_agree() {
    let vals = values();
    let mut n = 0;
    for (i, x) in EXT_INSNS.iter().enumerate() {
        for y in &EXT_INSNS[i + 1..] {
            if (x.matches ^ y.matches) & x.mask & y.mask != 0 { continue; }
            n += 1;
            assert_ne!(x.ext, y.ext, "{x:?} and {y:?} overlap within one extension");
            // a word in the overlap with random register fields
            let word = x.matches | y.matches | (0b01010 << 7) | (0b01011 << 15);
            let word = if (x.mask | y.mask) & (31 << 20) == 0 { word | (0b01100 << 20) } else { word };
            assert!(x.matches_word(word) && y.matches_word(word));
            for &a in &vals {
                for &b in vals.iter().step_by(7) {
                    let regs = |r: u32| match r { 11 => a, 12 => b, 10 => 0x5a5a_5a5a, _ => 0 };
                    let (xa, xb, xc) = x.operands(word, regs);
                    let (ya, yb, yc) = y.operands(word, regs);
                    let mut s1 = ExtState::default();
                    let mut s2 = ExtState::default();
                    assert_eq!((x.exec)(&mut s1, xa, xb, xc), (y.exec)(&mut s2, ya, yb, yc),
                               "{x:?} vs {y:?} on {a:#x} {b:#x}");
                }
            }
        }
    }
    assert!(n >= 15, "expected the shared Zbb/Zbkb/Zbc/Zbkc/xzbp rows, found {n} overlaps");
}

#[test]
fn lookup_depends_on_enabled_extensions() {
    let rev8 = 0x6985_5513; // rev8 a0, a0
    let on = |list: &'static [&'static str]| move |e: &str| list.contains(&e);
    assert_eq!(lookup(rev8, on(&["zbb"])).unwrap().name, "rev8");
    assert_eq!(lookup(rev8, on(&["zbkb"])).unwrap().ext, "zbkb");
    assert_eq!(lookup(rev8, on(&["xzbp"])).unwrap().name, "grevi");
    assert_eq!(lookup(rev8, on(&["zbb", "xzbp"])).unwrap().name, "rev8");
    assert!(lookup(rev8, on(&["zba", "zbs"])).is_none());
    // grevi with another immediate: only xzbp
    let grevi3 = 0x6835_5513;
    assert!(lookup(grevi3, on(&["zbb", "zbkb"])).is_none());
    assert_eq!(lookup(grevi3, on(&["xzbp"])).unwrap().name, "grevi");
    // zip = shfli 15; shfli with shamt[4] set is reserved on RV32
    let zip = 0x08f5_1513;
    assert_eq!(lookup(zip, on(&["zbkb"])).unwrap().name, "zip");
    assert_eq!(lookup(zip, on(&["xzbp"])).unwrap().name, "shfli");
    assert!(lookup(0x09f5_1513, on(&["xzbp", "zbkb"])).is_none());
    // zext.h vs pack rd, rs1, x0
    let zexth = 0x0805_4533;
    assert_eq!(lookup(zexth, on(&["zbb", "zbkb"])).unwrap().name, "zext.h");
    assert_eq!(lookup(zexth, on(&["zbkb"])).unwrap().name, "pack");
    let msg = missing_ext_message(rev8).unwrap();
    assert!(msg.contains("rev8") && msg.contains("zbb") && msg.contains("zbkb") && msg.contains("xzbp (grevi)"), "{msg}");
    assert!(missing_ext_message(0x0000_0033).is_none()); // add: not an extension word
}

#[test]
fn every_extension_is_present() {
    let names = ext_names();
    for e in ["zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx", "zknd", "zkne", "zknh", "zksed", "zksh",
              "xzbp", "xcarry", "xsbox"] {
        assert!(names.contains(&e), "{e} missing");
    }
    let count = |e: &str| EXT_INSNS.iter().filter(|r| r.ext == e).count();
    assert_eq!(count("zba"), 3); assert_eq!(count("zbb"), 18); assert_eq!(count("zbc"), 3);
    assert_eq!(count("zbs"), 8); assert_eq!(count("zbkb"), 12); assert_eq!(count("zbkc"), 2);
    assert_eq!(count("zbkx"), 2); assert_eq!(count("zkne"), 2); assert_eq!(count("zknd"), 2);
    assert_eq!(count("zknh"), 10); assert_eq!(count("zksed"), 2); assert_eq!(count("zksh"), 2);
    assert_eq!(count("xzbp"), 6);
}

#[test]
fn operand_forms() {
    let find = |n: &str| EXT_INSNS.iter().find(|e| e.name == n).unwrap();
    let regs = |r: u32| r * 0x0101_0101;
    // aes32esi a0, a1, a2, 2 : bs in bits 31:30
    let w = (2 << 30) | (0x11 << 25) | (12 << 20) | (11 << 15) | (10 << 7) | 0x33;
    let e = find("aes32esi");
    assert!(e.matches_word(w));
    assert_eq!(e.operands(w, regs), (regs(11), regs(12), 2));
    assert_eq!(e.disasm(w), "aes32esi a0,a1,a2,2");
    // rori a0, a1, 13: b is bits 31:20 raw, exec masks the shift amount
    let w = (0x30 << 25) | (13 << 20) | (11 << 15) | (5 << 12) | (10 << 7) | 0x13;
    let e = lookup(w, |x| x == "zbb").unwrap();
    assert_eq!(e.name, "rori");
    let (a, b, c) = e.operands(w, regs);
    assert_eq!(b, 0x600 | 13);
    assert_eq!((e.exec)(&mut ExtState::default(), a, b, c), regs(11).rotate_right(13));
    assert_eq!(e.disasm(w), "rori a0,a1,13");
}

/// xcarry: a 96-bit addition and subtraction chain against u128 arithmetic.
#[test]
fn xcarry_chains() {
    let addc = EXT_INSNS.iter().find(|e| e.name == "addc").unwrap();
    let subc = EXT_INSNS.iter().find(|e| e.name == "subc").unwrap();
    let vals = values();
    for w in vals.windows(6) {
        let x = (w[0] as u128) | (w[1] as u128) << 32 | (w[2] as u128) << 64;
        let y = (w[3] as u128) | (w[4] as u128) << 32 | (w[5] as u128) << 64;
        let mut st = ExtState::default();
        let s: Vec<u32> = (0..3).map(|i| (addc.exec)(&mut st, w[i], w[i + 3], 0)).collect();
        let sum = x + y;
        assert_eq!(s, vec![sum as u32, (sum >> 32) as u32, (sum >> 64) as u32]);
        // read-and-clear idiom: addc rd, x0, x0
        let c = (addc.exec)(&mut st, 0, 0, 0);
        assert_eq!(c, (sum >> 96) as u32);
        assert_eq!(st.carry, 0);
        let mut st = ExtState::default();
        let d: Vec<u32> = (0..3).map(|i| (subc.exec)(&mut st, w[i], w[i + 3], 0)).collect();
        let diff = x.wrapping_sub(y) & ((1u128 << 96) - 1);
        assert_eq!(d, vec![diff as u32, (diff >> 32) as u32, (diff >> 64) as u32]);
        assert_eq!(st.carry, (x < y) as u32);
    }
    let mut st = ExtState { carry: 1 };
    assert_eq!((addc.exec)(&mut st, 0xffff_ffff, 0, 0), 0);
    assert_eq!(st.carry, 1);
    assert_eq!((addc.exec)(&mut st, 0xffff_ffff, 0xffff_ffff, 0), 0xffff_ffff);
    assert_eq!(st.carry, 1);
    let mut st = ExtState { carry: 1 };
    assert_eq!((subc.exec)(&mut st, 0, 0xffff_ffff, 0), 0);
    assert_eq!(st.carry, 1);
    let mut st = ExtState { carry: 1 };
    assert_eq!((subc.exec)(&mut st, 5, 4, 0), 0);
    assert_eq!(st.carry, 0);
}

#[test]
fn xsbox() {
    let sa = EXT_INSNS.iter().find(|e| e.name == "sboxaddr").unwrap();
    let sw = EXT_INSNS.iter().find(|e| e.name == "sboxaddrw").unwrap();
    let mut st = ExtState::default();
    for bs in 0..4 {
        let a = 0x8877_6655u32;
        let byte = [0x55, 0x66, 0x77, 0x88][bs as usize];
        assert_eq!((sa.exec)(&mut st, a, 0x8000_1000, bs), 0x8000_1000 + byte);
        assert_eq!((sw.exec)(&mut st, a, 0x8000_1000, bs), 0x8000_1000 + 4 * byte);
    }
    assert_eq!((sa.exec)(&mut st, 0xff, 0xffff_ff80, 0), 0x7f); // wraps
    assert_eq!(st, ExtState::default());
}

/// xpolymul (seed 004; ise/README.md and ise/<name>/insn.toml): the four instructions
/// decoded from words built from their documented encodings (custom-2 = 0x5b, funct3 0..3,
/// rd = a0, rs1 = a1, rs2 = a2, rs3 = a3), their operands taken by the table, and the result
/// compared with the documented formula written out here on edge and random operands.
#[test]
fn xpolymul_semantics() {
    let (rd, rs1, rs2, rs3) = (10u32, 11u32, 12u32, 13u32);
    let poly = |w: u32| lookup(w, |e| e == "xpolymul").unwrap_or_else(|| panic!("{w:#010x} does not decode"));
    let run = |w: u32, a: u32, b: u32, c: u32| {
        let e = poly(w);
        let regs = |r: u32| match r { 11 => a, 12 => b, 13 => c, 10 => c, _ => 0 };
        let (x, y, z) = e.operands(w, regs);
        let mut st = ExtState::default();
        let v = (e.exec)(&mut st, x, y, z);
        assert_eq!(st, ExtState::default(), "{} has no state", e.name);
        (e.name, v)
    };
    let vals = values();
    // srliandi rd, rs1, shamt, mask7: rd = (rs1 >> shamt) & mask7; imm[4:0] = shamt, imm[11:5] = mask7
    for &a in &vals {
        for shamt in [0u32, 1, 4, 7, 28, 31] {
            for mask in [0u32, 1, 15, 0x55, 0x40, 127] {
                let w = (mask << 25) | (shamt << 20) | (rs1 << 15) | (rd << 7) | 0x5b;
                let want = ((a as u64 >> shamt) & mask as u64) as u32;
                assert_eq!(run(w, a, 0, 0), ("srliandi", want), "srliandi {a:#x}, {shamt}, {mask}");
            }
        }
    }
    // sllior rd, rs1, shamt: rd = (old rd << shamt) | rs1; imm[11:5] must be zero
    for &a in &vals {
        for &old in vals.iter().step_by(5) {
            for shamt in [0u32, 1, 4, 16, 31] {
                let w = (shamt << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x5b;
                let want = ((old as u64) << shamt) as u32 | a;
                assert_eq!(run(w, a, 0, old), ("sllior", want), "sllior old {old:#x}, {a:#x}, {shamt}");
                assert!(lookup(w | 1 << 25, |e| e == "xpolymul").is_none(), "sllior with imm[11:5] != 0 is not sllior");
            }
        }
    }
    assert_eq!(run((31 << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x5b, 0, 0, 0x8000_0001).1, 0x8000_0000);
    // muladd rd, rs1, rs2, rs3: low 32 bits of rs1 * rs2 + rs3 (R4: rs3 in bits 31:27, funct2 0)
    let w = (rs3 << 27) | (rs2 << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x5b;
    for &a in &vals {
        for &b in vals.iter().step_by(3) {
            for &c in vals.iter().step_by(11) {
                let want = ((a as u128 * b as u128 + c as u128) % (1u128 << 32)) as u32;
                assert_eq!(run(w, a, b, c), ("muladd", want), "muladd {a:#x}, {b:#x}, {c:#x}");
            }
        }
    }
    assert_eq!(run(w, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff).1, 0); // 1 + (2^32 - 1) wraps to 0
    assert_eq!(run(w, 0x8000_0000, 2, 7).1, 7);
    assert!(lookup(w | 1 << 25, |e| e == "xpolymul").is_none(), "muladd with funct2 != 0");
    // andbnexadd rd, rs1, rs2: rd ^= rs2 if bit 31 of rs1 is set (GF(2) add), else rd unchanged
    let w = (rs2 << 20) | (rs1 << 15) | (3 << 12) | (rd << 7) | 0x5b;
    for &a in &vals {
        for &b in vals.iter().step_by(3) {
            for &old in vals.iter().step_by(7) {
                let want = if a >= 0x8000_0000 { old ^ b } else { old };
                assert_eq!(run(w, a, b, old), ("andbnexadd", want), "andbnexadd old {old:#x}, {a:#x}, {b:#x}");
            }
        }
    }
    assert_eq!(run(w, 0x7fff_ffff, 0xffff_ffff, 0x1234).1, 0x1234); // only bit 31 counts
    assert_eq!(run(w, 0x8000_0000, 0xffff_0000, 0x0f0f_0f0f).1, 0xf0f0_0f0f);
    assert!(lookup(w | 1 << 25, |e| e == "xpolymul").is_none(), "andbnexadd with funct7 != 0");
    // not decoded without the extension
    assert!(lookup(w, |e| e != "xpolymul").is_none());
}

/// What insn.toml declares reaches the row the decoder, timing model and checker read:
/// xcarry's carry state (`state`), muladd's multiplier (`uses_multiplier`), the flows (`taint`).
#[test]
fn declared_properties_are_on_the_rows() {
    let row = |n: &str| EXT_INSNS.iter().find(|e| e.name == n).unwrap();
    let stateful: Vec<&str> = EXT_INSNS.iter().filter(|e| e.state.is_some()).map(|e| e.name).collect();
    assert_eq!(stateful, ["addc", "subc"]);
    assert_eq!(row("addc").state, Some(StateVar::Carry));
    let mul: Vec<&str> = EXT_INSNS.iter().filter(|e| e.uses_multiplier).map(|e| e.name).collect();
    assert_eq!(mul, ["muladd"]);
    assert_eq!((row("addc").taint, row("muladd").taint, row("sboxaddr").taint, row("clmul").taint),
               (TaintFlow::Carry, TaintFlow::Carry, TaintFlow::Mix, TaintFlow::Mix));
    // the decoder times muladd like MUL from that declaration
    let isa = crate::isa::Isa::parse("rv32im_xpolymul", &["xpolymul"]).unwrap();
    let d = crate::decode::decode(0x0000_205b | 13 << 27 | 12 << 20 | 11 << 15 | 10 << 7, &isa, EXT_INSNS).unwrap();
    assert_eq!((EXT_INSNS[d.ext as usize].name, d.cls), ("muladd", crate::decode::cls::MUL));
}

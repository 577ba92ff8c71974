//! ISA-string parsing: `rv32` + single-letter extensions + `_z...`/`_x...` names.

use std::collections::BTreeSet;

/// Multi-letter extension names rvsim knows (standard ones; custom `x...` names are
/// accepted if the extension table defines them).
pub const KNOWN_Z: &[&str] = &[
    "zicsr", "zifencei", "zicntr", "zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx", "zknd",
    "zkne", "zknh", "zksed", "zksh", "zkn", "zks", "zk", "zkt", "zmmul", "zca",
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isa {
    pub text: String,
    pub m: bool,
    pub a: bool,
    pub c: bool,
    /// multi-letter extensions enabled (lower case), after expanding umbrella names
    pub exts: BTreeSet<String>,
}

impl Isa {
    /// Parse an ISA string. `custom` lists the extension names defined by the extension
    /// table (so `x...` names of custom instructions are accepted).
    pub fn parse(s: &str, custom: &[&str]) -> Result<Isa, String> {
        let lower = s.trim().to_ascii_lowercase();
        let rest = lower
            .strip_prefix("rv32")
            .ok_or_else(|| format!("ISA string '{s}' must start with rv32"))?;
        let mut parts = rest.split('_');
        let letters = parts.next().unwrap_or("");
        let mut isa = Isa { text: lower.clone(), m: false, a: false, c: false, exts: BTreeSet::new() };
        let mut chars = letters.chars().peekable();
        match chars.next() {
            Some('i') => {}
            Some('e') => return Err(format!("ISA string '{s}': RV32E is not supported")),
            Some('g') => return Err(format!("ISA string '{s}': 'g' is not supported")),
            Some(c) => return Err(format!("ISA string '{s}': base must be 'i', found '{c}'")),
            None => return Err(format!("ISA string '{s}': missing base 'i'")),
        }
        // Implicit in the older strings the toolchain accepts.
        isa.exts.insert("zicsr".into());
        isa.exts.insert("zifencei".into());
        isa.exts.insert("zicntr".into());
        let mut letters_seen = String::new();
        for ch in chars {
            if letters_seen.contains(ch) {
                return Err(format!("ISA string '{s}': extension '{ch}' given twice"));
            }
            letters_seen.push(ch);
            match ch {
                'm' => isa.m = true,
                'a' => isa.a = true,
                'c' => isa.c = true,
                c if c.is_ascii_digit() || c == 'p' => {
                    return Err(format!("ISA string '{s}': version numbers are not supported"))
                }
                c => return Err(format!("ISA string '{s}': unknown or unsupported extension '{c}'")),
            }
        }
        let mut named: Vec<&str> = Vec::new();
        for p in parts {
            if p.is_empty() {
                return Err(format!("ISA string '{s}': empty extension name"));
            }
            if named.contains(&p) {
                return Err(format!("ISA string '{s}': extension '{p}' given twice"));
            }
            named.push(p);
            let known = KNOWN_Z.contains(&p) || (p.starts_with('x') && custom.contains(&p))
                || (p.starts_with('z') && custom.contains(&p));
            if !known {
                return Err(format!("ISA string '{s}': unknown extension '{p}'"));
            }
            match p {
                "zkn" => {
                    for e in ["zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh"] {
                        isa.exts.insert(e.into());
                    }
                }
                "zks" => {
                    for e in ["zbkb", "zbkc", "zbkx", "zksed", "zksh"] {
                        isa.exts.insert(e.into());
                    }
                }
                "zk" => {
                    for e in ["zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh", "zkt"] {
                        isa.exts.insert(e.into());
                    }
                }
                "zca" => isa.c = true,
                "zmmul" => {}
                _ => {}
            }
            isa.exts.insert(p.to_string());
        }
        Ok(isa)
    }

    pub fn has(&self, ext: &str) -> bool {
        match ext {
            "m" => self.m,
            "a" => self.a,
            "c" => self.c,
            "i" => true,
            "zmmul" => self.m || self.exts.contains("zmmul"),
            e => self.exts.contains(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parse_ok() {
        let i = Isa::parse("rv32imac_zbkb_zknh", &[]).unwrap();
        assert!(i.m && i.a && i.c && i.has("zbkb") && i.has("zknh") && i.has("zicsr"));
        assert!(!i.has("zbb"));
        let i = Isa::parse("rv32i_zicsr_zifencei", &[]).unwrap();
        assert!(!i.m && !i.c);
        let i = Isa::parse("RV32IMC_xcarry", &["xcarry"]).unwrap();
        assert!(i.has("xcarry"));
        let i = Isa::parse("rv32i_zkn", &[]).unwrap();
        assert!(i.has("zkne") && i.has("zbkx"));
    }
    #[test]
    fn parse_err() {
        assert!(Isa::parse("rv64i", &[]).is_err());
        assert!(Isa::parse("rv32imq", &[]).is_err());
        assert!(Isa::parse("rv32i_zfoo", &[]).is_err());
        assert!(Isa::parse("rv32i_xcarry", &[]).is_err());
        assert!(Isa::parse("rv32", &[]).is_err());
        assert!(Isa::parse("rv32g", &[]).is_err());
        assert!(Isa::parse("rv32i__zbb", &[]).is_err());
        // a repeated extension is a mistake in the string, not a silent no-op
        for rep in ["rv32imm", "rv32imac_zbkb_zbkb", "rv32imcc"] {
            assert!(Isa::parse(rep, &[]).unwrap_err().contains("given twice"), "{rep}");
        }
        assert!(Isa::parse("rv32i_zkn_zbkb", &[]).is_ok(), "implied by zkn and named: not a repetition");
    }
}

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

/// Why an ISA string does not parse (`Isa::parse`): the string as given and the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsaError { pub text: String, pub fault: IsaFault }

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IsaFault {
    /// not `rv32...` (rv64, a typo)
    NotRv32,
    Rv32e,
    /// `g` (it implies F and D)
    G,
    /// a base letter other than i/e/g
    Base(char),
    MissingBase,
    /// a letter or a name given twice
    Twice(String),
    /// `2p0`-style version numbers
    Version,
    UnknownLetter(char),
    /// `__` or a trailing `_`
    EmptyName,
    UnknownName(String),
}

impl std::fmt::Display for IsaError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let s = &self.text;
        match &self.fault {
            IsaFault::NotRv32 => write!(f, "ISA string '{s}' must start with rv32"),
            IsaFault::Rv32e => write!(f, "ISA string '{s}': RV32E is not supported"),
            IsaFault::G => write!(f, "ISA string '{s}': 'g' is not supported"),
            IsaFault::Base(c) => write!(f, "ISA string '{s}': base must be 'i', found '{c}'"),
            IsaFault::MissingBase => write!(f, "ISA string '{s}': missing base 'i'"),
            IsaFault::Twice(e) => write!(f, "ISA string '{s}': extension '{e}' given twice"),
            IsaFault::Version => write!(f, "ISA string '{s}': version numbers are not supported"),
            IsaFault::UnknownLetter(c) => write!(f, "ISA string '{s}': unknown or unsupported extension '{c}'"),
            IsaFault::EmptyName => write!(f, "ISA string '{s}': empty extension name"),
            IsaFault::UnknownName(e) => write!(f, "ISA string '{s}': unknown extension '{e}'"),
        }
    }
}

impl std::error::Error for IsaError {}

impl Isa {
    /// Parse an ISA string. `custom` lists the extension names defined by the extension
    /// table (so `x...` names of custom instructions are accepted).
    pub fn parse(s: &str, custom: &[&str]) -> Result<Isa, IsaError> {
        let fail = |fault| IsaError { text: s.to_string(), fault };
        let lower = s.trim().to_ascii_lowercase();
        let rest = lower
            .strip_prefix("rv32")
            .ok_or_else(|| fail(IsaFault::NotRv32))?;
        let mut parts = rest.split('_');
        let letters = parts.next().unwrap_or("");
        let mut isa = Isa { text: lower.clone(), m: false, a: false, c: false, exts: BTreeSet::new() };
        let mut chars = letters.chars().peekable();
        match chars.next() {
            Some('i') => {}
            Some('e') => return Err(fail(IsaFault::Rv32e)),
            Some('g') => return Err(fail(IsaFault::G)),
            Some(c) => return Err(fail(IsaFault::Base(c))),
            None => return Err(fail(IsaFault::MissingBase)),
        }
        // Implicit in the older strings the toolchain accepts.
        isa.exts.insert("zicsr".into());
        isa.exts.insert("zifencei".into());
        isa.exts.insert("zicntr".into());
        let mut letters_seen = String::new();
        for ch in chars {
            if letters_seen.contains(ch) {
                return Err(fail(IsaFault::Twice(ch.to_string())));
            }
            letters_seen.push(ch);
            match ch {
                'm' => isa.m = true,
                'a' => isa.a = true,
                'c' => isa.c = true,
                c if c.is_ascii_digit() || c == 'p' => {
                    return Err(fail(IsaFault::Version))
                }
                c => return Err(fail(IsaFault::UnknownLetter(c))),
            }
        }
        let mut named: Vec<&str> = Vec::new();
        for p in parts {
            if p.is_empty() {
                return Err(fail(IsaFault::EmptyName));
            }
            if named.contains(&p) {
                return Err(fail(IsaFault::Twice(p.to_string())));
            }
            named.push(p);
            let known = KNOWN_Z.contains(&p) || (p.starts_with('x') && custom.contains(&p))
                || (p.starts_with('z') && custom.contains(&p));
            if !known {
                return Err(fail(IsaFault::UnknownName(p.to_string())));
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
        let fault = |s: &str| Isa::parse(s, &[]).unwrap_err().fault;
        assert_eq!(fault("rv64i"), IsaFault::NotRv32);
        assert_eq!(fault("rv32imq"), IsaFault::UnknownLetter('q'));
        assert_eq!(fault("rv32i_zfoo"), IsaFault::UnknownName("zfoo".into()));
        assert_eq!(fault("rv32i_xcarry"), IsaFault::UnknownName("xcarry".into()));
        assert_eq!(fault("rv32"), IsaFault::MissingBase);
        assert_eq!(fault("rv32g"), IsaFault::G);
        assert_eq!(fault("rv32e"), IsaFault::Rv32e);
        assert_eq!(fault("rv32x"), IsaFault::Base('x'));
        assert_eq!(fault("rv32i2p0"), IsaFault::Version);
        assert_eq!(fault("rv32i__zbb"), IsaFault::EmptyName);
        // a repeated extension is a mistake in the string, not a silent no-op
        for (rep, e) in [("rv32imm", "m"), ("rv32imac_zbkb_zbkb", "zbkb"), ("rv32imcc", "c")] {
            assert_eq!(fault(rep), IsaFault::Twice(e.into()), "{rep}");
        }
        // the text as given (not lower-cased), in today's words
        assert_eq!(Isa::parse("RV64I", &[]).unwrap_err().to_string(), "ISA string 'RV64I' must start with rv32");
        assert_eq!(Isa::parse("rv32i_zfoo", &[]).unwrap_err().to_string(), "ISA string 'rv32i_zfoo': unknown extension 'zfoo'");
        assert!(Isa::parse("rv32i_zkn_zbkb", &[]).is_ok(), "implied by zkn and named: not a repetition");
    }
}

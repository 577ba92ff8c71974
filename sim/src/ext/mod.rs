//! Extension-instruction table (docs/interfaces.md §2).
//!
//! * `bitmanip.rs` — Zba/Zbb/Zbc/Zbs/Zbkb/Zbkc/Zbkx and draft xzbp semantics (plain u32 fns)
//! * `crypto.rs`   — Zkne/Zknd/Zknh/Zksed/Zksh semantics, AES and SM4 S-boxes
//! * `table.rs`    — encodings: the `EXT_INSNS` table (standard rows + custom rows that
//!   `sim/build.rs` generates from `ise/*/insn.toml` and `ise/*/semantics.rs`)
//!
//! Decoding rule: the first row with `(word & mask) == matches` whose `ext` is enabled wins
//! (see `lookup`). Several rows may share an encoding (an instruction in two extensions, or a
//! ratified special case of a draft xzbp instruction); the tests check that overlapping rows
//! compute the same function. A custom instruction may write architectural state (`ExtState`,
//! e.g. the xcarry carry bit), so the executor must call `exec` even when rd is x0.

pub mod bitmanip;
pub mod crypto;
mod table;

/// Operand form of an extension instruction (see docs/interfaces.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtForm { R, Unary, Imm, Bs, R4, RdAcc, RdAccImm }

/// Architectural state of custom extensions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtState { pub carry: u32 }

/// One extension instruction.
#[derive(Clone, Copy)]
pub struct ExtInsn {
    pub name: &'static str,
    pub ext: &'static str,
    pub mask: u32,
    pub matches: u32,
    pub form: ExtForm,
    pub exec: fn(&mut ExtState, u32, u32, u32) -> u32,
    pub latency: u8,
}

impl std::fmt::Debug for ExtInsn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExtInsn({} [{}] mask={:#010x} match={:#010x} {:?} lat={})",
               self.name, self.ext, self.mask, self.matches, self.form, self.latency)
    }
}

impl ExtInsn {
    #[inline]
    pub fn matches_word(&self, word: u32) -> bool { word & self.mask == self.matches }

    /// The operands `exec` takes for this form, given the word and a register reader
    /// (docs/interfaces.md §2). Returns (a, b, c).
    #[inline]
    pub fn operands(&self, word: u32, x: impl Fn(u32) -> u32) -> (u32, u32, u32) {
        let rd = (word >> 7) & 31;
        let rs1 = (word >> 15) & 31;
        let rs2 = (word >> 20) & 31;
        let imm = word >> 20;
        match self.form {
            ExtForm::R => (x(rs1), x(rs2), 0),
            ExtForm::Unary => (x(rs1), 0, 0),
            ExtForm::Imm => (x(rs1), imm, 0),
            ExtForm::Bs => (x(rs1), x(rs2), word >> 30),
            ExtForm::R4 => (x(rs1), x(rs2), x(word >> 27)),
            ExtForm::RdAcc => (x(rs1), x(rs2), x(rd)),
            ExtForm::RdAccImm => (x(rs1), imm, x(rd)),
        }
    }

    /// Which source registers the form reads (rs1, rs2, rs3, rd-as-source), for timing models.
    pub fn reads(&self, word: u32) -> [Option<u32>; 3] {
        let rd = (word >> 7) & 31;
        let rs1 = (word >> 15) & 31;
        let rs2 = (word >> 20) & 31;
        match self.form {
            ExtForm::R | ExtForm::Bs => [Some(rs1), Some(rs2), None],
            ExtForm::Unary | ExtForm::Imm => [Some(rs1), None, None],
            ExtForm::R4 => [Some(rs1), Some(rs2), Some(word >> 27)],
            ExtForm::RdAcc => [Some(rs1), Some(rs2), Some(rd)],
            ExtForm::RdAccImm => [Some(rs1), Some(rd), None],
        }
    }

    /// Assembler-style operand text, e.g. "a0, a1, a2" or "a0, a1, a2, 3".
    pub fn disasm(&self, word: u32) -> String {
        const N: [&str; 32] = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
            "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
            "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"];
        let rd = N[((word >> 7) & 31) as usize];
        let rs1 = N[((word >> 15) & 31) as usize];
        let rs2 = N[((word >> 20) & 31) as usize];
        let imm = word >> 20;
        let ops = match self.form {
            ExtForm::R | ExtForm::RdAcc => format!("{rd}, {rs1}, {rs2}"),
            ExtForm::Unary => format!("{rd}, {rs1}"),
            ExtForm::Imm | ExtForm::RdAccImm => {
                // shift-style immediates print only the low bits the mask leaves free
                let free = !self.mask >> 20 & 0xfff;
                format!("{rd}, {rs1}, {}", imm & free)
            }
            ExtForm::Bs => format!("{rd}, {rs1}, {rs2}, {}", word >> 30),
            ExtForm::R4 => format!("{rd}, {rs1}, {rs2}, {}", N[(word >> 27) as usize]),
        };
        format!("{} {}", self.name, ops)
    }
}

/// Metadata of a custom instruction from its `ise/<name>/insn.toml` (not needed to execute).
#[derive(Clone, Copy, Debug)]
pub struct IseInfo {
    pub name: &'static str,
    pub ext: &'static str,
    pub seed: &'static str,
    pub description: &'static str,
    /// The instruction occupies the core's multiplier like MUL (a timing model may block on it).
    pub uses_multiplier: bool,
    /// How secrecy flows from the input bytes to the result bytes (constant-time checker).
    pub taint: TaintFlow,
}

/// Byte-level secrecy flow of an extension instruction, declared in `insn.toml` (`taint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaintFlow {
    /// any secret input byte makes every result byte secret (the default; always sound)
    Mix,
    /// result byte j depends only on byte j of each input (and/or/xor-like)
    Bytewise,
    /// result byte j depends on bytes 0..=j of the inputs (add/multiply-low-like)
    Carry,
}

/// Declared taint flow of table entry `e` (standard instructions: `Mix`).
pub fn taint_flow(e: &ExtInsn) -> TaintFlow {
    ise_info(e.name).filter(|i| i.ext == e.ext).map_or(TaintFlow::Mix, |i| i.taint)
}

/// Metadata of every custom instruction compiled in from `ise/`.
pub static ISE_INFO: &[IseInfo] = table::ISE_INFO;

/// Metadata of the named custom instruction (None for standard ones).
pub fn ise_info(name: &str) -> Option<&'static IseInfo> { ISE_INFO.iter().find(|i| i.name == name) }

/// Whether the named custom instruction uses the multiplier (false for unknown names).
pub fn uses_multiplier(name: &str) -> bool { ise_info(name).is_some_and(|i| i.uses_multiplier) }

/// The full table of extension instructions (standard and custom).
pub static EXT_INSNS: &[ExtInsn] = table::EXT_INSNS;

/// The full table (function form, for callers that prefer it).
pub fn ext_insns() -> &'static [ExtInsn] { EXT_INSNS }

/// First row matching `word` whose extension `enabled` accepts.
pub fn lookup(word: u32, enabled: impl Fn(&str) -> bool) -> Option<&'static ExtInsn> {
    EXT_INSNS.iter().find(|e| e.matches_word(word) && enabled(e.ext))
}

/// All rows matching `word`, whatever is enabled (for "needs zbb or zbkb" messages).
pub fn lookup_all(word: u32) -> Vec<&'static ExtInsn> {
    EXT_INSNS.iter().filter(|e| e.matches_word(word)).collect()
}

/// The extensions that define `word` in `table`, e.g. "zbb or zbkb or xzbp (grevi)" (a row
/// spelling the instruction differently names its mnemonic). None if no row matches.
pub fn needed_extensions(word: u32, table: &[ExtInsn]) -> Option<String> {
    let rows: Vec<&ExtInsn> = table.iter().filter(|e| e.matches_word(word)).collect();
    let first = rows.first()?;
    let mut parts: Vec<String> = Vec::new();
    for r in &rows {
        let p = if r.name == first.name { r.ext.to_string() } else { format!("{} ({})", r.ext, r.name) };
        if !parts.contains(&p) { parts.push(p); }
    }
    Some(parts.join(" or "))
}

/// Error text for a word that matches rows of extensions none of which is enabled, e.g.
/// "rev8 needs extension zbb or zbkb or xzbp (grevi)". None if no row matches at all.
pub fn missing_ext_message(word: u32) -> Option<String> {
    let name = lookup_all(word).first()?.name;
    Some(format!("{name} needs extension {}", needed_extensions(word, EXT_INSNS)?))
}

/// Every extension name the table defines (standard z... names, xzbp, custom x... names).
pub fn ext_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for e in EXT_INSNS { if !v.contains(&e.ext) { v.push(e.ext); } }
    v
}

#[cfg(test)]
mod tests;

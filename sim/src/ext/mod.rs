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
//! e.g. the xcarry carry bit; its row names the part in `state`), so the executor must call
//! `exec` even when rd is x0.
//!
//! The decoder (`decode::decode`), the disassembler and the constant-time checker read the
//! table through `find` and the row's fields; `ExtInsn::operands` and `ExtInsn::disasm` go
//! through the decoder, the executor's operand mapping and the disassembler, so the tests that
//! use them check the path the simulator runs.

pub mod bitmanip;
pub mod crypto;
mod table;

/// Operand form of an extension instruction (see docs/interfaces.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtForm { R, Unary, Imm, Bs, R4, RdAcc, RdAccImm }

/// Architectural state of custom extensions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtState { pub carry: u32 }

/// A part of `ExtState` an instruction reads and writes, as its `insn.toml` declares
/// (`state = "carry"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateVar {
    /// `ExtState::carry` (xcarry's C)
    Carry,
}

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
    /// occupies the core's multiplier like MUL (its latency and one operation at a time)
    pub uses_multiplier: bool,
    /// how secrecy flows from input bytes to result bytes (constant-time checker)
    pub taint: TaintFlow,
    /// the custom state it reads and writes, if any
    pub state: Option<StateVar>,
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

    /// The operands `exec` takes for `word`, given a register reader (docs/interfaces.md §2):
    /// the decoder's fields and the executor's operand mapping. Returns (a, b, c).
    pub fn operands(&self, word: u32, x: impl Fn(u32) -> u32) -> (u32, u32, u32) {
        let d = crate::decode::ext_decoded(word, 0, self);
        crate::exec::semantics::ext_operands(&d, self.form.op(), |r| x(r as u32))
    }

    /// The disassembler's text for `word`, e.g. "aes32esi a0,a1,a2,2".
    pub fn disasm(&self, word: u32) -> String {
        crate::disasm::disasm(&crate::decode::ext_decoded(word, 0, self), 0, std::slice::from_ref(self))
    }
}

impl ExtForm {
    /// The executor's op for this form (which fields hold `exec`'s operands).
    pub const fn op(self) -> crate::decode::ExtOp {
        use crate::decode::ExtOp;
        match self {
            ExtForm::R | ExtForm::Unary | ExtForm::R4 | ExtForm::RdAcc => ExtOp::ExtR,
            ExtForm::Imm | ExtForm::RdAccImm => ExtOp::ExtI,
            ExtForm::Bs => ExtOp::ExtBs,
        }
    }
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

/// The full table of extension instructions (standard and custom).
pub static EXT_INSNS: &[ExtInsn] = table::EXT_INSNS;

/// The full table (function form, for callers that prefer it).
pub fn ext_insns() -> &'static [ExtInsn] { EXT_INSNS }

/// The first row of `table` matching `word` whose extension `enabled` accepts, with its index
/// (the decoder's lookup).
pub fn find(table: &[ExtInsn], word: u32, enabled: impl Fn(&str) -> bool) -> Option<(usize, &ExtInsn)> {
    table.iter().enumerate().find(|(_, e)| e.matches_word(word) && enabled(e.ext))
}

/// First row matching `word` whose extension `enabled` accepts.
pub fn lookup(word: u32, enabled: impl Fn(&str) -> bool) -> Option<&'static ExtInsn> {
    find(EXT_INSNS, word, enabled).map(|(_, e)| e)
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

/// The decoder's text for a word that matches rows of extensions none of which is enabled,
/// e.g. "rev8 needs extension zbb or zbkb or xzbp (grevi)". None if no row matches at all.
pub fn missing_ext_message(word: u32) -> Option<String> {
    let isa = crate::isa::Isa::parse("rv32i", &[]).expect("rv32i");
    match crate::decode::decode(word, &isa, EXT_INSNS) {
        Err(crate::decode::DecodeError::Disallowed { mnemonic, ext }) => Some(format!("{mnemonic} needs extension {ext}")),
        _ => None,
    }
}

/// Every extension name the table defines (standard z... names, xzbp, custom x... names).
pub fn ext_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for e in EXT_INSNS { if !v.contains(&e.ext) { v.push(e.ext); } }
    v
}

#[cfg(test)]
mod tests;

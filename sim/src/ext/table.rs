//! The standard part of the extension-instruction table (docs/interfaces.md §2).
//!
//! Encodings (RV32 forms) from the ratified bitmanip 1.0 and scalar-crypto 1.0 texts, and the
//! bitmanip 0.93 draft for xzbp. One row per (instruction, extension): an instruction that
//! belongs to several extensions (rev8 in Zbb and Zbkb, clmul in Zbc and Zbkc, ...) has one
//! row for each, with the same encoding. Rows that are special cases of a wider xzbp
//! instruction (rev8/brev8 = grevi 24/7, zip/unzip = shfli/unshfli 15, zext.h = pack with
//! rs2 = x0) come *before* the wider row: lookups take the first row whose extension is
//! enabled, so the ratified mnemonic wins when its extension is on, and the draft instruction
//! decodes the other immediates only when xzbp is on. The test `overlaps_agree` checks that
//! overlapping rows compute the same result.
//!
//! Latency: the E31 has none of these units; we model every one as a single-cycle ALU
//! operation (result latency 1), the figure the scalar-crypto spec's area/latency discussion
//! targets for these instructions on small cores.

use super::bitmanip as b;
use super::crypto as k;
use super::{ExtForm, ExtInsn, StateVar, TaintFlow};

const OP: u32 = 0x33;
const OP_IMM: u32 = 0x13;

/// R-type: funct7, funct3, opcode OP.
pub const fn r(f7: u32, f3: u32) -> (u32, u32) { (0xfe00_707f, (f7 << 25) | (f3 << 12) | OP) }
/// Unary OP-IMM with the whole imm[11:0] fixed (clz, rev8, sha256sig0, ...).
pub const fn u(imm12: u32, f3: u32) -> (u32, u32) { (0xfff0_707f, (imm12 << 20) | (f3 << 12) | OP_IMM) }
/// OP-IMM shift form on RV32: funct7 fixed, 5-bit shamt free.
pub const fn sh(f7: u32, f3: u32) -> (u32, u32) { (0xfe00_707f, (f7 << 25) | (f3 << 12) | OP_IMM) }
/// RV32 shfli/unshfli: imm[11:4] = 0000_1000 fixed (shamt[4] must be 0 on RV32), 4-bit control.
pub const fn shf(f3: u32) -> (u32, u32) { (0xff00_707f, (0x04 << 25) | (f3 << 12) | OP_IMM) }
/// Byte-select form (aes32*, sm4*): bs in bits 31:30, funct5 in 29:25, funct3 000, OP.
pub const fn bs(f5: u32) -> (u32, u32) { (0x3e00_707f, (f5 << 25) | OP) }
/// R-type with rs2 fixed to x0 (zext.h = pack rd, rs1, x0).
pub const fn r0(f7: u32, f3: u32) -> (u32, u32) { (0xfff0_707f, (f7 << 25) | (f3 << 12) | OP) }

macro_rules! row {
    ($name:literal, $ext:literal, $enc:expr, $form:ident, $f:expr) => {
        ExtInsn { name: $name, ext: $ext, mask: $enc.0, matches: $enc.1, form: ExtForm::$form,
                  exec: $f, latency: 1, uses_multiplier: false, taint: TaintFlow::Mix, state: None }
    };
}
// Adapters from plain functions to the `exec` signature.
macro_rules! rr { ($f:path) => { |_, a, b_, _| $f(a, b_) }; }
macro_rules! un { ($f:path) => { |_, a, _, _| $f(a) }; }
macro_rules! im { ($f:path) => { |_, a, imm, _| $f(a, imm & 31) }; }
macro_rules! bsx { ($f:path) => { |_, a, b_, c| $f(a, b_, c) }; }

/// `ext_table!(extra rows...)` expands to the whole table as a `&'static [ExtInsn]`
/// expression: the standard rows below, then the rows given (the custom instructions that
/// `build.rs` generates from `ise/*/`). A macro rather than two statics so that the table
/// stays one constant slice the decoder can scan without any start-up work.
macro_rules! ext_table { ($($extra:expr,)*) => { &[
    // ---- Zba
    row!("sh1add", "zba", r(0x10, 2), R, rr!(b::sh1add)),
    row!("sh2add", "zba", r(0x10, 4), R, rr!(b::sh2add)),
    row!("sh3add", "zba", r(0x10, 6), R, rr!(b::sh3add)),
    // ---- Zbb
    row!("andn", "zbb", r(0x20, 7), R, rr!(b::andn)),
    row!("orn", "zbb", r(0x20, 6), R, rr!(b::orn)),
    row!("xnor", "zbb", r(0x20, 4), R, rr!(b::xnor)),
    row!("clz", "zbb", u(0x600, 1), Unary, un!(b::clz)),
    row!("ctz", "zbb", u(0x601, 1), Unary, un!(b::ctz)),
    row!("cpop", "zbb", u(0x602, 1), Unary, un!(b::cpop)),
    row!("max", "zbb", r(0x05, 6), R, rr!(b::max)),
    row!("maxu", "zbb", r(0x05, 7), R, rr!(b::maxu)),
    row!("min", "zbb", r(0x05, 4), R, rr!(b::min)),
    row!("minu", "zbb", r(0x05, 5), R, rr!(b::minu)),
    row!("sext.b", "zbb", u(0x604, 1), Unary, un!(b::sext_b)),
    row!("sext.h", "zbb", u(0x605, 1), Unary, un!(b::sext_h)),
    row!("zext.h", "zbb", r0(0x04, 4), Unary, un!(b::zext_h)),
    row!("rol", "zbb", r(0x30, 1), R, rr!(b::rol)),
    row!("ror", "zbb", r(0x30, 5), R, rr!(b::ror)),
    row!("rori", "zbb", sh(0x30, 5), Imm, im!(b::ror)),
    row!("orc.b", "zbb", u(0x287, 5), Unary, un!(b::orc_b)),
    row!("rev8", "zbb", u(0x698, 5), Unary, un!(b::rev8)),
    // ---- Zbkb (rows shared with Zbb repeated under "zbkb")
    row!("andn", "zbkb", r(0x20, 7), R, rr!(b::andn)),
    row!("orn", "zbkb", r(0x20, 6), R, rr!(b::orn)),
    row!("xnor", "zbkb", r(0x20, 4), R, rr!(b::xnor)),
    row!("rol", "zbkb", r(0x30, 1), R, rr!(b::rol)),
    row!("ror", "zbkb", r(0x30, 5), R, rr!(b::ror)),
    row!("rori", "zbkb", sh(0x30, 5), Imm, im!(b::ror)),
    row!("rev8", "zbkb", u(0x698, 5), Unary, un!(b::rev8)),
    row!("brev8", "zbkb", u(0x687, 5), Unary, un!(b::brev8)),
    row!("zip", "zbkb", u(0x08f, 1), Unary, un!(b::zip)),
    row!("unzip", "zbkb", u(0x08f, 5), Unary, un!(b::unzip)),
    row!("pack", "zbkb", r(0x04, 4), R, rr!(b::pack)),
    row!("packh", "zbkb", r(0x04, 7), R, rr!(b::packh)),
    // ---- Zbc / Zbkc
    row!("clmul", "zbc", r(0x05, 1), R, rr!(b::clmul)),
    row!("clmulr", "zbc", r(0x05, 2), R, rr!(b::clmulr)),
    row!("clmulh", "zbc", r(0x05, 3), R, rr!(b::clmulh)),
    row!("clmul", "zbkc", r(0x05, 1), R, rr!(b::clmul)),
    row!("clmulh", "zbkc", r(0x05, 3), R, rr!(b::clmulh)),
    // ---- Zbkx
    row!("xperm8", "zbkx", r(0x14, 4), R, rr!(b::xperm8)),
    row!("xperm4", "zbkx", r(0x14, 2), R, rr!(b::xperm4)),
    // ---- Zbs
    row!("bclr", "zbs", r(0x24, 1), R, rr!(b::bclr)),
    row!("bclri", "zbs", sh(0x24, 1), Imm, im!(b::bclr)),
    row!("bext", "zbs", r(0x24, 5), R, rr!(b::bext)),
    row!("bexti", "zbs", sh(0x24, 5), Imm, im!(b::bext)),
    row!("binv", "zbs", r(0x34, 1), R, rr!(b::binv)),
    row!("binvi", "zbs", sh(0x34, 1), Imm, im!(b::binv)),
    row!("bset", "zbs", r(0x14, 1), R, rr!(b::bset)),
    row!("bseti", "zbs", sh(0x14, 1), Imm, im!(b::bset)),
    // ---- Zkne / Zknd (RV32)
    row!("aes32esi", "zkne", bs(0x11), Bs, bsx!(k::aes32esi)),
    row!("aes32esmi", "zkne", bs(0x13), Bs, bsx!(k::aes32esmi)),
    row!("aes32dsi", "zknd", bs(0x15), Bs, bsx!(k::aes32dsi)),
    row!("aes32dsmi", "zknd", bs(0x17), Bs, bsx!(k::aes32dsmi)),
    // ---- Zknh
    row!("sha256sum0", "zknh", u(0x100, 1), Unary, un!(k::sha256sum0)),
    row!("sha256sum1", "zknh", u(0x101, 1), Unary, un!(k::sha256sum1)),
    row!("sha256sig0", "zknh", u(0x102, 1), Unary, un!(k::sha256sig0)),
    row!("sha256sig1", "zknh", u(0x103, 1), Unary, un!(k::sha256sig1)),
    row!("sha512sum0r", "zknh", r(0x28, 0), R, rr!(k::sha512sum0r)),
    row!("sha512sum1r", "zknh", r(0x29, 0), R, rr!(k::sha512sum1r)),
    row!("sha512sig0l", "zknh", r(0x2a, 0), R, rr!(k::sha512sig0l)),
    row!("sha512sig1l", "zknh", r(0x2b, 0), R, rr!(k::sha512sig1l)),
    row!("sha512sig0h", "zknh", r(0x2e, 0), R, rr!(k::sha512sig0h)),
    row!("sha512sig1h", "zknh", r(0x2f, 0), R, rr!(k::sha512sig1h)),
    // ---- Zksed / Zksh
    row!("sm4ed", "zksed", bs(0x18), Bs, bsx!(k::sm4ed)),
    row!("sm4ks", "zksed", bs(0x1a), Bs, bsx!(k::sm4ks)),
    row!("sm3p0", "zksh", u(0x108, 1), Unary, un!(k::sm3p0)),
    row!("sm3p1", "zksh", u(0x109, 1), Unary, un!(k::sm3p1)),
    // ---- xzbp (bitmanip 0.93 draft); after the ratified special cases above
    row!("grev", "xzbp", r(0x34, 5), R, rr!(b::grev)),
    row!("grevi", "xzbp", sh(0x34, 5), Imm, im!(b::grev)),
    row!("shfl", "xzbp", r(0x04, 1), R, rr!(b::shfl)),
    row!("unshfl", "xzbp", r(0x04, 5), R, rr!(b::unshfl)),
    row!("shfli", "xzbp", shf(1), Imm, |_, a, imm, _| b::shfl(a, imm & 15)),
    row!("unshfli", "xzbp", shf(5), Imm, |_, a, imm, _| b::unshfl(a, imm & 15)),
    $($extra,)*
] } }

// Custom instructions: one module per `ise/<name>/semantics.rs`, generated by build.rs.
include!(concat!(env!("OUT_DIR"), "/ise_semantics.rs"));

/// The whole table: standard rows, then the custom rows generated from `ise/*/insn.toml`.
pub static EXT_INSNS: &[ExtInsn] = include!(concat!(env!("OUT_DIR"), "/ise_table.rs"));

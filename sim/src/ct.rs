//! Constant-time checker: shadow taint ("secret") tracking for registers and memory, and
//! the report of every place where secret data reaches something that changes timing.
//!
//! * Memory shadow: one byte per memory byte (0 public, 1 secret), in 64 KiB pages
//!   allocated on first taint.
//! * Register shadow: 4 bits per register, bit i = byte i of the register is secret.
//! * Propagation follows each instruction's data flow (see `CtChecker::insn`); where a
//!   byte-exact rule would be costly the rule over-approximates (never under-approximates).
//! * Violations: conditional branch on a secret condition, `jalr` to a secret target, load /
//!   store / AMO with a secret address, DIV/DIVU/REM/REMU with a secret operand when the core
//!   model has an operand-dependent divider (the E31 pipeline model).
//! * Run-time marking: semihosting operations `CT_SECRET` (0x100) and `CT_PUBLIC` (0x101),
//!   a1 -> { u32 ptr; u32 len } (see sim/README.md and harness/rvlab_ct.h).

use crate::decode::{Decoded, Op};
use crate::elf::Symbol;
use crate::exec::Observer;
use crate::mem::Memory;
use std::collections::HashMap;

/// Semihosting operation: mark `len` bytes at `ptr` secret (a1 -> {ptr, len}).
pub const SYS_CT_SECRET: u32 = 0x100;
/// Semihosting operation: mark `len` bytes at `ptr` public (declassify).
pub const SYS_CT_PUBLIC: u32 = 0x101;

/// What kind of leak a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind { Branch, IndirectJump, LoadAddress, StoreAddress, VariableLatency }

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Branch => "branch",
            Kind::IndirectJump => "indirect_jump",
            Kind::LoadAddress => "load_address",
            Kind::StoreAddress => "store_address",
            Kind::VariableLatency => "variable_latency",
        }
    }
}

const PAGE_BITS: u32 = 16;
const PAGE: usize = 1 << PAGE_BITS;

/// Byte-granular shadow of the 32-bit address space.
pub struct Shadow { pages: Vec<Option<Box<[u8; PAGE]>>> }

impl Default for Shadow { fn default() -> Self { Shadow::new() } }

impl Shadow {
    pub fn new() -> Shadow { Shadow { pages: (0..(1usize << (32 - PAGE_BITS))).map(|_| None).collect() } }
    #[inline(always)]
    pub fn get(&self, addr: u32) -> bool {
        match &self.pages[(addr >> PAGE_BITS) as usize] { Some(p) => p[(addr as usize) & (PAGE - 1)] != 0, None => false }
    }
    #[inline(always)]
    pub fn set(&mut self, addr: u32, secret: bool) {
        let pi = (addr >> PAGE_BITS) as usize;
        match &mut self.pages[pi] {
            Some(p) => p[(addr as usize) & (PAGE - 1)] = secret as u8,
            None => if secret {
                let mut p = Box::new([0u8; PAGE]);
                p[(addr as usize) & (PAGE - 1)] = 1;
                self.pages[pi] = Some(p);
            },
        }
    }
    /// Byte mask (bit i = byte addr+i secret) of an access of `n` bytes.
    #[inline(always)]
    pub fn load_mask(&self, addr: u32, n: u32) -> u8 {
        let mut m = 0;
        for i in 0..n { m |= (self.get(addr.wrapping_add(i)) as u8) << i; }
        m
    }
    #[inline(always)]
    pub fn store_mask(&mut self, addr: u32, n: u32, mask: u8) {
        for i in 0..n { self.set(addr.wrapping_add(i), mask >> i & 1 != 0); }
    }
    pub fn set_range(&mut self, addr: u32, len: u32, secret: bool) {
        for i in 0..len { self.set(addr.wrapping_add(i), secret); }
    }
    /// Number of secret bytes.
    pub fn count(&self) -> u64 {
        self.pages.iter().flatten().map(|p| p.iter().filter(|b| **b != 0).count() as u64).sum()
    }
}

/// One violation site: (pc, kind) with its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation { pub pc: u32, pub kind: Kind, pub count: u64 }

/// All 4 bytes.
const ALL: u8 = 0xf;
/// Byte j and all above it: the bytes a carry out of a secret byte can reach.
#[inline(always)]
fn up(m: u8) -> u8 { if m == 0 { 0 } else { ALL & !((m & m.wrapping_neg()) - 1) } }
#[inline(always)]
fn smear(m: u8) -> u8 { if m == 0 { 0 } else { ALL } }
/// Low byte only (0/1 results such as slt).
#[inline(always)]
fn bit(m: u8) -> u8 { (m != 0) as u8 }

/// Byte masks of shifts by a constant: SHIFT[kind][amount][mask], kind 0 sll, 1 srl, 2 sra.
fn shift_tables() -> Box<[[[u8; 16]; 32]; 3]> {
    let mut t = Box::new([[[0u8; 16]; 32]; 3]);
    for kind in 0..3 {
        for k in 0..32i32 {
            for m in 0..16u8 {
                let mut out = 0u8;
                for j in 0..4i32 {
                    // input bits that output byte j depends on
                    let (lo, hi) = match kind { 0 => (8 * j - k, 8 * j + 7 - k), _ => (8 * j + k, 8 * j + 7 + k) };
                    let hi = if kind == 2 { hi.min(31) } else { hi };
                    let mut dep = false;
                    for b in lo.max(0)..=hi.min(31) { if m >> (b / 8) & 1 != 0 { dep = true; } }
                    if dep { out |= 1 << j; }
                }
                t[kind][k as usize][m as usize] = out;
            }
        }
    }
    t
}

/// The taint tracker (an `Observer`).
pub struct CtChecker {
    /// register byte masks
    pub regs: [u8; 32],
    pub mem: Shadow,
    /// taint of the custom-extension state (xcarry's carry bit)
    pub carry: bool,
    csr: HashMap<u32, u8>,
    /// DIV/REM latency depends on the operands in the core model
    pub div_variable: bool,
    /// extension table index -> the instruction reads/writes ExtState (xcarry)
    ext_state: Vec<bool>,
    shift: Box<[[[u8; 16]; 32]; 3]>,
    addr: u32,
    mem_seen: bool,
    sites: HashMap<(u32, Kind), u64>,
    /// bytes marked secret (CLI and run time), for the summary
    pub marked_bytes: u64,
    pub runtime_marks: u64,
    pub runtime_declass: u64,
}

impl CtChecker {
    pub fn new(table: &[crate::ext::ExtInsn], div_variable: bool) -> CtChecker {
        CtChecker {
            regs: [0; 32],
            mem: Shadow::new(),
            carry: false,
            csr: HashMap::new(),
            div_variable,
            ext_state: table.iter().map(|e| e.ext == "xcarry").collect(),
            shift: shift_tables(),
            addr: 0,
            mem_seen: false,
            sites: HashMap::new(),
            marked_bytes: 0,
            runtime_marks: 0,
            runtime_declass: 0,
        }
    }

    /// Mark `len` bytes at `addr` secret.
    pub fn mark_secret(&mut self, addr: u32, len: u32) {
        self.mem.set_range(addr, len, true);
        self.marked_bytes += len as u64;
    }

    #[cold]
    #[inline(never)]
    fn report(&mut self, pc: u32, kind: Kind) { *self.sites.entry((pc, kind)).or_insert(0) += 1; }

    /// Violation sites sorted by pc, then kind.
    pub fn violations(&self) -> Vec<Violation> {
        let mut v: Vec<Violation> = self.sites.iter().map(|(&(pc, kind), &count)| Violation { pc, kind, count }).collect();
        v.sort_by_key(|x| (x.pc, x.kind));
        v
    }
}

impl Observer for CtChecker {
    const ACTIVE: bool = true;

    #[inline(always)]
    fn mem(&mut self, _pc: u32, addr: u32, _size: u32, _store: bool) {
        self.addr = addr;
        self.mem_seen = true;
    }

    fn semihost(&mut self, _pc: u32, op: u32, arg: u32, mem: &Memory) {
        if op != SYS_CT_SECRET && op != SYS_CT_PUBLIC { return; }
        let word = |a: u32| -> Option<u32> {
            let mut v = 0u32;
            for i in 0..4 { v |= (mem.peek8(a.wrapping_add(i)).ok()? as u32) << (8 * i); }
            Some(v)
        };
        // an unreadable block is reported by the semihosting call itself
        let (Some(p), Some(n)) = (word(arg), word(arg.wrapping_add(4))) else { return };
        if op == SYS_CT_SECRET {
            self.mark_secret(p, n);
            self.runtime_marks += 1;
        } else {
            self.mem.set_range(p, n, false);
            self.runtime_declass += 1;
        }
    }

    #[inline(always)]
    fn insn(&mut self, pc: u32, d: &Decoded, _rd_val: u32, _cycle: u64, _stalls: &[u64; 6], _mem: &Memory) {
        let r = &self.regs;
        let t1 = r[d.rs1 as usize];
        let t2 = r[d.rs2 as usize];
        let imm = d.imm;
        let seen = std::mem::replace(&mut self.mem_seen, false);
        let out: u8 = match d.op {
            Op::Addi => up(t1),
            Op::Add | Op::Sub => up(t1 | t2),
            Op::Lui | Op::Auipc | Op::Jal => 0,
            Op::Jalr => { if t1 != 0 { self.report(pc, Kind::IndirectJump); } 0 }
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                if t1 | t2 != 0 { self.report(pc, Kind::Branch); }
                0
            }
            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu => {
                if t1 != 0 { self.report(pc, Kind::LoadAddress); }
                match d.op {
                    Op::Lw => self.mem.load_mask(self.addr, 4),
                    Op::Lbu => self.mem.load_mask(self.addr, 1),
                    Op::Lhu => self.mem.load_mask(self.addr, 2),
                    Op::Lb => { let m = self.mem.load_mask(self.addr, 1); if m != 0 { ALL } else { 0 } }
                    _ => { let m = self.mem.load_mask(self.addr, 2); if m & 2 != 0 { ALL } else { m } }
                }
            }
            Op::Sb | Op::Sh | Op::Sw => {
                if t1 != 0 { self.report(pc, Kind::StoreAddress); }
                let n = match d.op { Op::Sb => 1, Op::Sh => 2, _ => 4 };
                self.mem.store_mask(self.addr, n, t2);
                0
            }
            Op::Slti | Op::Sltiu => bit(t1),
            Op::Slt | Op::Sltu => bit(t1 | t2),
            Op::Xori | Op::Ori => t1,
            Op::Andi => {
                // bytes where the (sign-extended) immediate is zero become constant 0
                let mut keep = 0u8;
                for j in 0..4 { if (imm as u32 >> (8 * j)) & 0xff != 0 { keep |= 1 << j; } }
                t1 & keep
            }
            Op::Slli => self.shift[0][(imm & 31) as usize][t1 as usize],
            Op::Srli => self.shift[1][(imm & 31) as usize][t1 as usize],
            Op::Srai => self.shift[2][(imm & 31) as usize][t1 as usize],
            Op::Sll | Op::Srl | Op::Sra => if t2 & 1 != 0 { ALL } else { smear(t1) },
            Op::Xor | Op::Or | Op::And => t1 | t2,
            // low product byte j depends only on operand bytes 0..=j
            Op::Mul => up(t1 | t2),
            Op::Mulh | Op::Mulhsu | Op::Mulhu => smear(t1 | t2),
            Op::Div | Op::Divu | Op::Rem | Op::Remu => {
                if self.div_variable && t1 | t2 != 0 { self.report(pc, Kind::VariableLatency); }
                smear(t1 | t2)
            }
            Op::ExtR | Op::ExtI | Op::ExtBs => {
                // default flow: every input mixes into rd (and the custom state, if any)
                let mut m = smear(t1 | t2 | r[d.rs3 as usize]);
                if self.ext_state.get(d.ext as usize).copied().unwrap_or(false) {
                    if self.carry { m = ALL; }
                    self.carry = m != 0;
                }
                m
            }
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                let csr = (imm & 0xfff) as u32;
                let old = self.csr.get(&csr).copied().unwrap_or(0);
                let src = match d.op { Op::Csrrw | Op::Csrrs | Op::Csrrc => t1, _ => 0 };
                let new = match d.op { Op::Csrrw | Op::Csrrwi => src, _ => old | src };
                if new != old { self.csr.insert(csr, new); }
                old
            }
            Op::LrW => {
                if t1 != 0 { self.report(pc, Kind::LoadAddress); }
                self.mem.load_mask(self.addr, 4)
            }
            Op::ScW => {
                if t1 != 0 { self.report(pc, Kind::StoreAddress); }
                if seen { self.mem.store_mask(self.addr, 4, t2); }
                0
            }
            Op::AmoswapW | Op::AmoaddW | Op::AmoxorW | Op::AmoandW | Op::AmoorW
            | Op::AmominW | Op::AmomaxW | Op::AmominuW | Op::AmomaxuW => {
                if t1 != 0 { self.report(pc, Kind::StoreAddress); }
                let old = self.mem.load_mask(self.addr, 4);
                let new = match d.op {
                    Op::AmoswapW => t2,
                    Op::AmoxorW | Op::AmoandW | Op::AmoorW => old | t2,
                    Op::AmoaddW => up(old | t2),
                    _ => smear(old | t2),
                };
                self.mem.store_mask(self.addr, 4, new);
                old
            }
            Op::Ebreak => { self.regs[10] = 0; 0 } // semihosting result in a0 is public
            Op::Fence | Op::FenceI | Op::Ecall | Op::Trap | Op::Undecoded => 0,
        };
        self.regs[d.rd as usize] = out;
        self.regs[0] = 0;
    }
}

/// Resolve one `--secret` spec: `ADDR:LEN`, `SYMBOL` (size from the symbol table) or
/// `SYMBOL:LEN`. Numbers are decimal or 0x-hex. A length of 0 marks nothing but still
/// enables the checker (for programs that mark their secrets at run time).
pub fn parse_secret(spec: &str, symbols: &[Symbol]) -> Result<(u32, u32), String> {
    let num = |s: &str| -> Option<u64> {
        let s = s.replace('_', "");
        if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) { u64::from_str_radix(h, 16).ok() } else { s.parse().ok() }
    };
    let (head, len) = match spec.rsplit_once(':') {
        Some((h, l)) => {
            let n = num(l).ok_or_else(|| format!("--secret '{spec}': length '{l}' is not a number"))?;
            (h, Some(n))
        }
        None => (spec, None),
    };
    if head.is_empty() { return Err(format!("--secret '{spec}': empty address/symbol")); }
    let starts_digit = head.as_bytes()[0].is_ascii_digit();
    let (addr, len) = if starts_digit {
        let a = num(head).ok_or_else(|| format!("--secret '{spec}': address '{head}' is not a number"))?;
        let l = len.ok_or_else(|| format!("--secret '{spec}': a numeric address needs a length (ADDR:LEN)"))?;
        (a, l)
    } else {
        let s = symbols.iter().find(|s| s.name == head).ok_or_else(|| format!("--secret '{spec}': no symbol '{head}' in the ELF symbol table"))?;
        let l = match len {
            Some(l) => l,
            None if s.size > 0 => s.size as u64,
            None => return Err(format!("--secret '{spec}': symbol '{head}' has size 0 in the symbol table; give SYMBOL:LEN")),
        };
        (s.addr as u64, l)
    };
    if addr > u32::MAX as u64 || addr + len > 1u64 << 32 { return Err(format!("--secret '{spec}': range exceeds the 32-bit address space")); }
    Ok((addr as u32, len as u32))
}

/// Two observers at once (e.g. trace recorder and checker).
impl<A: Observer, B: Observer> Observer for (&mut A, &mut B) {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn insn(&mut self, pc: u32, d: &Decoded, rd_val: u32, cycle: u64, stalls: &[u64; 6], mem: &Memory) {
        self.0.insn(pc, d, rd_val, cycle, stalls, mem);
        self.1.insn(pc, d, rd_val, cycle, stalls, mem);
    }
    #[inline(always)]
    fn mem(&mut self, pc: u32, addr: u32, size: u32, store: bool) {
        self.0.mem(pc, addr, size, store);
        self.1.mem(pc, addr, size, store);
    }
    fn semihost(&mut self, pc: u32, op: u32, arg: u32, mem: &Memory) {
        self.0.semihost(pc, op, arg, mem);
        self.1.semihost(pc, op, arg, mem);
    }
}

/// Source locations `file:line` of `pcs` from the ELF's DWARF line table, through the
/// cross toolchain's addr2line (`RVSIM_ADDR2LINE` overrides the program). None per pc when
/// there is no debug info or the tool is unavailable.
pub fn source_lines(elf_path: &str, pcs: &[u32]) -> Vec<Option<String>> {
    let none = vec![None; pcs.len()];
    if pcs.is_empty() { return none; }
    let tool = std::env::var("RVSIM_ADDR2LINE").unwrap_or_else(|_| "riscv64-unknown-elf-addr2line".into());
    let out = std::process::Command::new(tool).arg("-e").arg(elf_path)
        .args(pcs.iter().map(|p| format!("0x{p:08x}"))).stderr(std::process::Stdio::null()).output();
    let Ok(out) = out else { return none };
    if !out.status.success() { return none; }
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != pcs.len() { return none; }
    lines.iter().map(|l| {
        let l = l.split(" (discriminator").next().unwrap_or(l).trim();
        if l.starts_with("??") || l.ends_with(":0") || l.ends_with(":?") { None } else { Some(l.to_string()) }
    }).collect()
}

/// One violation site, resolved for output.
#[derive(Clone, Debug)]
pub struct Site { pub v: Violation, pub function: Option<String>, pub offset: u32, pub line: Option<String>, pub insn: String }

/// The checker's result, ready for the human summary and the JSON keys.
pub struct Report { pub sites: Vec<Site>, pub marked_bytes: u64, pub runtime_marks: u64, pub runtime_declass: u64 }

impl Report {
    pub fn new(c: &CtChecker, m: &crate::exec::Machine, elf_path: &str) -> Report {
        let vs = c.violations();
        let pcs: Vec<u32> = vs.iter().map(|v| v.pc).collect();
        let lines = source_lines(elf_path, &pcs);
        let sites = vs.into_iter().zip(lines).map(|(v, line)| {
            let (f, lo, _) = m.func_of(v.pc);
            let function = m.functions.get(f).map(|s| s.name.clone());
            let insn = m.mem.fetch(v.pc).map(|w| crate::disasm::disasm_word(w, v.pc, m.table)).unwrap_or_default();
            Site { offset: if function.is_some() { v.pc - lo } else { 0 }, v, function, line, insn }
        }).collect();
        Report { sites, marked_bytes: c.marked_bytes, runtime_marks: c.runtime_marks, runtime_declass: c.runtime_declass }
    }

    pub fn constant_time(&self) -> bool { self.sites.is_empty() }

    pub fn human(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let events: u64 = self.sites.iter().map(|x| x.v.count).sum();
        let _ = writeln!(s, "rvsim: constant-time check: {} ({} secret bytes marked, {} run-time marks, {} declassifications)",
            if self.sites.is_empty() { "no violations".to_string() } else { format!("{} violation sites, {} events", self.sites.len(), events) },
            self.marked_bytes, self.runtime_marks, self.runtime_declass);
        for x in &self.sites {
            let f = match &x.function { Some(n) => format!("{n}+0x{:x}", x.offset), None => "<unknown>".into() };
            let _ = writeln!(s, "  0x{:08x} {:<16} {:>10}x  {:<28} {}{}", x.v.pc, x.v.kind.name(), x.v.count, f, x.insn,
                x.line.as_ref().map(|l| format!("  ({l})")).unwrap_or_default());
        }
        s
    }

    pub fn add_json(&self, obj: &mut serde_json::Map<String, serde_json::Value>) {
        use serde_json::json;
        let list: Vec<serde_json::Value> = self.sites.iter().map(|x| json!({
            "pc": format!("0x{:08x}", x.v.pc),
            "function": x.function,
            "offset": x.offset,
            "line": x.line,
            "kind": x.v.kind.name(),
            "count": x.v.count,
            "insn": x.insn,
        })).collect();
        obj.insert("ct_violations".into(), json!(list));
        obj.insert("constant_time".into(), json!(self.constant_time()));
    }
}

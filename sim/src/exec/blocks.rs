//! The block engine: the fast path of `Machine::run` when no observer watches.
//!
//! A block is a straight-line run of decoded instructions from an entry pc up to and
//! including the first branch or jump, built the first time that pc is reached. Its
//! instructions execute back to back without per-instruction bookkeeping, and its timing is
//! the plan the core model worked out once (`Timing::plan`), applied in one step when the
//! state at entry allows it and otherwise replayed instruction by instruction
//! (`Timing::issue`). Every statistic equals what the per-instruction loop (`run_inner`)
//! gives, which `rvsim --no-blocks` runs instead (tests compare the two).
//!
//! What a block does not hold is left to `run_inner`, one instruction at a time: CSR
//! accesses (they read the cycle counter), DIV/REM (operand-dependent latency), atomics,
//! `ecall`/`ebreak`/`mret`/`wfi`, anything that does not decode. An instruction of a block
//! that would trap (a faulting load or store, a misaligned jump target) or write into the
//! decoded code range ends the block before it executes; `run_inner` then executes it.

use super::{alu, is_ctrl, Machine, Observer};
use crate::decode::{Decoded, Op};
use crate::timing::{BlockPlan, Timing, N_STALLS};

/// `Blocks::at` values besides a block index.
const NONE: u32 = u32::MAX;
const NOT_A_BLOCK: u32 = u32::MAX - 1;
/// Longest block (instructions): bounds the work of building one and of an invalidation.
const MAX_LEN: usize = 1024;
/// Decoded instructions kept in blocks per decode-cache slot (plus a floor): code that
/// rewrites itself in a loop builds a new block each time round, and a dropped block's
/// instructions stay in `Blocks::insns`; past this bound every block is dropped and rebuilt
/// when next reached, so host memory stays bounded whatever the guest does.
const KEPT_PER_SLOT: usize = 16;
const KEPT_MIN: usize = 1 << 16;

struct Block {
    /// pc of the first instruction and of the one after the last
    start: u32,
    end: u32,
    /// decode-cache slot of the first instruction; its instructions in `Blocks::insns`
    slot: u32,
    first: u32,
    n: u32,
    /// ends with a branch or jump
    ctrl: bool,
    /// complete executions (folded into the decode-cache counts by `flush`)
    count: u64,
    plan: BlockPlan,
}

#[derive(Default)]
pub(crate) struct Blocks {
    /// per decode-cache slot: the block starting there, NONE or NOT_A_BLOCK
    at: Vec<u32>,
    list: Vec<Block>,
    insns: Vec<Decoded>,
    /// per decode-cache slot: some block (live or dead) holds the instruction there
    covered: Vec<bool>,
}

impl Blocks {
    pub(crate) fn new(slots: usize) -> Blocks {
        Blocks { at: vec![NONE; slots], covered: vec![false; slots], ..Blocks::default() }
    }
}

/// Can this instruction be part of a block (see the module comment)?
fn in_block(d: &Decoded) -> bool {
    !matches!(d.op,
        Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci
        | Op::Div | Op::Divu | Op::Rem | Op::Remu
        | Op::LrW | Op::ScW | Op::AmoswapW | Op::AmoaddW | Op::AmoxorW | Op::AmoandW | Op::AmoorW
        | Op::AmominW | Op::AmomaxW | Op::AmominuW | Op::AmomaxuW
        | Op::Ecall | Op::Ebreak | Op::Mret | Op::Wfi | Op::Trap | Op::Undecoded)
}

impl Machine {
    /// The block starting at decode-cache slot `idx`, built now if there is none yet;
    /// None if the instruction there cannot start one.
    #[inline(always)]
    fn block_at<T: Timing>(&mut self, idx: usize, t: &T) -> Option<u32> {
        match self.blocks.at[idx] {
            NONE => self.build_block(idx, t),
            NOT_A_BLOCK => None,
            b => Some(b),
        }
    }

    #[cold]
    #[inline(never)]
    fn build_block<T: Timing>(&mut self, idx: usize, t: &T) -> Option<u32> {
        if self.blocks.insns.len() + MAX_LEN > KEPT_MIN.max(KEPT_PER_SLOT * self.blocks.at.len()) {
            self.reset_blocks();
        }
        let start = self.dbase.wrapping_add(2 * idx as u32);
        let first = self.blocks.insns.len();
        // a block stays inside one function, so that per-function statistics can switch
        // between blocks
        let (_, _, func_end) = self.func_of(start);
        let (mut i, mut pc, mut ctrl) = (idx, start, false);
        while i < self.dcache.len() && self.blocks.insns.len() - first < MAX_LEN && pc < func_end {
            let d = self.dcache[i].d;
            // with a stack limit, a write to sp is checked one instruction at a time
            if !in_block(&d) || (d.rd == 2 && self.stack_limit.is_some()) { break; }
            self.blocks.insns.push(d);
            self.blocks.covered[i] = true;
            pc = pc.wrapping_add(d.len as u32);
            i += d.len as usize / 2;
            if is_ctrl(&d) { ctrl = true; break; }
        }
        let n = self.blocks.insns.len() - first;
        if n == 0 {
            self.blocks.at[idx] = NOT_A_BLOCK;
            return None;
        }
        let plan = t.plan(start, &self.blocks.insns[first..]);
        let b = self.blocks.list.len() as u32;
        self.blocks.list.push(Block { start, end: pc, slot: idx as u32, first: first as u32, n: n as u32, ctrl, count: 0, plan });
        self.blocks.at[idx] = b;
        Some(b)
    }

    /// Run blocks from `*pcref` until the next instruction is one for `run_inner` (or the
    /// instruction budget would run out inside the next block).
    #[inline(never)]
    pub(super) fn run_blocks<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pcref: &mut u32) {
        const NO_STALLS: [u64; N_STALLS] = [0; N_STALLS];
        let check_align = !self.isa.c;
        let mut pc = *pcref;
        loop {
            let idx = (pc.wrapping_sub(self.dbase) >> 1) as usize;
            if idx >= self.blocks.at.len() { break; }
            let Some(b) = self.block_at(idx, t) else { break };
            let blk = &self.blocks.list[b as usize];
            let (first, n, ctrl, end) = (blk.first as usize, blk.n as usize, blk.ctrl, blk.end);
            if self.instret + n as u64 > self.max_insns { break; }
            // the straight-line part
            let body = n - ctrl as usize;
            let mut ipc = pc;
            let mut k = 0;
            while k < body {
                let d = self.blocks.insns[first + k];
                let a = self.x[d.rs1_i()];
                let bv = self.x[d.rs2_i()];
                let addr = a.wrapping_add(d.imm as u32);
                macro_rules! load { ($n:literal, $conv:expr) => {{
                    let v = match self.mem.read::<$n>(addr) { Ok(v) => $conv(v), Err(_) => break };
                    if O::ACTIVE { obs.mem(ipc, addr, $n, false); }
                    v
                }}}
                macro_rules! store { ($n:literal) => {{
                    // a store into the decoded code range goes to run_inner (it re-decodes)
                    if addr.wrapping_sub(self.dbase) < self.dspan.wrapping_add(4) { break; }
                    if self.mem.write::<$n>(addr, bv).is_err() { break; }
                    if O::ACTIVE { obs.mem(ipc, addr, $n, true); }
                    if self.reservation == Some(addr & !3) { self.reservation = None; }
                    0
                }}}
                let v = match d.op {
                    Op::Lw => load!(4, |v| v),
                    Op::Sw => store!(4),
                    Op::Lbu => load!(1, |v| v),
                    Op::Lhu => load!(2, |v| v),
                    Op::Lb => load!(1, |v: u32| v as u8 as i8 as i32 as u32),
                    Op::Lh => load!(2, |v: u32| v as u16 as i16 as i32 as u32),
                    Op::Sb => store!(1),
                    Op::Sh => store!(2),
                    Op::Auipc => ipc.wrapping_add(d.imm as u32),
                    Op::ExtR | Op::ExtI | Op::ExtBs => self.ext(&d, a, bv),
                    op => alu(op, a, bv, d.imm),
                };
                self.write_rd(d.rd_i(), v);
                if O::ACTIVE { obs.insn(ipc, &d, self.x[d.rd_i()], 0, &NO_STALLS, &self.mem); }
                ipc = ipc.wrapping_add(d.len as u32);
                k += 1;
            }
            if k < body {
                self.partial_block(b, k, t);
                *pcref = ipc;
                return;
            }
            // the branch or jump that ends the block
            let mut next = end;
            if ctrl {
                let d = self.blocks.insns[first + body];
                let a = self.x[d.rs1_i()];
                let bv = self.x[d.rs2_i()];
                let taken = match d.op {
                    Op::Beq => a == bv,
                    Op::Bne => a != bv,
                    Op::Blt => (a as i32) < (bv as i32),
                    Op::Bge => (a as i32) >= (bv as i32),
                    Op::Bltu => a < bv,
                    Op::Bgeu => a >= bv,
                    _ => true,
                };
                if taken {
                    next = if d.op == Op::Jalr { a.wrapping_add(d.imm as u32) & !1 } else { ipc.wrapping_add(d.imm as u32) };
                    if check_align && next & 3 != 0 {
                        self.partial_block(b, body, t);
                        *pcref = ipc;
                        return;
                    }
                }
                if d.op == Op::Jal || d.op == Op::Jalr { self.write_rd(d.rd_i(), end); }
                if O::ACTIVE { obs.insn(ipc, &d, self.x[d.rd_i()], 0, &NO_STALLS, &self.mem); }
                self.finish_block(b, t);
                t.control(ipc, &d, taken, next);
                let link = (d.op == Op::Jal || d.op == Op::Jalr) && (d.rd == 1 || d.rd == 5);
                if link || next < self.cur_lo || next >= self.cur_hi {
                    self.switch_func(next, t.cycles(), link);
                }
            } else {
                self.finish_block(b, t);
                if next < self.cur_lo || next >= self.cur_hi { self.switch_func(next, t.cycles(), false); }
            }
            pc = next;
        }
        *pcref = pc;
    }

    /// x[rd] = v (x0 stays 0), tracking the lowest stack pointer.
    #[inline(always)]
    fn write_rd(&mut self, rd: usize, v: u32) {
        if rd != 0 { self.x[rd] = v; }
        if rd == 2 {
            if self.init_sp.is_none() { self.init_sp = Some(v); }
            self.min_sp = self.min_sp.min(v);
        }
    }

    /// Block `b` executed completely: count it, issue it.
    #[inline(always)]
    fn finish_block<T: Timing>(&mut self, b: u32, t: &mut T) {
        let blk = &mut self.blocks.list[b as usize];
        blk.count += 1;
        let n = blk.n as usize;
        self.instret += n as u64;
        if !t.issue_block(&blk.plan) {
            self.issue_each(b, n, t);
        }
    }

    /// Only the first `k` instructions of block `b` executed: count and issue them one by one.
    #[cold]
    #[inline(never)]
    fn partial_block<T: Timing>(&mut self, b: u32, k: usize, t: &mut T) {
        let blk = &self.blocks.list[b as usize];
        let mut i = blk.slot as usize;
        for d in &self.blocks.insns[blk.first as usize..][..k] {
            self.dcache[i].count += 1;
            i += d.len as usize / 2;
        }
        self.instret += k as u64;
        self.issue_each(b, k, t);
    }

    /// `Timing::issue` for the first `k` instructions of block `b` (they need no register
    /// values: the only operand-dependent latency, DIV's, is not in blocks).
    #[inline(never)]
    fn issue_each<T: Timing>(&self, b: u32, k: usize, t: &mut T) {
        let blk = &self.blocks.list[b as usize];
        let mut pc = blk.start;
        for d in &self.blocks.insns[blk.first as usize..][..k] {
            t.issue(pc, d, &self.x);
            pc = pc.wrapping_add(d.len as u32);
        }
    }

    /// Fold the execution counts of every block into the decode-cache slots.
    pub(super) fn flush_block_counts(&mut self) {
        for b in 0..self.blocks.list.len() {
            self.flush_block(b);
        }
    }

    /// Drop every block (their counts folded into the decode-cache slots first).
    #[cold]
    #[inline(never)]
    fn reset_blocks(&mut self) {
        self.flush_block_counts();
        self.blocks.list.clear();
        self.blocks.insns.clear();
        self.blocks.at.fill(NONE);
        self.blocks.covered.fill(false);
    }

    /// Instructions held in blocks, dropped ones included (bounded, see KEPT_PER_SLOT).
    pub fn block_insns_kept(&self) -> usize { self.blocks.insns.len() }

    fn flush_block(&mut self, b: usize) {
        let blk = &mut self.blocks.list[b];
        let c = std::mem::take(&mut blk.count);
        if c == 0 { return; }
        let mut i = blk.slot as usize;
        for d in &self.blocks.insns[blk.first as usize..][..blk.n as usize] {
            self.dcache[i].count += c;
            i += d.len as usize / 2;
        }
    }

    /// Decode-cache slots `first..=last` (inside the cache) are about to be re-decoded: drop every block that
    /// holds one of them (after folding its counts into the slots).
    pub(super) fn drop_blocks(&mut self, first: usize, last: usize) {
        if !self.blocks.covered[first..=last].iter().any(|&c| c) { return; }
        for b in 0..self.blocks.list.len() {
            let blk = &self.blocks.list[b];
            let (lo, hi) = (blk.slot as usize, (blk.slot + (blk.end - blk.start) / 2) as usize);
            if lo <= last && hi > first && self.blocks.at[lo] == b as u32 {
                self.flush_block(b);
                self.blocks.at[lo] = NONE;
            }
        }
    }
}

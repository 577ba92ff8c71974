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
//! A body instruction runs through `Machine::step`, one match over the instruction's `Kind`
//! calling the helpers of exec/semantics.rs, compiled once per op (`op_dispatch!`) and per
//! observer, so that the constant-time checker's work is specialised to the op as well.
//! Loads and stores first try `step`'s fast form, which makes no call; what it leaves
//! (another memory region, a fault, a checker report) goes to `thread_slow` and `step`.
//! While blocks run, their storage is taken out of the machine, so that a step gets the
//! machine mutably and its instruction by reference. An observer may take a long body after
//! the fact instead (`Observer::block_begin`: the constant-time checker's memo of a block's
//! taint transfer); the body then runs with only its data addresses recorded (`AddrLog`).
//!
//! What a block does not hold is left to `run_inner`, one instruction at a time: CSR
//! accesses (they read the cycle counter), DIV/REM (operand-dependent latency), atomics,
//! `ecall`/`ebreak`/`mret`/`wfi`, anything that does not decode. An instruction of a block
//! that would trap (a faulting load or store, a misaligned jump target) or write into the
//! decoded code range ends the block before it executes; `run_inner` then executes it.

use super::semantics::{self, is_link};
use super::{AddrLog, Machine, NoObserver, Observer};
use crate::decode::{op_table, Ctrl, Decoded, Kind, Op};
use crate::timing::{BlockPlan, Counters, Timing, N_STALLS};

/// `Blocks::at` values besides a block index.
const NONE: u32 = u32::MAX;
const NOT_A_BLOCK: u32 = u32::MAX - 1;
/// Longest block (instructions): bounds the work of building one and of an invalidation.
const MAX_LEN: usize = 1024;
// (a body's loads and stores fit the address log of `run_body_logged`)
const _: () = assert!(MAX_LEN <= super::ADDR_LOG);
/// Decoded instructions kept in blocks per decode-cache slot (plus a floor): code that
/// rewrites itself in a loop builds a new block each time round, and a dropped block's
/// instructions stay in `Blocks::insns`; past this bound no block is built, and the next
/// `run_blocks` drops them all (rebuilt when next reached), so host memory stays bounded
/// whatever the guest does.
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
    /// the branch or jump it ends with
    ctrl: Option<Ctrl>,
    /// no instruction of its body writes x0 or sp (`run_body`'s fast form)
    plain: bool,
    /// no instruction of its body accesses memory (`Observer::idle_on_registers`)
    regs_only: bool,
    /// the block its fall-through [0] and its taken branch or jump [1] went to last (NONE:
    /// not yet): tried before the lookup by pc (`Blocks::at`)
    succ: [u32; 2],
    /// complete executions (folded into the decode-cache counts by `flush`)
    count: u64,
    plan: BlockPlan,
}

/// Most block executions in one trip of a loop that `Trip` follows.
const TRIP_MAX: usize = 256;
/// Returns to a loop's head whose timing state `Trip` compares with the states at the returns
/// before (a trip may span several iterations: a branch that alternates has a period of two).
const TRIP_MARKS: usize = 8;
/// A steady state that ends within this many trips counts as a failure (`TRIP_BACKOFF_MIN`).
const TRIP_SHORT: u64 = 4;
/// Backward transfers to let pass after a loop gave no fixed point, before following another
/// (doubled after each failure, up to TRIP_BACKOFF_MAX; reset by a loop that gave one).
const TRIP_BACKOFF_MIN: u32 = 4;
const TRIP_BACKOFF_MAX: u32 = 1 << 16;

/// A loop of several blocks in `run_blocks_in`. From a backward transfer to its head, the
/// blocks run as usual and each (block, exit) is recorded; at each return to the head the
/// timing state (`Timing::snapshot`) is compared with the ones at the returns before. When it
/// equals one of them, the timing model is deterministic and has come back to the same state
/// (shifted in time) after the path since then, so every further trip along exactly that
/// path would take the same cycles and change the statistics by the same amounts
/// (`per_trip`): in this steady state, blocks run with no timing, each checked against the
/// path, and whole trips are only counted (`deferred`). When a block leaves the path, or
/// the run stops, `leave_trip` applies the deferred trips at once (`Timing::repeat_trip`) and
/// replays the timing of the part of the trip under way, so every statistic is what running
/// each block's timing would have given.
struct Trip {
    /// pc of the loop's head; 0: following none
    head: u32,
    /// the blocks run since following began, with the exit each took (true: the taken one)
    path: Vec<(u32, bool)>,
    /// the timing state at each return to the head (`Timing::snapshot`, one after the other,
    /// all of one length), and the counters and the length of path then
    snaps: Vec<u64>,
    marks: Vec<(Counters, usize)>,
    scratch: Vec<u64>,
    steady: bool,
    /// in the steady state: where in path the next block is, the counters of one trip, and
    /// the whole trips whose timing is deferred
    pos: usize,
    per_trip: Counters,
    deferred: u64,
    cooldown: u32,
    backoff: u32,
}

impl Default for Trip {
    fn default() -> Self {
        Trip { head: 0, path: Vec::new(), snaps: Vec::new(), marks: Vec::new(), scratch: Vec::new(), steady: false, pos: 0,
               per_trip: Counters::default(), deferred: 0, cooldown: 0, backoff: TRIP_BACKOFF_MIN }
    }
}

impl Trip {
    fn idle(&self) -> bool { self.head == 0 }

    /// In the steady state: is block `b` leaving by `taken` the next step of the path? If so,
    /// step on.
    #[inline(always)]
    fn expects(&mut self, b: u32, taken: bool) -> bool {
        if self.path[self.pos] != (b, taken) { return false; }
        self.pos += 1;
        if self.pos == self.path.len() {
            self.pos = 0;
            self.deferred += 1;
        }
        true
    }

    /// A backward transfer to `head`: follow the loop from there, unless cooling down (the
    /// common case after a failure: counted here, in line, without the call).
    #[inline(always)]
    fn backward<T: Timing>(&mut self, t: &T, head: u32) {
        if self.cooldown > 0 { self.cooldown -= 1; } else { self.begin(t, head); }
    }

    /// Follow the loop from `head`.
    #[cold]
    #[inline(never)]
    fn begin<T: Timing>(&mut self, t: &T, head: u32) {
        self.head = head;
        t.snapshot(&mut self.snaps);
        self.marks.push((t.counters(), 0));
    }

    /// Block `b` ran as usual and went on to `next` by its exit `taken`; `ok`: a transfer a
    /// trip may hold.
    #[inline(always)]
    fn record<T: Timing>(&mut self, t: &T, b: u32, taken: bool, next: u32, ok: bool) {
        self.path.push((b, taken));
        if !ok || self.path.len() > TRIP_MAX {
            self.give_up();
        } else if next == self.head {
            self.returned(t);
        }
    }

    /// Back at the head: the steady state, if the timing state is one seen at an earlier return.
    #[cold]
    #[inline(never)]
    fn returned<T: Timing>(&mut self, t: &T) {
        self.scratch.clear();
        t.snapshot(&mut self.scratch);
        let now = t.counters();
        // the same state as at an earlier return, after a path that also ran just before that
        // one (a path seen once is often not the loop's: an `if` in the body may alternate)
        let (len, w) = (self.path.len(), self.scratch.len());
        let repeats = |at: usize| at >= len - at && self.path[at..] == self.path[2 * at - len..at];
        let same = |j: usize| self.snaps[j * w..(j + 1) * w] == self.scratch[..];
        if let Some(j) = (0..self.marks.len()).rev().find(|&j| same(j) && repeats(self.marks[j].1)) {
            let (then, at) = self.marks[j];
            self.per_trip = now.since(&then);
            self.path.drain(..at);
            self.snaps.clear();
            self.marks.clear();
            self.steady = true;
            self.pos = 0;
            self.deferred = 0;
            self.backoff = TRIP_BACKOFF_MIN;
        } else if self.marks.len() == TRIP_MARKS {
            self.give_up();
        } else {
            self.snaps.extend_from_slice(&self.scratch);
            self.marks.push((now, len));
        }
    }

    fn give_up(&mut self) {
        self.reset();
        self.cooldown = self.backoff;
        self.backoff = (2 * self.backoff).min(TRIP_BACKOFF_MAX);
    }

    fn reset(&mut self) {
        self.head = 0;
        self.path.clear();
        self.snaps.clear();
        self.marks.clear();
        self.steady = false;
        self.pos = 0;
        self.deferred = 0;
    }
}

#[derive(Default)]
pub(crate) struct Blocks {
    /// the loop `run_blocks_in` follows (kept here for its buffers; left at every return)
    trip: Option<Box<Trip>>,
    /// per decode-cache slot: the block starting there, NONE or NOT_A_BLOCK
    at: Vec<u32>,
    list: Vec<Block>,
    insns: Vec<Decoded>,
    /// per decode-cache slot: some block (live or dead) holds the instruction there
    covered: Vec<bool>,
    /// times every block was dropped (`reset_blocks`): with a block's index, its id for
    /// `Observer::block_begin`
    epoch: u32,
}

impl Blocks {
    pub(crate) fn new(slots: usize) -> Blocks {
        Blocks { at: vec![NONE; slots], covered: vec![false; slots], ..Blocks::default() }
    }

    /// No room for another block of MAX_LEN instructions (see KEPT_PER_SLOT).
    fn full(&self) -> bool { self.insns.len() + MAX_LEN > KEPT_MIN.max(KEPT_PER_SLOT * self.at.len()) }
}

const NO_STALLS: [u64; N_STALLS] = [0; N_STALLS];

type Thread<O> = fn(&mut Machine, &mut O, &[Decoded], u32) -> usize;
struct Threads<O, const PLAIN: bool>(std::marker::PhantomData<O>);
impl<O: Observer, const PLAIN: bool> Threads<O, PLAIN> {
    const ALL: [Thread<O>; crate::decode::N_BASE_OPS] = op_table!(K => (|m: &mut Machine, o: &mut O, rest: &[Decoded], pc: u32| m.thread::<O, PLAIN>(o, rest, pc, K)) as Thread<O>);
}

/// Apply the timing of the `deferred` executions of block `b` (a loop in its steady state,
/// see `run_blocks_in`).
#[inline(always)]
fn settle<T: Timing>(bl: &Blocks, b: u32, t: &mut T, deferred: &mut u64) {
    if *deferred > 0 {
        t.repeat_block(&bl.list[b as usize].plan, std::mem::take(deferred));
    }
}

/// Block `b`'s id for `Observer::block_begin`.
#[inline(always)]
fn block_id(bl: &Blocks, b: u32) -> u64 { (bl.epoch as u64) << 32 | b as u64 }

/// The pc after the instructions `done`, run from `pc`.
fn pc_after(pc: u32, done: &[Decoded]) -> u32 { done.iter().fold(pc, |p, d| p.wrapping_add(d.len as u32)) }

/// Can this instruction be part of a block (see the module comment)? A block body holds what
/// `Machine::step` executes; the branch or jump that ends it is handled after the body.
fn in_block(op: Op) -> bool {
    match op.kind() {
        Kind::Alu(_) | Kind::Mul(_) | Kind::Load(_) | Kind::Store(_) | Kind::Ext(_) | Kind::Branch(_) | Kind::Jump(_) => true,
        // operand-dependent latency; the cycle counter; rare
        Kind::Div(_) | Kind::Csr(_) | Kind::Lrsc(_) | Kind::Amo(_) | Kind::System(_) => false,
    }
}

impl Machine {
    /// Execute `d` at `pc` (of kind `kind`) inside a block body: true, or false with no
    /// effect when it would trap or store into the decoded code range (the block ends before
    /// it; run_inner executes it).
    ///
    /// `FAST`: the common case, with no call on its path (a call would make every thread save
    /// and restore the host's callee-saved registers): a load or store that memory does not
    /// answer as a plain array access (`Memory::read_fast`, `write_fast`) or that the observer
    /// would report on (`Observer::quiet`) gives false with no effect, and `thread_slow` runs
    /// it again without `FAST`.
    #[inline(always)]
    fn step<O: Observer, const PLAIN: bool, const FAST: bool>(&mut self, obs: &mut O, d: &Decoded, pc: u32, kind: Kind) -> bool {
        let a = self.x[d.rs1_i()];
        let b = self.x[d.rs2_i()];
        let addr = a.wrapping_add(d.imm as u32);
        let v = match kind {
            Kind::Alu(op) => semantics::alu(op, pc, a, b, d.imm),
            Kind::Mul(op) => semantics::mul(op, a, b),
            Kind::Load(op) if FAST => {
                if O::ACTIVE && !obs.quiet(d, kind, addr) { return false; }
                let Some(v) = semantics::load_fast(&self.mem, op, addr) else { return false };
                v
            }
            Kind::Load(op) => match self.load(obs, pc, op, addr) { Ok(v) => v, Err(_) => return false },
            Kind::Store(op) => {
                // a store into the decoded code range goes to run_inner (it re-decodes)
                if self.stores_into_code(addr) { return false; }
                if FAST {
                    if O::ACTIVE && !obs.quiet(d, kind, addr) { return false; }
                    if !semantics::store_fast(&mut self.mem, op, addr, b) { return false; }
                } else {
                    if O::ACTIVE { obs.mem(pc, addr, op.size(), true); }
                    if semantics::store(&mut self.mem, op, addr, b).is_err() { return false; }
                }
                self.clear_reservation(addr);
                0
            }
            Kind::Ext(op) => self.ext(d, op),
            // not in a body: it ends at the first branch or jump, and `in_block` keeps the rest out
            Kind::Branch(_) | Kind::Jump(_) | Kind::Div(_) | Kind::Csr(_) | Kind::Lrsc(_) | Kind::Amo(_) | Kind::System(_) =>
                unreachable!("not in a block body"),
        };
        self.write_result::<PLAIN>(d, v);
        // (on the fast path the observer knows that only a store may have rd = x0 when PLAIN)
        if O::ACTIVE {
            if FAST { obs.insn_quiet(pc, d, kind, v, addr, PLAIN, &self.mem); } else { obs.insn(pc, d, kind, v, 0, &NO_STALLS, &self.mem); }
        }
        true
    }

    /// The result `v` of `d` to its register.
    #[inline(always)]
    fn write_result<const PLAIN: bool>(&mut self, d: &Decoded, v: u32) {
        // (a store's rd is x0 and its v 0: writing it keeps x0 0)
        if PLAIN { self.x[d.rd_i()] = v; } else { self.write_rd(d.rd_i(), v); }
    }

    /// The straight-line part of a block from `pc`: how many of its instructions ran (all,
    /// or those before one that would trap or store into the code). `PLAIN`: no instruction
    /// writes x0 or sp (`Block::plain`), so results go to the register file without checks.
    #[inline(always)]
    fn run_body<O: Observer, const PLAIN: bool>(&mut self, obs: &mut O, body: &[Decoded], pc: u32) -> usize {
        let left = match body.first() {
            Some(d) => Threads::<O, PLAIN>::ALL[d.op as usize](self, obs, body, pc),
            None => 0,
        };
        body.len() - left
    }

    /// `run_body` as block `id` needs it: unobserved (see `Observer::idle_on_registers`), for
    /// the observer to take after the fact (`Observer::block_begin`), plain or not.
    #[inline(always)]
    fn run_block_body<O: Observer>(&mut self, obs: &mut O, id: u64, body: &[Decoded], pc: u32, plain: bool, unobserved: bool) -> usize {
        if unobserved { self.run_body_unobserved(body, pc, plain) }
        else if O::BLOCKS && body.len() >= O::BLOCK_MIN { self.run_body_logged(obs, id, body, pc, plain) }
        else { self.run_body_observed(obs, body, pc, plain) }
    }

    #[inline(always)]
    fn run_body_observed<O: Observer>(&mut self, obs: &mut O, body: &[Decoded], pc: u32, plain: bool) -> usize {
        if plain { self.run_body::<O, true>(obs, body, pc) } else { self.run_body::<O, false>(obs, body, pc) }
    }

    /// The body with only its data addresses recorded, for the observer to take after the fact
    /// (`Observer::block_begin`), unless it declines. (Apart: the engine's loop stays as
    /// compact as without it.)
    #[inline(never)]
    fn run_body_logged<O: Observer>(&mut self, obs: &mut O, id: u64, body: &[Decoded], pc: u32, plain: bool) -> usize {
        let Some(buf) = obs.block_begin(id, body) else { return self.run_body_observed(obs, body, pc, plain) };
        let mut log = AddrLog::new(buf);
        let k = if plain { self.run_body::<AddrLog, true>(&mut log, body, pc) } else { self.run_body::<AddrLog, false>(&mut log, body, pc) };
        obs.block_done(id, body, pc, k, log.buf, log.n);
        k
    }

    /// `run_body` without an observer (see `Observer::idle_on_registers`); apart, so that the
    /// engine's loop with an observer stays as compact as without this path.
    #[inline(never)]
    fn run_body_unobserved(&mut self, body: &[Decoded], pc: u32, plain: bool) -> usize {
        if plain { self.run_body::<NoObserver, true>(&mut NoObserver, body, pc) } else { self.run_body::<NoObserver, false>(&mut NoObserver, body, pc) }
    }

    /// The first instruction of `rest` (of kind `kind`) at `pc`, then the next one by a jump
    /// to its thread (a tail call): how many instructions of `rest` did not run.
    #[inline(always)]
    fn thread<O: Observer, const PLAIN: bool>(&mut self, obs: &mut O, rest: &[Decoded], pc: u32, kind: Kind) -> usize {
        let [d, next @ ..] = rest else { return 0 };
        if !self.step::<O, PLAIN, true>(obs, d, pc, kind) { return self.thread_slow::<O, PLAIN>(obs, rest, pc); }
        self.next_thread::<O, PLAIN>(obs, next, pc.wrapping_add(d.len as u32))
    }

    /// `thread` for an instruction the fast `step` left alone (a tail call: the arguments fit
    /// the host's argument registers, so the kind is found again here).
    #[cold]
    #[inline(never)]
    fn thread_slow<O: Observer, const PLAIN: bool>(&mut self, obs: &mut O, rest: &[Decoded], pc: u32) -> usize {
        let [d, next @ ..] = rest else { return 0 };
        if !self.step::<O, PLAIN, false>(obs, d, pc, d.op.kind()) { return rest.len(); }
        self.next_thread::<O, PLAIN>(obs, next, pc.wrapping_add(d.len as u32))
    }

    #[inline(always)]
    fn next_thread<O: Observer, const PLAIN: bool>(&mut self, obs: &mut O, next: &[Decoded], pc: u32) -> usize {
        match next.first() {
            Some(n) => Threads::<O, PLAIN>::ALL[n.op as usize](self, obs, next, pc),
            None => 0,
        }
    }

    /// The block starting at decode-cache slot `idx`, built now if there is none yet;
    /// None if the instruction there cannot start one.
    #[inline(always)]
    fn block_at<T: Timing>(&mut self, bl: &mut Blocks, idx: usize, t: &T) -> Option<u32> {
        match bl.at[idx] {
            NONE => self.build_block(bl, idx, t),
            NOT_A_BLOCK => None,
            b => Some(b),
        }
    }

    #[cold]
    #[inline(never)]
    fn build_block<T: Timing>(&mut self, bl: &mut Blocks, idx: usize, t: &T) -> Option<u32> {
        // run_inner takes this instruction; the next run_blocks makes room
        if bl.full() { return None; }
        let start = self.dbase.wrapping_add(2 * idx as u32);
        let first = bl.insns.len();
        // a block stays inside one function, so that per-function statistics can switch
        // between blocks
        let (_, _, func_end) = self.func_of(start);
        let (mut i, mut pc, mut ctrl) = (idx, start, None);
        // loads and stores whose timing depends on their address run one at a time
        let memory = t.blocks_take_memory();
        while i < self.dcache.len() && bl.insns.len() - first < MAX_LEN && pc < func_end {
            let d = self.decoded(i);
            // with a stack limit, a write to sp is checked one instruction at a time
            if !in_block(d.op) || (d.rd == 2 && self.stack_limit.is_some()) { break; }
            if !memory && matches!(d.op.kind(), Kind::Load(_) | Kind::Store(_)) { break; }
            bl.insns.push(d);
            bl.covered[i] = true;
            pc = pc.wrapping_add(d.len as u32);
            i += d.len as usize / 2;
            ctrl = d.op.control();
            if ctrl.is_some() { break; }
        }
        let n = bl.insns.len() - first;
        if n == 0 {
            bl.at[idx] = NOT_A_BLOCK;
            return None;
        }
        let plan = t.plan(start, &bl.insns[first..]);
        let body = &bl.insns[first..first + n - ctrl.is_some() as usize];
        let plain = body.iter().all(|d| d.rd != 0 && d.rd != 2 || matches!(d.op.kind(), Kind::Store(_)));
        let regs_only = body.iter().all(|d| !matches!(d.op.kind(), Kind::Load(_) | Kind::Store(_)));
        let b = bl.list.len() as u32;
        bl.list.push(Block { start, end: pc, slot: idx as u32, first: first as u32, n: n as u32, ctrl, plain, regs_only, succ: [NONE; 2], count: 0, plan });
        bl.at[idx] = b;
        Some(b)
    }

    /// Run blocks from `*pcref` until the next instruction is one for `run_inner` (or the
    /// instruction budget would run out inside the next block).
    #[inline(never)]
    pub(super) fn run_blocks<T: Timing, O: Observer>(&mut self, t: &mut T, obs: &mut O, pcref: &mut u32) {
        if self.blocks.full() { self.reset_blocks(); }
        let mut bl = std::mem::take(&mut self.blocks);
        // (a pointer: moved in and out cheaply)
        let mut trip = bl.trip.take().unwrap_or_default();
        *pcref = self.run_blocks_in(&mut bl, &mut trip, t, obs, *pcref);
        // (run_trip leaves a steady trip before it returns; one being recorded ends here)
        trip.reset();
        bl.trip = Some(trip);
        self.blocks = bl;
    }

    /// `run_blocks` with the block storage `bl` out of the machine: the pc it stopped at.
    #[inline(always)]
    fn run_blocks_in<T: Timing, O: Observer>(&mut self, bl: &mut Blocks, trip: &mut Trip, t: &mut T, obs: &mut O, mut pc: u32) -> u32 {
        // (read once: without C, a jump to a pc that is not a multiple of 4 traps)
        let check_align = !self.isa.c;
        // the block before and which of its exits led to pc
        let mut from: Option<(u32, usize)> = None;
        // A loop of one block ending in a conditional branch: `clean` counts its executions in a
        // row that issued on time, branched back to its start without penalty and left the
        // predictor settled (`Timing::steady_loop`). After two, each further one would do the
        // same from a state that is the one before's shifted in time (the same results in
        // flight relative to its start, older ones older still):
        // those run with their timing `deferred`, applied at once by `Timing::repeat_block`
        // when the loop ends or the run stops (`settle`). A loop of several blocks: `trip`.
        let (mut clean, mut deferred) = (0u32, 0u64);
        // the observer said `idle_on_registers` and only unobserved blocks ran since (which
        // change nothing it tracks): it would say so again
        let mut idle = false;
        loop {
            // a loop of several blocks in its steady state: run_trip follows its path
            if trip.steady {
                match self.run_trip(bl, trip, t, obs, pc) {
                    Ok((next, f)) => { pc = next; from = f; clean = 0; }
                    Err(stop) => return stop,
                }
            }
            // the previous block's successor, if it still starts at pc; else the block at pc
            let cached = from.map_or(NONE, |(pb, exit)| bl.list[pb as usize].succ[exit]);
            let b = if cached != NONE && bl.list[cached as usize].start == pc { cached } else {
                let idx = (pc.wrapping_sub(self.dbase) >> 1) as usize;
                if idx >= bl.at.len() { return pc; }
                let Some(b) = self.block_at(bl, idx, t) else { return pc };
                if let Some((pb, exit)) = from { bl.list[pb as usize].succ[exit] = b; }
                b
            };
            let blk = &bl.list[b as usize];
            let (n, ctrl, end) = (blk.n as usize, blk.ctrl, blk.end);
            let (insns, plain, regs_only) = (&bl.insns[blk.first as usize..][..n], blk.plain, blk.regs_only);
            // the straight-line part
            let (body, last) = insns.split_at(n - ctrl.is_some() as usize);
            // pc of the branch or jump
            let ipc = end.wrapping_sub(last.first().map_or(0, |d| d.len as u32));
            // Run the block; in a loop's steady state, again and again right here.
            let next = loop {
                if self.instret + n as u64 > self.max_insns {
                    settle(bl, b, t, &mut deferred);
                    return pc;
                }
                // an observer with nothing to do for this block does not see it
                let unobserved = O::ACTIVE && regs_only && (idle || obs.idle_on_registers());
                idle = unobserved;
                let k = self.run_block_body(obs, block_id(bl, b), body, pc, plain, unobserved);
                if k < body.len() {
                    settle(bl, b, t, &mut deferred);
                    self.partial_block(bl, b, k, t);
                    return pc_after(pc, &body[..k]);
                }
                // the branch or jump that ends the block
                let (Some(c), [d]) = (ctrl, last) else {
                    clean = 0;
                    self.finish_block(bl, b, t);
                    self.follow_trip(trip, t, b, false, end, true, false);
                    self.enter(end, t.cycles(), false);
                    from = Some((b, 0));
                    break end;
                };
                let Some((taken, next)) = self.block_exit(obs, c, d, ipc, end, unobserved, check_align) else {
                    settle(bl, b, t, &mut deferred);
                    self.partial_block(bl, b, body.len(), t);
                    return ipc;
                };
                let jump = matches!(c, Ctrl::Jump(_));
                let again = taken && next == pc && !jump;
                if again && clean >= 2 {
                    bl.list[b as usize].count += 1;
                    self.instret += n as u64;
                    deferred += 1;
                    continue;
                }
                settle(bl, b, t, &mut deferred);
                let d = *d;
                self.finish_block(bl, b, t);
                let penalty = t.control(ipc, &d, taken, next);
                let link = jump && is_link(d.rd);
                self.follow_trip(trip, t, b, taken, next, !link && d.op != Op::Jalr, taken && next <= ipc && next != pc);
                self.enter(next, t.cycles(), link);
                from = Some((b, taken as usize));
                clean = if again && penalty == 0 && t.steady_loop(ipc, next) { clean + 1 } else { 0 };
                // a loop of one block inside the loop followed: leave that one to `clean`
                if clean >= 2 && !trip.idle() { trip.give_up(); }
                break next;
            };
            pc = next;
        }
    }

    /// Blocks along the path of `trip` in its steady state (see `Trip`) from `pc`, with their
    /// timing deferred, until one leaves the path: Ok(the pc it went on to, the block and exit
    /// it left by) after the trip was left and that block's timing ran as usual, or Err(pc)
    /// where the run stops (the instruction budget, a fault, ...: as `run_blocks_in`).
    #[inline(never)]
    fn run_trip<T: Timing, O: Observer>(&mut self, bl: &mut Blocks, trip: &mut Trip, t: &mut T, obs: &mut O, mut pc: u32)
                                        -> Result<(u32, Option<(u32, usize)>), u32> {
        let check_align = !self.isa.c;
        loop {
            let b = trip.path[trip.pos].0;
            let blk = &bl.list[b as usize];
            let (n, ctrl, end, plain, regs_only) = (blk.n as usize, blk.ctrl, blk.end, blk.plain, blk.regs_only);
            if blk.start != pc || self.instret + n as u64 > self.max_insns {
                self.leave_trip(&mut bl.list, &bl.insns, t, trip);
                return Ok((pc, None));
            }
            let insns = &bl.insns[blk.first as usize..][..n];
            let (body, last) = insns.split_at(n - ctrl.is_some() as usize);
            let unobserved = O::ACTIVE && regs_only && obs.idle_on_registers();
            let k = self.run_block_body(obs, block_id(bl, b), body, pc, plain, unobserved);
            if k < body.len() {
                let stop = pc_after(pc, &body[..k]);
                self.leave_trip(&mut bl.list, &bl.insns, t, trip);
                self.partial_block(bl, b, k, t);
                return Err(stop);
            }
            // the exit: the branch or jump that ends the block, or the fall-through
            let (taken, next) = match (ctrl, last) {
                (Some(c), [d]) => {
                    let ipc = end.wrapping_sub(d.len as u32);
                    let Some(exit) = self.block_exit(obs, c, d, ipc, end, unobserved, check_align) else {
                        self.leave_trip(&mut bl.list, &bl.insns, t, trip);
                        self.partial_block(bl, b, body.len(), t);
                        return Err(ipc);
                    };
                    exit
                }
                _ => (false, end),
            };
            self.count_block(&mut bl.list, b);
            if trip.expects(b, taken) {
                pc = next;
                continue;
            }
            // it leaves the path: its timing as usual (a path's blocks can be replayed)
            self.leave_trip(&mut bl.list, &bl.insns, t, trip);
            self.replay_block(&mut bl.list, &bl.insns, b, taken, next, t);
            self.enter(next, t.cycles(), false);
            return Ok((next, Some((b, taken as usize))));
        }
    }

    /// A block ran completely, its timing deferred (a trip in its steady state): count it.
    #[inline(always)]
    fn count_block(&mut self, list: &mut [Block], b: u32) {
        let blk = &mut list[b as usize];
        blk.count += 1;
        self.instret += blk.n as u64;
    }

    /// Is `pc` in the function that runs now?
    #[inline(always)]
    fn in_function(&self, pc: u32) -> bool { pc >= self.cur_lo && pc < self.cur_hi }

    /// After block `b`'s timing ran as usual, before control goes on to `next` (`taken`): record
    /// it in the trip being followed, or begin one at `next` after a `backward` transfer (not
    /// to the block itself: `clean` takes those). A trip holds only transfers it can replay
    /// (`replayable`: a branch, or a `jal` that does not link) inside the function that runs
    /// (per-function cycles are settled when it changes).
    #[inline(always)]
    fn follow_trip<T: Timing>(&self, trip: &mut Trip, t: &T, b: u32, taken: bool, next: u32, replayable: bool, backward: bool) {
        if !trip.idle() {
            trip.record(t, b, taken, next, replayable && self.in_function(next));
        } else if backward && replayable && self.in_function(next) {
            trip.backward(t, next);
        }
    }

    /// Leave the trip being followed; in its steady state, apply the deferred trips' timing,
    /// then that of the blocks of the trip under way (as they ran).
    #[cold]
    #[inline(never)]
    fn leave_trip<T: Timing>(&mut self, list: &mut [Block], insns: &[Decoded], t: &mut T, trip: &mut Trip) {
        if trip.steady {
            if trip.deferred > 0 { t.repeat_trip(&trip.per_trip, trip.deferred); }
            self.trips_deferred += trip.deferred;
            // (the path is closed: each block's exit led to the next one's start)
            for i in 0..trip.pos {
                let (b, taken) = trip.path[i];
                let next = list[trip.path[(i + 1) % trip.path.len()].0 as usize].start;
                self.replay_block(list, insns, b, taken, next, t);
            }
            // a steady state that did not last: wait before following the next loop
            if trip.deferred < TRIP_SHORT { trip.give_up(); }
        }
        trip.reset();
    }

    /// The timing of block `b` run once, left by its exit `taken` to `next`.
    fn replay_block<T: Timing>(&self, list: &mut [Block], insns: &[Decoded], b: u32, taken: bool, next: u32, t: &mut T) {
        self.issue_timing(list, insns, b, t);
        let blk = &list[b as usize];
        if blk.ctrl.is_some() {
            let d = insns[(blk.first + blk.n - 1) as usize];
            t.control(blk.end.wrapping_sub(d.len as u32), &d, taken, next);
        }
    }

    /// The branch or jump `d` at `ipc` that ends a block (`end`: the pc after it), once the
    /// body ran: Some((taken, next pc)), with the link written and the observer told; None,
    /// with no effect, for a jump to a misaligned target (`check_align`: the ISA has no C;
    /// run_inner raises the exception).
    #[inline(always)]
    fn block_exit<O: Observer>(&mut self, obs: &mut O, c: Ctrl, d: &Decoded, ipc: u32, end: u32, unobserved: bool, check_align: bool) -> Option<(bool, u32)> {
        let (taken, target) = semantics::control_target(c, ipc, d.len, self.x[d.rs1_i()], self.x[d.rs2_i()], d.imm);
        let mut next = end;
        if taken {
            if check_align && target & 3 != 0 { return None; }
            next = target;
        }
        // the observer gets the kind as a constant of its arm, so that its match on it folds
        match c {
            Ctrl::Branch(op) => if O::ACTIVE && !unobserved { obs.insn(ipc, d, Kind::Branch(op), 0, 0, &NO_STALLS, &self.mem); },
            Ctrl::Jump(op) => {
                self.write_rd(d.rd_i(), end);
                if O::ACTIVE && !unobserved { obs.insn(ipc, d, Kind::Jump(op), self.x[d.rd_i()], 0, &NO_STALLS, &self.mem); }
            }
        }
        Some((taken, next))
    }

    /// Block `b` executed completely: count it, issue it.
    #[inline(always)]
    fn finish_block<T: Timing>(&mut self, bl: &mut Blocks, b: u32, t: &mut T) {
        self.count_block(&mut bl.list, b);
        self.issue_timing(&mut bl.list, &bl.insns, b, t);
    }

    /// The timing of block `b`: its plan, or its instructions one by one.
    #[inline(always)]
    fn issue_timing<T: Timing>(&self, list: &mut [Block], insns: &[Decoded], b: u32, t: &mut T) {
        let blk = &mut list[b as usize];
        if !t.issue_block(&mut blk.plan) {
            let n = blk.n as usize;
            self.issue_each(list, insns, b, n, t);
        }
    }

    /// Only the first `k` instructions of block `b` executed: count and issue them one by one.
    #[cold]
    #[inline(never)]
    fn partial_block<T: Timing>(&mut self, bl: &Blocks, b: u32, k: usize, t: &mut T) {
        let blk = &bl.list[b as usize];
        let mut i = blk.slot as usize;
        for d in &bl.insns[blk.first as usize..][..k] {
            self.dcache[i].count += 1;
            i += d.len as usize / 2;
        }
        self.instret += k as u64;
        self.issue_each(&bl.list, &bl.insns, b, k, t);
    }

    /// `Timing::issue` for the first `k` instructions of block `b` (they need no register
    /// values: the only operand-dependent latency, DIV's, is not in blocks).
    #[inline(never)]
    fn issue_each<T: Timing>(&self, list: &[Block], insns: &[Decoded], b: u32, k: usize, t: &mut T) {
        let blk = &list[b as usize];
        let mut pc = blk.start;
        for d in &insns[blk.first as usize..][..k] {
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
        self.blocks.epoch += 1;
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
    /// holds one of them (after folding its counts into the slots). Not while blocks run
    /// (their storage is out of the machine then; a block never stores into the code).
    pub(super) fn drop_blocks(&mut self, first: usize, last: usize) {
        if !self.blocks.covered[first..=last].iter().any(|&c| c) { return; }
        // no block may lead to a dropped one
        for blk in &mut self.blocks.list { blk.succ = [NONE; 2]; }
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

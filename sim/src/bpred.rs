//! The branch predictor of the E31 front end: Rocket's fully-associative BTB, its branch
//! history table and return-address stack, sized and configured by the core file's [branch]
//! table. Two generator generations are described by the same parameters: FE310-G000
//! (HiFive1; rocket-chip 2016: 40-entry BTB with round-robin replacement, 128 2-bit counters
//! indexed by pc XOR 7 bits of global history, 2-entry RAS used only when the BTB holds the
//! return, no predecode) and FE310-G002 (HiFive1 Rev B; rocket-chip's later front end: 28
//! entries with pseudo-LRU replacement, 512 1-bit counters with a hashed 8-bit history, 6-entry
//! RAS, and a fetch-stage predecoder that redirects on a jal, a predicted-taken branch or a
//! return the BTB missed, one cycle later). Sources and what stays unknown: sim/README.md
//! "Front end and memory system".
//!
//! The model resolves each control-flow instruction in program order: speculative history
//! updates that the hardware repairs on a mispredict come out as the history of actual
//! outcomes.

use crate::decode::{Decoded, Op};
use crate::exec::semantics::is_link;
use crate::timing::{BranchScheme, CoreParams};

/// Buckets of `Predictor::bucket_len` (a power of two), by pc bits 1 and up.
const BUCKETS: usize = 256;
#[inline(always)]
fn bucket(pc: u32) -> usize { (pc >> 1) as usize & (BUCKETS - 1) }

/// How a control-flow instruction's next fetch was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// predicted by the BTB (or correctly not taken): no penalty
    Predicted,
    /// missed by the BTB but redirected by the fetch-stage predecoder: `predecode_penalty`
    Predecoded,
    /// resolved in the pipeline: `mispredict_penalty`
    Mispredicted,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind { Branch, Jump, Return }

/// `btb.replacement` of the core file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BtbReplacement {
    /// a round-robin pointer advanced by each new entry (rocket-chip 2016)
    Fifo,
    /// Rocket's tree pseudo-LRU, touched by predicted-taken hits and by updates
    Plru,
}

/// Rocket's RAS: a circular stack with a count; a pop of an empty stack does nothing.
/// `changes`: pushes and pops that changed it (`Predictor::snapshot`).
struct Ras { stack: Vec<u32>, pos: usize, count: usize, changes: u64 }
impl Ras {
    fn push(&mut self, v: u32) {
        self.changes += 1;
        let n = self.stack.len();
        self.count = (self.count + 1).min(n);
        self.pos = (self.pos + 1) % n;
        self.stack[self.pos] = v;
    }
    fn peek(&self) -> Option<u32> { (self.count > 0).then(|| self.stack[self.pos]) }
    fn pop(&mut self) {
        if self.count > 0 {
            self.changes += 1;
            self.count -= 1;
            self.pos = (self.pos + self.stack.len() - 1) % self.stack.len();
        }
    }
}

/// Tree pseudo-LRU over `n` ways (any n >= 1): each internal node splits its ways into a
/// left part of 2^(ceil(log2 n) - 1) ways and the rest, and remembers which side is older.
struct Plru { older_left: Vec<bool>, n: usize }
impl Plru {
    fn new(n: usize) -> Plru { Plru { older_left: vec![false; n.max(1)], n } }
    /// Walk from the root to `way` (Some: touch it) or to the replacement way (None).
    #[inline(never)]
    fn walk(&mut self, touch: Option<usize>) -> usize {
        let (mut lo, mut n, mut node) = (0usize, self.n, 0usize);
        while n > 1 {
            let left = 1usize << (usize::BITS - (n - 1).leading_zeros() - 1);
            let go_left = match touch {
                Some(w) => { let l = w < lo + left; self.older_left[node] = !l; l }
                None => self.older_left[node],
            };
            // nodes numbered in pre-order: the left subtree has left - 1 internal nodes
            if go_left { node += 1; n = left; } else { node += left; lo += left; n -= left; }
        }
        lo
    }
}

pub struct Predictor {
    /// static not-taken (`[branch] predictor = "not-taken"`): no tables, every taken
    /// branch and every jump is mispredicted
    not_taken: bool,
    mispredict_penalty: u32,
    predecode_penalty: u32,
    bht_needs_btb: bool,
    ras_needs_btb: bool,
    counter_bits: u32,
    history_bits: u32,
    history_hash: u32,
    /// floor(2^history_bits * sqrt(3)/2): the multiplier of Rocket's history hash
    history_mul: u32,
    // BTB: full-pc tag, target, kind; u32::MAX = empty
    tag: Vec<u32>,
    /// The BTB's contents by bucket of pc (`bucket`), so that a lookup needs no search of
    /// all the tags in the common cases: how many tags fall in each bucket and, where that
    /// is one, which entry holds it. (The hardware compares every tag at once; this only
    /// finds the same answer faster.)
    bucket_len: Vec<u16>,
    bucket_entry: Vec<u16>,
    target: Vec<u32>,
    kind: Vec<Kind>,
    repl: BtbReplacement,
    next: usize,
    plru: Plru,
    // BHT
    bht: Vec<u8>,
    bht_bits: u32,
    /// bht_entries - 1
    bht_mask: u32,
    history: u32,
    ras: Ras,
    /// writes that changed the BTB or the BHT (the PLRU bits too when there are more than
    /// `snapshot` packs; the RAS counts its own)
    changes: u64,
}


impl Predictor {
    pub fn new(p: &CoreParams) -> Predictor {
        let n = p.btb_entries as usize;
        Predictor {
            not_taken: p.branch_scheme == BranchScheme::NotTaken,
            mispredict_penalty: p.mispredict_penalty,
            predecode_penalty: p.predecode_penalty,
            bht_needs_btb: p.bht_needs_btb,
            ras_needs_btb: p.ras_needs_btb,
            counter_bits: p.bht_counter_bits,
            history_bits: p.bht_history,
            history_hash: p.bht_history_hash,
            history_mul: ((3f64).sqrt() / 2.0 * (1u64 << p.bht_history) as f64) as u32,
            tag: vec![u32::MAX; n],
            bucket_len: vec![0; BUCKETS],
            bucket_entry: vec![0; BUCKETS],
            target: vec![0; n],
            kind: vec![Kind::Jump; n],
            repl: p.btb_replacement,
            next: 0,
            plru: Plru::new(n),
            bht: vec![0; p.bht_entries as usize],
            bht_bits: p.bht_entries.trailing_zeros(),
            bht_mask: p.bht_entries - 1,
            history: 0,
            changes: 0,
            ras: Ras { stack: vec![0; p.ras_entries as usize], pos: 0, count: 0, changes: 0 },
        }
    }

    pub fn mispredict_penalty(&self) -> u32 { self.mispredict_penalty }
    pub fn predecode_penalty(&self) -> u32 { self.predecode_penalty }

    /// The BTB entry whose tag is `pc` (tags are unique: `update` rewrites a hit in place).
    #[inline(always)]
    fn lookup(&self, pc: u32) -> Option<usize> {
        let b = bucket(pc);
        match self.bucket_len[b] {
            0 => None,
            1 => { let e = self.bucket_entry[b] as usize; (self.tag[e] == pc).then_some(e) }
            _ => self.tag.iter().position(|&t| t == pc),
        }
    }

    /// Entry `i` now holds tag `pc`: keep the buckets in step.
    fn set_tag(&mut self, i: usize, pc: u32) {
        let old = std::mem::replace(&mut self.tag[i], u32::MAX);
        if old != u32::MAX {
            let b = bucket(old);
            self.bucket_len[b] -= 1;
            if self.bucket_len[b] == 1 {
                let e = self.tag.iter().position(|&t| t != u32::MAX && bucket(t) == b);
                self.bucket_entry[b] = e.expect("a tag left in the bucket") as u16;
            }
        }
        self.tag[i] = pc;
        let b = bucket(pc);
        self.bucket_len[b] += 1;
        if self.bucket_len[b] == 1 { self.bucket_entry[b] = i as u16; }
    }

    /// Write (pc -> target) into the entry that hit, or a new one chosen by the replacement policy.
    fn update(&mut self, hit: Option<usize>, pc: u32, target: u32, kind: Kind) {
        let i = match hit {
            Some(i) => i,
            None => match self.repl {
                BtbReplacement::Fifo => { let i = self.next; self.next = (i + 1) % self.tag.len(); i }
                BtbReplacement::Plru => self.plru.walk(None),
            },
        };
        if self.tag[i] != pc { self.set_tag(i, pc); }
        self.changes += 1;
        self.target[i] = target;
        self.kind[i] = kind;
        self.touch(i);
    }
    #[inline(always)]
    fn touch(&mut self, i: usize) {
        if self.repl == BtbReplacement::Plru {
            self.plru.walk(Some(i));
            // bits `snapshot` cannot pack: every touch counts as a change
            if self.plru.n > 128 { self.changes += 1; }
        }
    }

    /// The predictor's state, compactly, appended to `out` (`Timing::snapshot`): equal
    /// snapshots before and after a stretch of execution mean it is as it was (any table write
    /// in between counts as a change).
    pub fn snapshot(&self, out: &mut Vec<u64>) {
        let plru = if self.plru.n > 128 { 0 } else { self.plru.older_left.iter().rev().fold(0u128, |a, &b| a << 1 | b as u128) };
        out.extend([self.history as u64, self.changes + self.ras.changes, plru as u64, (plru >> 64) as u64]);
    }

    /// BHT index of the branch at `pc`: the fetch packet's address (4-byte aligned) with the
    /// global history, as the generation's source computes it.
    #[inline(always)]
    fn bht_index(&self, pc: u32) -> usize {
        let mask = self.bht_mask;
        let fetch = pc & !3;
        let i = if self.history_hash == 0 {
            // rocket-chip 2016: addr bits from 1 up, XOR the whole history
            ((fetch >> 1) ^ self.history) & mask
        } else {
            // later rocket-chip: addr >> 2 folded, history hashed to `history_hash` bits on top
            let hi = fetch >> 2;
            let addr = (hi ^ ((hi >> self.bht_bits) & 3)) & mask;
            let hh = if self.history_hash == self.history_bits { self.history } else {
                ((self.history_mul.wrapping_mul(self.history)) >> (self.history_bits - self.history_hash)) & ((1 << self.history_hash) - 1)
            };
            (addr ^ (hh << (self.bht_bits - self.history_hash))) & mask
        };
        i as usize
    }
    fn bht_update(&mut self, i: usize, taken: bool) {
        let v = self.bht[i];
        let new = if self.counter_bits == 1 { taken as u8 } else {
            // bit 0 predicts; bit 1 is the last outcome; the new prediction is the majority of
            // the last outcome, the old prediction and this outcome
            let (b1, b0, t) = (v >> 1 & 1, v & 1, taken as u8);
            (t << 1) | ((b1 & b0) | ((b1 | b0) & t))
        };
        self.changes += (new != v) as u64;
        self.bht[i] = new;
        if self.history_bits > 0 {
            self.history = (self.history >> 1) | ((taken as u32) << (self.history_bits - 1));
        }
    }

    /// Would `resolve` of the conditional branch at `pc`, taken to `target`, predict it and
    /// leave every table as it is? (The steady state of a loop's branch: the BTB entry hit,
    /// the history all taken, the counter saturated; a touch of the entry that the last
    /// resolve touched changes no replacement state.)
    pub fn settled_taken(&self, pc: u32, target: u32) -> bool {
        if self.not_taken { return false; }
        let Some(e) = self.lookup(pc) else { return false };
        let all_taken = ((1u64 << self.history_bits) - 1) as u32;
        let saturated = if self.counter_bits == 1 { 1 } else { 3 };
        self.kind[e] == Kind::Branch && self.target[e] == target && self.history == all_taken && self.bht[self.bht_index(pc)] == saturated
    }

    /// Resolve the control-flow instruction `d` at `pc` (taken or not, next fetch at `next_pc`)
    /// and train the predictor.
    #[inline(always)]
    pub fn resolve(&mut self, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> Outcome {
        if self.not_taken {
            return if taken { Outcome::Mispredicted } else { Outcome::Predicted };
        }
        match d.op {
            Op::Jal | Op::Jalr => self.resolve_jump(pc, d, next_pc),
            _ => self.resolve_branch(pc, d, taken, next_pc),
        }
    }

    /// `resolve` of a jal or jalr (always taken).
    #[inline(never)]
    fn resolve_jump(&mut self, pc: u32, d: &Decoded, next_pc: u32) -> Outcome {
        let hit = self.lookup(pc);
        let link = pc.wrapping_add(d.len as u32);
        let predecode = self.predecode_penalty > 0;
        match d.op {
            Op::Jal => {
                if is_link(d.rd) { self.ras.push(link); }
                if hit.is_some_and(|i| self.target[i] == next_pc) {
                    self.touch(hit.unwrap());
                    Outcome::Predicted
                } else {
                    self.update(hit, pc, next_pc, Kind::Jump);
                    if predecode && hit.is_none() { Outcome::Predecoded } else { Outcome::Mispredicted }
                }
            }
            Op::Jalr if is_link(d.rs1) && !(is_link(d.rd) && d.rd == d.rs1) => {
                // a return: the RAS gives the target when the BTB marks this pc as a return
                // (or, with a predecoder, whenever the BTB misses)
                let (pred, via_predecode) = match hit {
                    Some(i) if self.kind[i] == Kind::Return => (Some(self.ras.peek().unwrap_or(self.target[i])), false),
                    Some(i) => (Some(self.target[i]), false),
                    None if predecode => (self.ras.peek(), true),
                    None => (None, false),
                };
                if hit.is_some() || !self.ras_needs_btb { self.ras.pop(); }
                if is_link(d.rd) { self.ras.push(link); }
                if pred == Some(next_pc) {
                    if via_predecode { self.update(None, pc, next_pc, Kind::Return); Outcome::Predecoded }
                    else { self.touch(hit.unwrap()); Outcome::Predicted }
                } else {
                    self.update(hit, pc, next_pc, Kind::Return);
                    Outcome::Mispredicted
                }
            }
            Op::Jalr => {
                if is_link(d.rd) { self.ras.push(link); }
                if hit.is_some_and(|i| self.target[i] == next_pc) {
                    self.touch(hit.unwrap());
                    Outcome::Predicted
                } else {
                    self.update(hit, pc, next_pc, Kind::Jump);
                    Outcome::Mispredicted
                }
            }
            _ => unreachable!("resolve_jump of a conditional branch"),
        }
    }

    /// `resolve` of a conditional branch (the common case: kept small and inlined).
    #[inline(always)]
    fn resolve_branch(&mut self, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> Outcome {
        let hit = self.lookup(pc);
        let predecode = self.predecode_penalty > 0;
        let i = self.bht_index(pc);
        let counter_taken = self.bht[i] & 1 == 1;
        let (pred_taken, via_predecode) = match hit {
            Some(e) if self.kind[e] == Kind::Branch => (counter_taken, false),
            Some(_) => (true, false),
            None => (predecode && counter_taken, predecode && counter_taken),
        };
        // the predicted target is the branch's own when the predecoder computed it
        let target_ok = !pred_taken || via_predecode || hit.is_some_and(|e| self.target[e] == next_pc);
        if hit.is_some() || !self.bht_needs_btb { self.bht_update(i, taken); }
        if via_predecode { self.update(None, pc, pc.wrapping_add(d.imm as u32), Kind::Branch); }
        let correct = pred_taken == taken && target_ok;
        if correct {
            if taken && !via_predecode { self.touch(hit.unwrap()); }
            if via_predecode { Outcome::Predecoded } else { Outcome::Predicted }
        } else {
            if taken {
                let h = if via_predecode { self.lookup(pc) } else { hit };
                self.update(h, pc, next_pc, Kind::Branch);
            }
            Outcome::Mispredicted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn plru_cycles_through_every_way() {
        // with a power-of-two number of ways, touching each replacement choice in turn visits
        // every way before repeating (an unbalanced tree revisits its smaller side sooner)
        for n in [1usize, 2, 4, 8, 32] {
            let mut p = Plru::new(n);
            let mut seen = vec![false; n];
            for _ in 0..n {
                let w = p.walk(None);
                assert!(w < n && !seen[w], "{n} ways: {w} twice");
                seen[w] = true;
                p.walk(Some(w));
            }
        }
    }
    #[test]
    fn bucket_lookup_agrees_with_a_search() {
        // pcs that share buckets (a stride of 2 * BUCKETS) and others, through both
        // replacement policies and a BTB smaller than the set of pcs, so entries are evicted
        for repl in [BtbReplacement::Fifo, BtbReplacement::Plru] {
            let mut p = Predictor::new(&CoreParams { btb_entries: 7, btb_replacement: repl, ..CoreParams::e31() });
            let mut seed = 12345u32;
            for _ in 0..20_000 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let pc = 0x2040_0000 + (seed >> 16) % 5 * 2 * BUCKETS as u32 + (seed >> 8) % 3 * 4;
                let hit = p.lookup(pc);
                assert_eq!(hit, p.tag.iter().position(|&t| t == pc), "pc {pc:#x}");
                p.update(hit, pc, pc + 8, Kind::Branch);
            }
        }
    }
    #[test]
    fn plru_keeps_the_recently_touched() {
        let mut p = Plru::new(28);
        for w in 0..28 { p.walk(Some(w)); }
        p.walk(Some(0));
        assert_ne!(p.walk(None), 0);
        assert_ne!(p.walk(None), 27);
    }
}

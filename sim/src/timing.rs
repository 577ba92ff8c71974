//! Core timing models behind one trait: `Ideal` (one cycle per instruction) and
//! `Pipeline` (the SiFive E31 model of DESIGN.md, parameterised by `CoreParams`).
//!
//! The model is a scoreboard, not a stage-by-stage pipeline: each instruction issues at the
//! earliest cycle at which (1) the previous instruction has issued, (2) its fetch has been
//! served by the instruction cache, (3) all its source registers are ready (full bypass:
//! ready = producer issue cycle + result latency), (4) for a write-after-write hazard, its
//! result would not be ready before the older write (t + L >= ready[rd]), and (5) for
//! MUL*/DIV*/REM*, the single multiplier/divider has finished its previous operation.
//! Control-flow instructions then add the mispredict penalty if the branch predictor was
//! wrong. `cycles` = the cycle after the last issue.

use crate::bpred::{Outcome, Predictor};
pub use crate::bpred::BtbReplacement;
use crate::decode::{cls, Decoded, DivOp, Kind, Op};
use crate::csr::HartIds;
use crate::mem::{FLASH_BASE, FLASH_END, RAM_BASE};

/// Stall causes, in the order of the `[u64; N_STALLS]` arrays. `trap` counts the cycles of
/// trap entry and `mret` beyond their issue slot; `fetch` the front end's own bubbles (a
/// 32-bit instruction at a 2-mod-4 address fetched after a redirect, a predecoder redirect).
pub const N_STALLS: usize = 8;
pub const STALL_NAMES: [&str; N_STALLS] = ["load_use", "mul", "div", "branch_mispredict", "icache", "other", "trap", "fetch"];
pub const S_LOAD: usize = 0;
pub const S_MUL: usize = 1;
pub const S_DIV: usize = 2;
pub const S_BRANCH: usize = 3;
pub const S_ICACHE: usize = 4;
pub const S_OTHER: usize = 5;
pub const S_TRAP: usize = 6;
pub const S_FETCH: usize = 7;

/// Stall cause attributed to a wait on a result produced by an instruction of class `c`.
const CAUSE_OF: [u8; cls::N] = {
    let mut t = [S_OTHER as u8; cls::N];
    t[cls::LOAD_W as usize] = S_LOAD as u8;
    t[cls::LOAD_BH as usize] = S_LOAD as u8;
    t[cls::AMO as usize] = S_LOAD as u8;
    t[cls::MUL as usize] = S_MUL as u8;
    t[cls::DIV as usize] = S_DIV as u8;
    t
};

pub trait Timing {
    /// Account for issuing `d` at `pc` (before it executes; `x` = register values).
    /// Returns the stall cycles before it could issue.
    fn issue(&mut self, pc: u32, d: &Decoded, x: &[u32; 32]) -> u32;
    /// Outcome of a control-flow instruction (after `issue`); returns the penalty cycles.
    fn control(&mut self, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32;
    /// Issue cycle of the instruction being executed (value of `cycle` CSR reads).
    fn now(&self) -> u64;
    /// Total cycles so far.
    fn cycles(&self) -> u64;
    fn stalls(&self) -> [u64; N_STALLS];
    /// The instruction just issued raised an exception; the handler is fetched next.
    /// Returns the penalty cycles.
    fn trap(&mut self) -> u32;
    /// `mret` just issued and redirects fetch to `mepc`. Returns the penalty cycles.
    fn mret(&mut self) -> u32;
    /// Whether a block (`plan`, `issue_block`) may hold loads and stores: not when their
    /// timing depends on their addresses (`[memory] store_load_replay`), as the block engine
    /// issues a block's instructions after its body ran, without the registers each one saw.
    fn blocks_take_memory(&self) -> bool { true }
    /// The timing of a straight-line block of instructions starting at `pc`, worked out once
    /// (see `BlockPlan`). The block holds no DIV/REM (operand-dependent latency).
    fn plan(&self, pc: u32, insns: &[Decoded]) -> BlockPlan;
    /// Account for issuing the whole block at once, if the state at entry cannot change the
    /// plan; false (nothing changed) otherwise: the caller then issues its instructions one
    /// by one. Either way the result is the same as `issue` for each instruction in turn.
    fn issue_block(&mut self, plan: &mut BlockPlan) -> bool;
    /// The block whose plan `issue_block` just applied ends in a conditional branch at `pc`
    /// that was taken back to its start `target` without penalty: did it issue on time (no
    /// delay), and would the branch, taken to `target` again, be predicted without penalty or
    /// any change to the predictor? (A loop of one block in its steady state: see
    /// `run_blocks_in`.)
    fn steady_loop(&self, pc: u32, target: u32) -> bool;
    /// `k` more executions of the block whose plan `issue_block` just applied, each entered
    /// from the one before by its taken branch, when `steady_loop` holds: the same as
    /// `issue_block` and `control` `k` times each.
    fn repeat_block(&mut self, plan: &BlockPlan, k: u64);
    /// Everything that decides the timing of what follows, appended to `out` as words, times
    /// relative to `cycles()`; a result already available counts as available now (how long
    /// ago cannot matter). Equal snapshots before and after a loop's trip mean each further
    /// identical trip takes the same cycles and ends in the same state again (see `Trip`).
    fn snapshot(&self, out: &mut Vec<u64>);
    /// The cycles and the statistics so far.
    fn counters(&self) -> Counters;
    /// `k` more trips of a loop whose trip changes the counters by `per_trip` and leaves a
    /// snapshot as it found it: the state now shifted by `k` trips' cycles.
    fn repeat_trip(&mut self, per_trip: &Counters, k: u64);
}

/// The statistics a timing model accumulates (`Timing::counters`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters { pub cycles: u64, pub stalls: [u64; N_STALLS], pub mispredicts: u64, pub icache_misses: u64 }
impl Counters {
    /// What happened between `before` and `self`.
    pub fn since(&self, before: &Counters) -> Counters {
        Counters { cycles: self.cycles - before.cycles, stalls: std::array::from_fn(|i| self.stalls[i] - before.stalls[i]),
                   mispredicts: self.mispredicts - before.mispredicts, icache_misses: self.icache_misses - before.icache_misses }
    }
}

/// The timing of a straight-line block, computed once by `Timing::plan` from its instructions
/// alone. For the pipeline model, register readiness at entry is unknown when the plan is made;
/// the plan is the schedule the scoreboard gives when no older result delays the block, plus
/// the conditions (`checks`, `mdu_check`, the I-cache lines) under which that holds. Offsets
/// are cycles after the block's first issue slot (`Pipeline::next` at entry).
#[derive(Clone, Debug, Default)]
pub struct BlockPlan {
    /// instructions in the block
    pub n: u32,
    /// false: the plan is never used (the block is issued instruction by instruction)
    pub usable: bool,
    /// offset of the last instruction's issue and of the slot after it
    pub last: u32,
    pub end: u32,
    /// (r, limit): an older result in r must be ready by entry + limit (the first read of r in
    /// the block is not delayed, and its first write waits for no older write)
    pub checks: Vec<(u8, u32)>,
    /// the first multiply's issue offset: the multiplier must be free by then
    pub mdu_check: Option<u32>,
    /// the smallest limit of `checks` and `mdu_check`: when no result at all is outstanding
    /// beyond entry + this, every check holds
    pub min_check: u32,
    /// source registers of the first instruction (rs1, rs2, rs3; 0 = none): an older result
    /// it waits for delays the whole block
    pub first_srcs: [u8; 3],
    /// the first instruction is 32 bits wide at a 2-mod-4 address: after a redirect its fetch
    /// takes one more fetch packet (`misaligned_fetch_penalty`)
    pub first_split: bool,
    /// the I-cache state (`Pipeline::ic_key`) under which all its lines last hit: while the
    /// cache is in that state they hit again, unchecked
    pub ic_hit: Option<(u64, u32)>,
    /// (r, ready offset, producer class) of each register whose last write in the block is
    /// still in flight after it (ready > `end`). The other registers the block writes are
    /// ready before anything later can issue, like their older entries (which the checks
    /// bound by their first write's ready cycle): those need no update.
    pub writes: Vec<(u8, u32, u8)>,
    /// offset at which the multiplier is free after the block's last multiply
    pub mdu_free: Option<u32>,
    /// the latest ready offset of any write or of the multiplier
    pub max_ready: u32,
    /// stall cycles by cause inside the block, and whether there are any
    pub stalls: [u32; N_STALLS],
    pub stalled: bool,
    /// I-cache lines fetched, in order (line numbers `first..=last`), and whether they are in
    /// the cached flash region (a block is entirely inside it or entirely outside)
    pub lines: (u32, u32),
    pub in_flash: bool,
}

/// One cycle per instruction, no stalls.
#[derive(Default)]
pub struct Ideal { n: u64 }
impl Timing for Ideal {
    #[inline(always)]
    fn issue(&mut self, _: u32, _: &Decoded, _: &[u32; 32]) -> u32 { self.n += 1; 0 }
    #[inline(always)]
    fn control(&mut self, _: u32, _: &Decoded, _: bool, _: u32) -> u32 { 0 }
    fn now(&self) -> u64 { self.n - 1 }
    fn cycles(&self) -> u64 { self.n }
    fn stalls(&self) -> [u64; N_STALLS] { [0; N_STALLS] }
    fn trap(&mut self) -> u32 { 0 }
    fn mret(&mut self) -> u32 { 0 }
    fn plan(&self, _: u32, insns: &[Decoded]) -> BlockPlan { BlockPlan { n: insns.len() as u32, usable: true, ..BlockPlan::default() } }
    #[inline(always)]
    fn issue_block(&mut self, plan: &mut BlockPlan) -> bool { self.n += plan.n as u64; true }
    fn steady_loop(&self, _: u32, _: u32) -> bool { true }
    fn repeat_block(&mut self, plan: &BlockPlan, k: u64) { self.n += k * plan.n as u64; }
    fn snapshot(&self, _: &mut Vec<u64>) {}
    fn counters(&self) -> Counters { Counters { cycles: self.n, ..Counters::default() } }
    fn repeat_trip(&mut self, per_trip: &Counters, k: u64) { self.n += k * per_trip.cycles; }
}

/// How conditional branches and jumps are predicted (core file `[branch] predictor`; the
/// dynamic predictor is bpred.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchScheme {
    /// BHT of 2-bit counters, BTB and RAS (the E31's organisation, documented in sim/README.md)
    Dynamic,
    /// static not-taken: a taken conditional branch and every jump (jal, jalr) cost
    /// `mispredict_penalty`; a branch that falls through costs nothing
    NotTaken,
}

/// Which timing model runs a core (`model` in a core file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreModel {
    /// the scoreboard model of an in-order pipeline (`Pipeline`, the E31)
    Pipeline,
    /// one cycle per instruction (`Ideal`)
    Ideal,
}

impl CoreModel {
    pub fn parse(s: &str) -> Option<CoreModel> {
        match s { "pipeline" => Some(CoreModel::Pipeline), "ideal" => Some(CoreModel::Ideal), _ => None }
    }
    /// DIV/REM take operand-dependent time (the constant-time checker reports secret operands).
    pub fn variable_div_latency(self) -> bool {
        match self { CoreModel::Pipeline => true, CoreModel::Ideal => false }
    }
}

/// Parameters of a pipelined core model (all user-settable from a TOML file).
#[derive(Clone, Debug, PartialEq)]
pub struct CoreParams {
    pub name: String,
    pub model: CoreModel,
    pub lat_alu: u32,
    pub lat_lw: u32,
    pub lat_lbh: u32,
    pub lat_csr: u32,
    pub lat_mul: u32,
    /// DIV/DIVU/REM/REMU latency = div_base + max(0, bitlen(|dividend|) - bitlen(|divisor|));
    /// div_base for a zero divisor.
    pub div_base: u32,
    /// DIV*/REM* hold the issue slot until their result is ready (an iterative divider inside
    /// the execute stage stalls everything behind it): the next instruction issues no earlier
    /// than the divide's result latency after it. false: only the next MUL/DIV waits (E31).
    pub div_blocking: bool,
    pub lat_amo: u32,
    pub mispredict_penalty: u32,
    /// how conditional branches and jumps are predicted: the tables below, or static not-taken
    pub branch_scheme: BranchScheme,
    /// fully associative
    pub btb_entries: u32,
    pub btb_replacement: BtbReplacement,
    pub bht_entries: u32,
    /// 2: Rocket 2016's two-bit state (prediction, last outcome); 1: one bit
    pub bht_counter_bits: u32,
    /// bits of global branch history in the BHT index
    pub bht_history: u32,
    /// 0: index = fetch address / 2 XOR history; N: later Rocket's hash (history folded to N
    /// bits on top of the fetch address / 4)
    pub bht_history_hash: u32,
    /// only branches the BTB holds are predicted by, and train, the BHT
    pub bht_needs_btb: bool,
    pub ras_entries: u32,
    /// the RAS predicts (and pops) only for a return the BTB holds
    pub ras_needs_btb: bool,
    /// cycles of a fetch-stage predecoder redirect (jal, predicted-taken branch or return
    /// missed by the BTB); 0: no predecoder, such instructions are mispredicted
    pub predecode_penalty: u32,
    /// extra cycle(s) to fetch a 32-bit instruction at a 2-mod-4 address after a redirect
    pub misaligned_fetch_penalty: u32,
    pub icache_size: u32,
    pub icache_ways: u32,
    pub icache_line: u32,
    pub icache_miss_penalty: u32,
    pub icache_replacement: IcacheReplacement,
    /// cycles from an exception to the handler's first fetch, beyond the trapping
    /// instruction's issue slot
    pub trap_entry: u32,
    /// cycles `mret` costs beyond its issue slot (fetch redirect to mepc)
    pub mret_penalty: u32,
    /// cycles a load (or LR/SC/AMO) pays when it reads a byte of a store still pending in the
    /// data memory's store buffer (`Pipeline::store_load`); 0: no such hazard
    pub store_load_replay: u32,
    /// mvendorid, marchid, mimpid (0 = not implemented)
    pub ids: HartIds,
    /// where the board's boot code jumps to user code in flash (rvlab links programs there)
    pub code_base: u32,
}

/// `icache.replacement` of the core file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcacheReplacement {
    /// least recently used
    Lru,
    /// Rocket's: the way a 16-bit LFSR (x^16+x^14+x^13+x^11, reset 1) gives, advanced once
    /// per miss; hits change nothing
    Random,
}

/// Why a core file (`--core FILE`, `CoreParams::from_toml`) is refused; printed as
/// `core file: ...` (after the file's name on rvsim's command line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreFileError {
    /// not TOML (the parser's message)
    Toml(String),
    NotInteger(String),
    /// an integer that does not fit a u32
    OutOfRange(String),
    NotString(String),
    /// `[k]` is not a table
    NotTable(String),
    NotBool(String),
    /// a string key whose value is not one of `allowed`
    Choice { key: &'static str, allowed: [&'static str; 2], got: String },
    UnknownKey(String),
    /// a parameter (or several) outside what rvsim accepts: `key` must be `bound`
    Bound { key: &'static str, bound: &'static str },
}

impl std::fmt::Display for CoreFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "core file: ")?;
        match self {
            CoreFileError::Toml(m) => write!(f, "{m}"),
            CoreFileError::NotInteger(k) => write!(f, "'{k}' must be an integer"),
            CoreFileError::OutOfRange(k) => write!(f, "'{k}' out of range"),
            CoreFileError::NotString(k) => write!(f, "'{k}' must be a string"),
            CoreFileError::NotTable(k) => write!(f, "[{k}] must be a table"),
            CoreFileError::NotBool(k) => write!(f, "'{k}' must be true or false"),
            CoreFileError::Choice { key, allowed: [a, b], got } => write!(f, "{key} must be \"{a}\" or \"{b}\", not \"{got}\""),
            CoreFileError::UnknownKey(k) => write!(f, "unknown key '{k}'"),
            CoreFileError::Bound { key, bound } => write!(f, "{key} must be {bound}"),
        }
    }
}

impl std::error::Error for CoreFileError {}

/// Built-in core models besides `ideal`: (name, parameters); each equals sim/cores/NAME.toml.
pub fn builtin_cores() -> [(&'static str, CoreParams); 2] {
    [("e31", CoreParams::e31()), ("hifive1-revb", CoreParams::hifive1_revb())]
}

impl CoreParams {
    /// The built-in E31 model of the HiFive1 (FE310-G000; equal to sim/cores/e31.toml).
    pub fn e31() -> CoreParams {
        CoreParams {
            name: "e31".into(), model: CoreModel::Pipeline,
            lat_alu: 1, lat_lw: 2, lat_lbh: 3, lat_csr: 3, lat_mul: 5, div_base: 2, div_blocking: false, lat_amo: 2,
            mispredict_penalty: 3, branch_scheme: BranchScheme::Dynamic, btb_entries: 40, btb_replacement: BtbReplacement::Fifo,
            bht_entries: 128, bht_counter_bits: 2, bht_history: 7, bht_history_hash: 0, bht_needs_btb: true,
            ras_entries: 2, ras_needs_btb: true, predecode_penalty: 0, misaligned_fetch_penalty: 1,
            icache_size: 16384, icache_ways: 2, icache_line: 64, icache_miss_penalty: 20,
            icache_replacement: IcacheReplacement::Random,
            trap_entry: 4, mret_penalty: 3, store_load_replay: 0,
            ids: HartIds { mvendorid: 0x489, marchid: 0, mimpid: 0 },
            code_base: 0x2040_0000,
        }
    }

    /// The E31 of the HiFive1 Rev B (FE310-G002; equal to sim/cores/hifive1-revb.toml).
    pub fn hifive1_revb() -> CoreParams {
        CoreParams {
            name: "hifive1-revb".into(),
            btb_entries: 28, btb_replacement: BtbReplacement::Plru,
            bht_entries: 512, bht_counter_bits: 1, bht_history: 8, bht_history_hash: 3, bht_needs_btb: false,
            ras_entries: 6, ras_needs_btb: false, predecode_penalty: 1,
            code_base: 0x2001_0000,
            ..CoreParams::e31()
        }
    }

    /// `--core ideal`: one cycle per instruction (the other parameters are not used).
    pub fn ideal() -> CoreParams {
        CoreParams { name: "ideal".into(), model: CoreModel::Ideal, ..CoreParams::e31() }
    }

    pub fn from_toml(text: &str) -> Result<CoreParams, CoreFileError> {
        let v: toml::Table = text.parse().map_err(|e: toml::de::Error| CoreFileError::Toml(e.message().to_string()))?;
        let mut p = CoreParams::e31();
        fn int(v: &toml::Value, k: &str) -> Result<u32, CoreFileError> {
            let i = v.as_integer().ok_or_else(|| CoreFileError::NotInteger(k.into()))?;
            u32::try_from(i).map_err(|_| CoreFileError::OutOfRange(k.into()))
        }
        for (k, val) in &v {
            match k.as_str() {
                "name" => p.name = val.as_str().ok_or_else(|| CoreFileError::NotString(k.clone()))?.into(),
                "model" => {
                    let m = val.as_str().ok_or_else(|| CoreFileError::NotString(k.clone()))?;
                    p.model = CoreModel::parse(m).ok_or_else(|| CoreFileError::Choice { key: "model", allowed: ["pipeline", "ideal"], got: m.into() })?;
                }
                "description" => {}
                "latency" | "branch" | "icache" | "trap" | "memory" | "ids" | "board" => {
                    let t = val.as_table().ok_or_else(|| CoreFileError::NotTable(k.clone()))?;
                    for (kk, vv) in t {
                        let full = format!("{k}.{kk}");
                        let flag = match (k.as_str(), kk.as_str()) {
                            ("branch", "bht_needs_btb") => Some(&mut p.bht_needs_btb),
                            ("branch", "ras_needs_btb") => Some(&mut p.ras_needs_btb),
                            ("latency", "div_blocking") => Some(&mut p.div_blocking),
                            _ => None,
                        };
                        if let Some(f) = flag {
                            *f = vv.as_bool().ok_or_else(|| CoreFileError::NotBool(full.clone()))?;
                            continue;
                        }
                        let word = |vv: &toml::Value| vv.as_str().map(str::to_string).ok_or_else(|| CoreFileError::NotString(full.clone()));
                        let choice = |key, allowed, got: &str| CoreFileError::Choice { key, allowed, got: got.into() };
                        match (k.as_str(), kk.as_str()) {
                            ("branch", "predictor") => {
                                p.branch_scheme = match word(vv)?.as_str() {
                                    "dynamic" => BranchScheme::Dynamic,
                                    "not-taken" => BranchScheme::NotTaken,
                                    w => return Err(choice("branch.predictor", ["dynamic", "not-taken"], w)),
                                };
                                continue;
                            }
                            ("branch", "btb_replacement") => {
                                p.btb_replacement = match word(vv)?.as_str() {
                                    "fifo" => BtbReplacement::Fifo,
                                    "plru" => BtbReplacement::Plru,
                                    w => return Err(choice("branch.btb_replacement", ["fifo", "plru"], w)),
                                };
                                continue;
                            }
                            ("icache", "replacement") => {
                                p.icache_replacement = match word(vv)?.as_str() {
                                    "lru" => IcacheReplacement::Lru,
                                    "random" => IcacheReplacement::Random,
                                    w => return Err(choice("icache.replacement", ["lru", "random"], w)),
                                };
                                continue;
                            }
                            _ => {}
                        }
                        let slot = match (k.as_str(), kk.as_str()) {
                            ("latency", "alu") => &mut p.lat_alu,
                            ("latency", "lw") => &mut p.lat_lw,
                            ("latency", "lb_lh") => &mut p.lat_lbh,
                            ("latency", "csr") => &mut p.lat_csr,
                            ("latency", "mul") => &mut p.lat_mul,
                            ("latency", "div_base") => &mut p.div_base,
                            ("latency", "amo") => &mut p.lat_amo,
                            ("branch", "mispredict_penalty") => &mut p.mispredict_penalty,
                            ("branch", "btb_entries") => &mut p.btb_entries,
                            ("branch", "bht_entries") => &mut p.bht_entries,
                            ("branch", "ras_entries") => &mut p.ras_entries,
                            ("branch", "bht_counter_bits") => &mut p.bht_counter_bits,
                            ("branch", "bht_history") => &mut p.bht_history,
                            ("branch", "bht_history_hash") => &mut p.bht_history_hash,
                            ("branch", "predecode_penalty") => &mut p.predecode_penalty,
                            ("branch", "misaligned_fetch_penalty") => &mut p.misaligned_fetch_penalty,
                            ("icache", "size") => &mut p.icache_size,
                            ("icache", "ways") => &mut p.icache_ways,
                            ("icache", "line") => &mut p.icache_line,
                            ("icache", "miss_penalty") => &mut p.icache_miss_penalty,
                            ("trap", "entry") => &mut p.trap_entry,
                            ("trap", "mret") => &mut p.mret_penalty,
                            ("memory", "store_load_replay") => &mut p.store_load_replay,
                            ("ids", "mvendorid") => &mut p.ids.mvendorid,
                            ("ids", "marchid") => &mut p.ids.marchid,
                            ("ids", "mimpid") => &mut p.ids.mimpid,
                            ("board", "code_base") => &mut p.code_base,
                            _ => return Err(CoreFileError::UnknownKey(full)),
                        };
                        *slot = int(vv, &full)?;
                    }
                }
                _ => return Err(CoreFileError::UnknownKey(k.clone())),
            }
        }
        p.validate()?;
        Ok(p)
    }

    pub fn validate(&self) -> Result<(), CoreFileError> {
        let bound = |key, bound| Err(CoreFileError::Bound { key, bound });
        for (n, v) in [("latency.alu", self.lat_alu), ("latency.lw", self.lat_lw), ("latency.lb_lh", self.lat_lbh), ("latency.csr", self.lat_csr),
                       ("latency.mul", self.lat_mul), ("latency.amo", self.lat_amo), ("latency.div_base", self.div_base)] {
            if v == 0 || v > 1000 { return bound(n, "1..1000"); }
        }
        // penalties bounded like the latencies: a cycle count is a u64 that 10^10 instructions
        // times these cannot overflow, and no real core waits longer
        for (n, v) in [("branch.mispredict_penalty", self.mispredict_penalty), ("icache.miss_penalty", self.icache_miss_penalty),
                       ("trap.entry", self.trap_entry), ("trap.mret", self.mret_penalty),
                       ("memory.store_load_replay", self.store_load_replay)] {
            if v > 1000 { return bound(n, "0..1000"); }
        }
        // table sizes: rvsim allocates them (BHT/RAS entries, I-cache lines; the BTB's bound is below)
        if self.bht_entries > 1 << 16 || self.ras_entries > 1 << 16 {
            return bound("bht_entries and ras_entries", "at most 65536");
        }
        if self.icache_size > 16 << 20 { return bound("icache.size", "at most 16 MiB"); }
        if !self.bht_entries.is_power_of_two() { return bound("branch.bht_entries", "a power of two"); }
        if self.btb_entries == 0 || self.ras_entries == 0 { return bound("btb_entries and ras_entries", ">= 1"); }
        if self.btb_entries > 4096 { return bound("branch.btb_entries", "at most 4096"); }
        if self.bht_counter_bits != 1 && self.bht_counter_bits != 2 { return bound("branch.bht_counter_bits", "1 or 2"); }
        if self.bht_history > 16 { return bound("branch.bht_history", "0..16"); }
        if self.bht_history_hash > self.bht_history || self.bht_history_hash > self.bht_entries.trailing_zeros() {
            return bound("branch.bht_history_hash", "at most bht_history and log2(bht_entries)");
        }
        if self.icache_size != 0 {
            if !self.icache_line.is_power_of_two() || self.icache_line < 4 { return bound("icache.line", "a power of two >= 4"); }
            if self.icache_ways == 0 || self.icache_size % (self.icache_ways * self.icache_line) != 0 {
                return bound("icache.size", "a multiple of ways*line");
            }
            let sets = self.icache_size / (self.icache_ways * self.icache_line);
            if !sets.is_power_of_two() { return bound("icache sets (size/ways/line)", "a power of two"); }
        }
        Ok(())
    }
}

/// DIV/REM latency: 1 bit of quotient per cycle (see CoreParams::div_base).
#[inline]
pub fn div_latency(base: u32, op: DivOp, a: u32, b: u32) -> u32 {
    if b == 0 { return base; }
    let (ua, ub) = if op.signed() { ((a as i32).unsigned_abs(), (b as i32).unsigned_abs()) } else { (a, b) };
    let la = 32 - ua.leading_zeros();
    let lb = 32 - ub.leading_zeros();
    base + la.saturating_sub(lb)
}

/// The scoreboard model of an in-order, fully bypassed single-issue core (E31).
pub struct Pipeline {
    p: CoreParams,
    lat: [u32; cls::N],
    ready: [u64; 32],
    cause: [u8; 32],
    next: u64,
    cur: u64,
    mdu_free: u64,
    mdu_cause: usize,
    /// no register result nor the multiplier is busy beyond this cycle (for issue_block)
    latest: u64,
    stalls: [u64; N_STALLS],
    bp: Predictor,
    /// fetch restarts at a new address (taken transfer, mispredict, trap, mret): the next
    /// instruction pays `misaligned_fetch_penalty` if it is 32 bits wide at a 2-mod-4 address
    redirected: bool,
    /// changes of `ic_tags` so far (for `BlockPlan::ic_hit`)
    ic_epoch: u64,
    /// the last `issue_block` applied its plan with no delay (`Timing::steady_loop`)
    on_time: bool,
    // instruction cache (tags per set*ways; with LRU, way 0 = most recently used)
    ic_tags: Vec<u32>,
    /// random replacement (Rocket's LFSR), not LRU: a hit in any way changes nothing
    ic_random: bool,
    lfsr: u16,
    ic_ways: usize,
    ic_set_mask: u32,
    ic_shift: u32,
    /// start address and size of the line fetched last
    ic_base: u32,
    ic_bytes: u32,
    /// the store->load hazard (`store_load`): bit c set for each timing class c it applies to
    /// (none when `store_load_replay` is 0); the stores not yet written to the data array,
    /// oldest first (word address, byte mask, first cycle one may be written); the first
    /// cycle not yet taken by a write or a read of the array
    sl_classes: u16,
    sl_pending: [(u32, u8, u64); 4],
    sl_n: usize,
    sl_free: u64,
    pub icache_misses: u64,
    pub mispredicts: u64,
}

impl Pipeline {
    pub fn new(p: CoreParams) -> Pipeline {
        let mut lat = [1u32; cls::N];
        lat[cls::ALU as usize] = p.lat_alu;
        lat[cls::LOAD_W as usize] = p.lat_lw;
        lat[cls::LOAD_BH as usize] = p.lat_lbh;
        lat[cls::CSR as usize] = p.lat_csr;
        lat[cls::MUL as usize] = p.lat_mul;
        lat[cls::DIV as usize] = p.div_base;
        lat[cls::AMO as usize] = p.lat_amo;
        lat[cls::JUMP as usize] = p.lat_alu;
        let (ic_ways, sets, shift) = if p.icache_size == 0 { (0, 1, 5) } else {
            let sets = p.icache_size / (p.icache_ways * p.icache_line);
            (p.icache_ways as usize, sets, p.icache_line.trailing_zeros())
        };
        Pipeline {
            lat,
            ready: [0; 32],
            cause: [0; 32],
            next: 0, cur: 0, mdu_free: 0, mdu_cause: S_MUL, latest: 0,
            stalls: [0; N_STALLS],
            bp: Predictor::new(&p),
            redirected: false,
            ic_epoch: 0,
            on_time: false,
            ic_tags: vec![u32::MAX; (sets as usize) * ic_ways.max(1)],
            ic_random: p.icache_replacement == IcacheReplacement::Random,
            lfsr: 1,
            ic_ways,
            ic_set_mask: sets - 1,
            ic_shift: shift,
            ic_base: 0,
            ic_bytes: 0,
            sl_classes: if p.store_load_replay == 0 { 0 } else {
                [cls::LOAD_W, cls::LOAD_BH, cls::STORE, cls::AMO].iter().fold(0, |m, &c| m | 1 << c)
            },
            sl_pending: [(0, 0, 0); 4],
            sl_n: 0,
            sl_free: 0,
            icache_misses: 0,
            mispredicts: 0,
            p,
        }
    }
    pub fn params(&self) -> &CoreParams { &self.p }

    /// Access one I-cache line; true on a miss. LRU: way order within the set; random: the
    /// LFSR advances on a miss and its low bits choose the way.
    #[inline(never)]
    fn icache_access(&mut self, line: u32) -> bool {
        let w = self.ic_ways;
        let set = (line & self.ic_set_mask) as usize;
        let ways = &mut self.ic_tags[set * w..set * w + w];
        if ways[0] == line { return false; }
        self.ic_epoch += 1;
        if let Some(i) = ways.iter().position(|&t| t == line) {
            if !self.ic_random { ways[..=i].rotate_right(1); }
            false
        } else if self.ic_random {
            let l = self.lfsr;
            self.lfsr = (l >> 1) | ((l ^ (l >> 2) ^ (l >> 3) ^ (l >> 5)) & 1) << 15;
            ways[self.lfsr as usize & (w - 1)] = line;
            true
        } else {
            ways.rotate_right(1);
            ways[0] = line;
            true
        }
    }

    /// A fetch from `line` hits without changing the cache state.
    #[inline(always)]
    fn icache_quiet_hit(&self, line: u32) -> bool {
        let base = (line & self.ic_set_mask) as usize * self.ic_ways;
        if self.ic_random { self.ic_tags[base..base + self.ic_ways].contains(&line) } else { self.ic_tags[base] == line }
    }

    /// Fetch crossing into a new line (or two): returns the miss penalty cycles.
    #[inline(never)]
    fn fetch_lines(&mut self, pc: u32, len: u32) -> u32 {
        if self.ic_ways == 0 {
            self.ic_base = 0;
            self.ic_bytes = u32::MAX;
            return 0;
        }
        let line = pc >> self.ic_shift;
        let last = pc.wrapping_add(len - 1) >> self.ic_shift;
        let cur = self.ic_base >> self.ic_shift;
        let mut pen = 0;
        if pc.wrapping_sub(FLASH_BASE) < FLASH_END - FLASH_BASE {
            if line != cur && self.icache_access(line) { pen += self.p.icache_miss_penalty; self.icache_misses += 1; }
            if last != line && self.icache_access(last) { pen += self.p.icache_miss_penalty; self.icache_misses += 1; }
            self.stalls[S_ICACHE] += pen as u64;
        }
        self.ic_base = last << self.ic_shift;
        self.ic_bytes = 1 << self.ic_shift;
        pen
    }

    /// Fetch restarts elsewhere after `pen` cycles (trap entry, mret).
    fn redirect(&mut self, pen: u32) -> u32 {
        self.next += pen as u64;
        self.stalls[S_TRAP] += pen as u64;
        self.redirected = true;
        pen
    }

    /// What decides whether a block's fetches hit (`issue_block`): the tags and the line
    /// fetched last (an odd value for none yet, never a line address).
    #[inline(always)]
    fn ic_key(&self) -> (u64, u32) { (self.ic_epoch, if self.ic_bytes != 0 { self.ic_base } else { 1 }) }

    /// `[memory] store_load_replay`: the store->load RAW hazard of rocket-chip's data
    /// cache/scratchpad ([RC] rocket/DCache.scala), for a load, store or LR/SC/AMO `op` of
    /// rs1 value `base` and immediate `imm` whose request (the cycle it is in execute, s0) is
    /// at `t`: its issue cycle.
    ///
    /// The source: a store that hits becomes pending in its s2 (`pstore1`; `pstore2` holds
    /// an older one) and is written to the data array in a cycle without a load request in s0
    /// (`pstore_drain_opportunistic`: a plain store needs no read), one store per cycle, the
    /// older first (`pstore2`, then `pstore1` moves up). A load in s1 whose word address and
    /// byte mask overlap a pending store (`pstore1_valid_likely`, `pstore2_valid`:
    /// `s1_raw_hazard`) is nacked and replayed. Here: each store to the data RAM is pending
    /// from its issue cycle + 2, and leaves at the first cycle from then on that no load, LR,
    /// SC or AMO issued in and no older pending store left in (as the two registers: a
    /// store's own issue cycle lets the store two before it leave, so no more than two wait);
    /// a load, LR/SC/AMO that overlaps one still pending before its issue cycle issues
    /// `store_load_replay` cycles later (stall cause `other`). Cycles stalled or redirected
    /// (no instruction in execute) are free.
    /// Simplified: the replay leaves nothing pending (the refetch gives the two entries free
    /// cycles to drain, and Rocket drains on a nack: exact when the penalty is 3 or more); the
    /// address match is on the whole word address, not only Rocket's index bits (a load
    /// outside the RAM never matches); wrong-path loads (in execute behind a mispredicted
    /// branch) are not seen; LR/SC/AMO count as reads of their word and their writes are not
    /// buffered; ECC, store merging and the write-after-write hazard (ECC only) are left out;
    /// a misaligned access (it traps) makes no request.
    #[cold]
    #[inline(never)]
    fn store_load(&mut self, t: u64, op: Op, base: u32, imm: i32) -> u64 {
        // the pending stores written since the last request, one per free cycle
        let mut c = self.sl_free;
        let mut done = 0;
        while done < self.sl_n {
            let at = c.max(self.sl_pending[done].2);
            if at >= t { break; }
            c = at + 1;
            done += 1;
        }
        if done > 0 {
            self.sl_pending.copy_within(done..self.sl_n, 0);
            self.sl_n -= done;
        }
        let (addr, size, store) = match op.kind() {
            Kind::Load(op) => (base.wrapping_add(imm as u32), op.size(), false),
            Kind::Store(op) => (base.wrapping_add(imm as u32), op.size(), true),
            Kind::Lrsc(_) | Kind::Amo(_) => (base, 4, false),
            _ => (0, 0, false),
        };
        if size == 0 || addr & (size - 1) != 0 {
            self.sl_free = c;
            return t;
        }
        let (word, mask) = (addr >> 2, (((1u32 << size) - 1) << (addr & 3)) as u8);
        if store {
            // (at most the two stores issued just before it wait: the one before those left
            // in the cycle of the store after it at the latest)
            debug_assert!(self.sl_n < 3);
            if addr >= RAM_BASE && self.sl_n < 4 {
                self.sl_pending[self.sl_n] = (word, mask, t + 2);
                self.sl_n += 1;
            }
            // a store needs no read: its cycle is free for an older one
            self.sl_free = t;
            return t;
        }
        let mut t = t;
        if self.sl_pending[..self.sl_n].iter().any(|&(w, m, _)| w == word && m & mask != 0) {
            let pen = self.p.store_load_replay as u64;
            self.stalls[S_OTHER] += pen;
            t += pen;
            self.sl_n = 0;
        }
        self.sl_free = t + 1;
        t
    }

    /// The first fetch after a redirect: a 32-bit instruction at a 2-mod-4 address needs the
    /// next 4-byte fetch packet too.
    #[inline(always)]
    fn fetch_after_redirect(&mut self, split: bool) {
        self.redirected = false;
        if split {
            let pen = self.p.misaligned_fetch_penalty as u64;
            self.next += pen;
            self.stalls[S_FETCH] += pen;
        }
    }
}

impl Timing for Pipeline {
    #[inline(always)]
    fn issue(&mut self, pc: u32, d: &Decoded, x: &[u32; 32]) -> u32 {
        let start = self.next;
        if self.redirected { self.fetch_after_redirect(pc & 2 != 0 && d.len == 4); }
        let mut t = self.next;
        // instruction fetch through the I-cache (flash region only; DTIM is not cached):
        // nothing to do while the fetch stays inside the line fetched last
        if pc.wrapping_sub(self.ic_base).wrapping_add(d.len as u32) > self.ic_bytes {
            // fast path: the new line is the most recently used way of its set
            let line = pc >> self.ic_shift;
            let off = pc & (self.ic_bytes.wrapping_sub(1));
            if off + d.len as u32 <= self.ic_bytes
                && self.icache_quiet_hit(line)
                && pc.wrapping_sub(FLASH_BASE) < FLASH_END - FLASH_BASE
            {
                self.ic_base = line << self.ic_shift;
            } else {
                t += self.fetch_lines(pc, d.len as u32) as u64;
            }
        }
        // read-after-write
        let (r1, r2, r3) = (d.rs1_i(), d.rs2_i(), d.rs3_i());
        let (a, b, c) = (self.ready[r1], self.ready[r2], self.ready[r3]);
        let m = a.max(b).max(c);
        if m > t {
            let src = if m == a { r1 } else if m == b { r2 } else { r3 };
            self.stalls[CAUSE_OF[self.cause[src] as usize] as usize] += m - t;
            t = m;
        }
        let k = d.cls;
        let lat = match k {
            cls::MUL | cls::DIV => {
                // (the multiplier class also holds extension rows that use the multiplier)
                let lat = if let Kind::Div(op) = d.op.kind() { div_latency(self.p.div_base, op, x[r1], x[r2]) } else { self.lat[k as usize] } as u64;
                // the multiplier/divider runs one operation at a time
                if self.mdu_free > t {
                    self.stalls[self.mdu_cause] += self.mdu_free - t;
                    t = self.mdu_free;
                }
                self.mdu_free = t + lat;
                self.mdu_cause = if k == cls::MUL { S_MUL } else { S_DIV };
                lat
            }
            cls::EXT => d.xlat as u64,
            _ => self.lat[k as usize] as u64,
        };
        let rd = d.rd_i();
        if rd != 0 {
            // write-after-write: the new result must not be ready before the older one
            let older = self.ready[rd];
            if older > t + lat {
                let w = older - lat;
                self.stalls[CAUSE_OF[self.cause[rd] as usize] as usize] += w - t;
                t = w;
            }
            self.ready[rd] = t + lat;
            self.cause[rd] = k; // producer class, mapped to a stall cause when a stall happens
        }
        if self.sl_classes >> k & 1 != 0 {
            // (after any wait above: the cycle the access issues in)
            let s = self.store_load(t, d.op, x[r1], d.imm);
            if rd != 0 { self.ready[rd] = s + lat; }
            t = s;
        }
        self.latest = self.latest.max(t + lat);
        self.cur = t;
        self.next = t + 1;
        if k == cls::DIV && self.p.div_blocking {
            // nothing issues behind the divide until its result is ready
            self.next = t + lat;
            self.stalls[S_DIV] += lat - 1;
        }
        (t - start) as u32
    }

    #[inline(always)]
    fn control(&mut self, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32 {
        let (pen, cause) = match self.bp.resolve(pc, d, taken, next_pc) {
            Outcome::Predicted => (0, S_BRANCH),
            Outcome::Predecoded => (self.bp.predecode_penalty(), S_FETCH),
            Outcome::Mispredicted => { self.mispredicts += 1; (self.bp.mispredict_penalty(), S_BRANCH) }
        };
        if taken || pen > 0 { self.redirected = true; }
        self.next += pen as u64;
        self.stalls[cause] += pen as u64;
        pen
    }
    fn now(&self) -> u64 { self.cur }
    fn cycles(&self) -> u64 { self.next }
    fn stalls(&self) -> [u64; N_STALLS] { self.stalls }
    fn trap(&mut self) -> u32 { self.redirect(self.p.trap_entry) }
    fn mret(&mut self) -> u32 { self.redirect(self.p.mret_penalty) }
    fn blocks_take_memory(&self) -> bool { self.sl_classes == 0 }

    /// `issue` run symbolically over the block: registers the block has not written yet are
    /// assumed ready; each first read of such a register becomes a check "ready by the slot
    /// this instruction issues in without stalls" (then it can neither delay the instruction
    /// nor be the source a stall is attributed to), each first write a check "ready no later
    /// than this result" (no write-after-write wait). Everything else is the scoreboard of
    /// `issue` with offsets for absolute cycles, the same comparisons in the same order.
    fn plan(&self, pc: u32, insns: &[Decoded]) -> BlockPlan {
        let mut ready: [Option<u32>; 32] = [None; 32];
        let mut class = [0u8; 32];
        let mut limit: [Option<u32>; 32] = [None; 32];
        let mut mdu_check = None;
        let mut mdu_free: Option<u32> = None;
        let mut stalls = [0u32; N_STALLS];
        let (mut next, mut last) = (0u32, 0u32);
        let mut usable = true;
        for d in insns {
            let slot = next;
            let mut t = slot;
            let srcs = [d.rs1_i(), d.rs2_i(), d.rs3_i()];
            let mut m = 0u32;
            for &r in &srcs {
                if r == 0 { continue; }
                match ready[r] {
                    Some(v) => m = m.max(v),
                    None => limit[r] = Some(limit[r].map_or(slot, |l| l.min(slot))),
                }
            }
            if m > t {
                // as `issue`: the stall goes to the first of rs1, rs2, rs3 with the latest result
                let s = srcs.into_iter().find(|&r| r != 0 && ready[r] == Some(m)).unwrap_or(0);
                stalls[CAUSE_OF[class[s] as usize] as usize] += m - t;
                t = m;
            }
            let k = d.cls;
            let lat = match k {
                cls::MUL => {
                    let lat = self.lat[k as usize];
                    match mdu_free {
                        Some(f) if f > t => { stalls[S_MUL] += f - t; t = f; }
                        Some(_) => {}
                        None => mdu_check = Some(t),
                    }
                    mdu_free = Some(t + lat);
                    lat
                }
                cls::DIV => { usable = false; self.p.div_base }
                cls::EXT => d.xlat as u32,
                _ => self.lat[k as usize],
            };
            let rd = d.rd_i();
            if rd != 0 {
                match ready[rd] {
                    Some(older) if older > t + lat => {
                        let w = older - lat;
                        stalls[CAUSE_OF[class[rd] as usize] as usize] += w - t;
                        t = w;
                    }
                    Some(_) => {}
                    None => limit[rd] = Some(limit[rd].map_or(t + lat, |l| l.min(t + lat))),
                }
                ready[rd] = Some(t + lat);
                class[rd] = k;
            }
            last = t;
            next = t + 1;
        }
        let end_pc = insns.iter().fold(pc, |p, d| p.wrapping_add(d.len as u32));
        let shift = self.ic_shift;
        let in_flash = pc.wrapping_sub(FLASH_BASE) < FLASH_END - FLASH_BASE;
        if in_flash != (end_pc.wrapping_sub(1).wrapping_sub(FLASH_BASE) < FLASH_END - FLASH_BASE) { usable = false; }
        let checks: Vec<(u8, u32)> = (1..32).filter_map(|r| limit[r].map(|l| (r as u8, l))).collect();
        BlockPlan {
            n: insns.len() as u32,
            usable,
            last,
            end: next,
            min_check: checks.iter().map(|c| c.1).chain(mdu_check).min().unwrap_or(u32::MAX),
            first_srcs: insns.first().map_or([0; 3], |d| [d.rs1_i() as u8, d.rs2_i() as u8, d.rs3_i() as u8]),
            first_split: pc & 2 != 0 && insns.first().is_some_and(|d| d.len == 4),
            ic_hit: None,
            checks,
            mdu_check,
            writes: (1..32).filter_map(|r| ready[r].filter(|&v| v > next).map(|v| (r as u8, v, class[r]))).collect(),
            mdu_free,
            max_ready: ready.iter().flatten().copied().chain(mdu_free).max().unwrap_or(0),
            stalls,
            stalled: stalls.iter().any(|&s| s > 0),
            lines: (pc >> shift, end_pc.wrapping_sub(1) >> shift),
            in_flash,
        }
    }

    #[inline(always)]
    fn issue_block(&mut self, p: &mut BlockPlan) -> bool {
        self.on_time = false;
        if !p.usable { return false; }
        // the fetch bubble comes first, as in `issue` (it changes no check below: a fallback
        // to `issue` then finds `redirected` cleared and the same `next`)
        if self.redirected { self.fetch_after_redirect(p.first_split); }
        let t0 = self.next;
        // The whole block issues `delay` cycles late when the first instruction waits for an
        // older result (as `issue` would stall it); after that, the plan holds if every check does.
        let mut delay = None;
        if self.latest > t0 + p.min_check as u64 {
            let [r1, r2, r3] = p.first_srcs.map(|r| (r & 31) as usize);
            let (a, b, c) = (self.ready[r1], self.ready[r2], self.ready[r3]);
            let m = a.max(b).max(c).max(t0);
            if p.mdu_check.is_some_and(|l| self.mdu_free > m + l as u64) { return false; }
            for &(r, l) in &p.checks {
                if self.ready[r as usize] > m + l as u64 { return false; }
            }
            if m > t0 { delay = Some((m, if m == a { r1 } else if m == b { r2 } else { r3 })); }
        }
        // every fetch must hit without changing the cache: the line fetched last, or the
        // most recently used way of its set (as the fast path of `issue`)
        let (first_line, last_line) = p.lines;
        if self.ic_ways != 0 && p.in_flash && p.ic_hit != Some(self.ic_key()) {
            let mut l = first_line;
            if self.ic_bytes != 0 && l == self.ic_base >> self.ic_shift { l += 1; }
            while l <= last_line {
                if !self.icache_quiet_hit(l) { return false; }
                l += 1;
            }
            p.ic_hit = Some(self.ic_key());
        }
        // the plan holds: apply it
        if self.ic_ways == 0 {
            self.ic_base = 0;
            self.ic_bytes = u32::MAX;
        } else {
            self.ic_base = last_line << self.ic_shift;
            self.ic_bytes = 1 << self.ic_shift;
        }
        let t0 = match delay {
            Some((m, src)) => {
                self.stalls[CAUSE_OF[self.cause[src] as usize] as usize] += m - t0;
                m
            }
            None => t0,
        };
        self.on_time = delay.is_none();
        self.apply_plan(p, t0, 1);
        true
    }

    fn steady_loop(&self, pc: u32, target: u32) -> bool { self.on_time && self.bp.settled_taken(pc, target) }

    fn repeat_block(&mut self, p: &BlockPlan, k: u64) {
        // Each execution starts as the one before ends: its taken branch costs no penalty but
        // is a redirect (the fetch bubble of a split first instruction), and it finds the
        // state the one before found, shifted in time, so the same plan holds on time every
        // time. Only the last one's writes remain.
        let bubble = if p.first_split { self.p.misaligned_fetch_penalty as u64 } else { 0 };
        self.stalls[S_FETCH] += k * bubble;
        self.apply_plan(p, self.next + k * bubble + (k - 1) * p.end as u64, k);
    }

    fn snapshot(&self, out: &mut Vec<u64>) {
        let now = self.next;
        let ahead = |t: u64| t.saturating_sub(now);
        // a result's cause only matters while it is pending
        for r in 0..32 {
            let a = ahead(self.ready[r]);
            out.extend([a, if a > 0 { self.cause[r] as u64 } else { 0 }]);
        }
        let mdu = ahead(self.mdu_free);
        out.extend([mdu, if mdu > 0 { self.mdu_cause as u64 } else { 0 }, now.wrapping_sub(self.cur), self.redirected as u64,
                    self.ic_epoch, (self.ic_base as u64) << 32 | self.ic_bytes as u64, self.lfsr as u64]);
        self.bp.snapshot(out);
    }
    fn counters(&self) -> Counters {
        Counters { cycles: self.next, stalls: self.stalls, mispredicts: self.mispredicts, icache_misses: self.icache_misses }
    }
    fn repeat_trip(&mut self, per_trip: &Counters, k: u64) {
        let d = k * per_trip.cycles;
        for r in &mut self.ready { *r += d; }
        self.mdu_free += d;
        self.latest += d;
        self.cur += d;
        self.next += d;
        for (s, &v) in self.stalls.iter_mut().zip(&per_trip.stalls) { *s += k * v; }
        self.mispredicts += k * per_trip.mispredicts;
        self.icache_misses += k * per_trip.icache_misses;
    }
}

impl Pipeline {
    /// The effect of `k` executions of plan `p` on the scoreboard and the stall counts, the
    /// last one issuing at `t0` (its fetches are accounted for by the caller).
    #[inline(always)]
    fn apply_plan(&mut self, p: &BlockPlan, t0: u64, k: u64) {
        for &(r, v, c) in &p.writes {
            self.ready[r as usize] = t0 + v as u64;
            self.cause[r as usize] = c;
        }
        if let Some(f) = p.mdu_free {
            self.mdu_free = t0 + f as u64;
            self.mdu_cause = S_MUL;
        }
        self.latest = self.latest.max(t0 + p.max_ready as u64);
        if p.stalled {
            for (s, &v) in self.stalls.iter_mut().zip(&p.stalls) { *s += k * v as u64; }
        }
        self.cur = t0 + p.last as u64;
        self.next = t0 + p.end as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Penalties and table sizes are bounded like the latencies (issue 22: a penalty of 4*10^9
    /// was accepted while latencies were capped at 1000).
    #[test]
    fn core_file_bounds() {
        for bad in ["[branch]\nmispredict_penalty = 4000000000", "[icache]\nmiss_penalty = 1001", "[trap]\nentry = 5000",
                    "[trap]\nmret = 100000", "[branch]\nbtb_entries = 4097", "[branch]\nbht_entries = 131072",
                    "[branch]\nras_entries = 65537", "[icache]\nsize = 33554432", "[memory]\nstore_load_replay = 1001"] {
            let e = CoreParams::from_toml(bad).unwrap_err();
            assert!(matches!(e, CoreFileError::Bound { .. }), "{bad}: {e}");
        }
        for good in ["[branch]\nmispredict_penalty = 1000", "[icache]\nmiss_penalty = 0", "[trap]\nentry = 0",
                     "[branch]\nbtb_entries = 4096", "[branch]\nbht_entries = 65536", "[branch]\nras_entries = 65536",
                     "[memory]\nstore_load_replay = 1000"] {
            assert!(CoreParams::from_toml(good).is_ok(), "{good}");
        }
    }
    #[test]
    fn div_latency_range() {
        assert_eq!(div_latency(2, DivOp::Divu, 0xffff_ffff, 1), 33);
        assert_eq!(div_latency(2, DivOp::Divu, 1, 0xffff_ffff), 2);
        assert_eq!(div_latency(2, DivOp::Divu, 5, 0), 2);
        assert_eq!(div_latency(2, DivOp::Div, (-256i32) as u32, 2), 2 + 9 - 2);
        assert_eq!(div_latency(2, DivOp::Div, i32::MIN as u32, 1), 33);
    }
    #[test]
    fn toml_roundtrip() {
        for (name, p) in builtin_cores() {
            let text = std::fs::read_to_string(format!("{}/cores/{name}.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
            assert_eq!(CoreParams::from_toml(&text).unwrap(), p, "{name}");
        }
        let err = |t: &str| CoreParams::from_toml(t).unwrap_err();
        assert_eq!(err("[latency]\nfoo = 1"), CoreFileError::UnknownKey("latency.foo".into()));
        assert_eq!(err("[latency]\nmul = \"x\""), CoreFileError::NotInteger("latency.mul".into()));
        assert_eq!(err("[branch]\nbht_entries = 100"), CoreFileError::Bound { key: "branch.bht_entries", bound: "a power of two" });
        let p = CoreParams::from_toml("[branch]\npredictor = \"not-taken\"\n[latency]\ndiv_blocking = true").unwrap();
        assert_eq!((p.branch_scheme, p.div_blocking), (BranchScheme::NotTaken, true));
        let e = err("[branch]\npredictor = \"static\"");
        assert_eq!(e, CoreFileError::Choice { key: "branch.predictor", allowed: ["dynamic", "not-taken"], got: "static".into() });
        assert_eq!(e.to_string(), "core file: branch.predictor must be \"dynamic\" or \"not-taken\", not \"static\"");
        assert_eq!(err("[latency]\ndiv_blocking = 1"), CoreFileError::NotBool("latency.div_blocking".into()));
        assert_eq!(err("model = \"fast\"").to_string(), "core file: model must be \"pipeline\" or \"ideal\", not \"fast\"");
        assert_eq!(err("[latency]\nmul = -1"), CoreFileError::OutOfRange("latency.mul".into()));
        assert_eq!(err("latency = 1"), CoreFileError::NotTable("latency".into()));
        assert_eq!(err("name = 1").to_string(), "core file: 'name' must be a string");
        assert_eq!(err("[latency]\nalu = 0").to_string(), "core file: latency.alu must be 1..1000");
        assert!(matches!(err("[latency"), CoreFileError::Toml(_)));
    }
}

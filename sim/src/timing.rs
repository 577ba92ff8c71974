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

use crate::decode::{cls, Decoded, DivOp, Kind, Op};
use crate::csr::HartIds;
use crate::mem::{FLASH_BASE, FLASH_END};

/// Stall causes, in the order of the `[u64; N_STALLS]` arrays. `trap` counts the cycles of
/// trap entry and `mret` beyond their issue slot.
pub const N_STALLS: usize = 7;
pub const STALL_NAMES: [&str; N_STALLS] = ["load_use", "mul", "div", "branch_mispredict", "icache", "other", "trap"];
pub const S_LOAD: usize = 0;
pub const S_MUL: usize = 1;
pub const S_DIV: usize = 2;
pub const S_BRANCH: usize = 3;
pub const S_ICACHE: usize = 4;
pub const S_OTHER: usize = 5;
pub const S_TRAP: usize = 6;

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
    /// `control` for the branch or jump that ends the block of `plan` (which holds where the
    /// predictor keeps it, worked out once).
    fn control_block(&mut self, plan: &BlockPlan, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32 {
        let _ = plan;
        self.control(pc, d, taken, next_pc)
    }
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
    /// The timing of a straight-line block of instructions starting at `pc`, worked out once
    /// (see `BlockPlan`). The block holds no DIV/REM (operand-dependent latency).
    fn plan(&self, pc: u32, insns: &[Decoded]) -> BlockPlan;
    /// Account for issuing the whole block at once, if the state at entry cannot change the
    /// plan; false (nothing changed) otherwise: the caller then issues its instructions one
    /// by one. Either way the result is the same as `issue` for each instruction in turn.
    fn issue_block(&mut self, plan: &mut BlockPlan) -> bool;
    /// Did the last `issue_block` apply its plan with the block issuing on time (no delay)?
    fn issued_on_time(&self) -> bool;
    /// `k` more executions of the block whose plan `issue_block` just applied on time, each
    /// entered from the one before by its conditional branch, taken and predicted without
    /// penalty or predictor change (a loop of one block in its steady state: see
    /// `run_blocks_in`): the same as `issue_block` and `control` `k` times each.
    fn repeat_block(&mut self, plan: &BlockPlan, k: u64);
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
    /// where the predictor keeps the branch or jump that ends the block
    pub slots: PredictorSlots,
    /// the I-cache state (`Pipeline::ic_key`) under which all its lines last hit: while the
    /// cache is in that state they hit again, unchecked
    pub ic_hit: Option<(u64, u32)>,
}

/// The BHT counter and the BTB entry of a control instruction (functions of its pc alone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PredictorSlots { pub bht: u32, pub btb: u32 }

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
    fn issued_on_time(&self) -> bool { true }
    fn repeat_block(&mut self, plan: &BlockPlan, k: u64) { self.n += k * plan.n as u64; }
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
    pub lat_amo: u32,
    pub mispredict_penalty: u32,
    pub btb_entries: u32,
    pub bht_entries: u32,
    pub ras_entries: u32,
    pub icache_size: u32,
    pub icache_ways: u32,
    pub icache_line: u32,
    pub icache_miss_penalty: u32,
    /// cycles from an exception to the handler's first fetch, beyond the trapping
    /// instruction's issue slot
    pub trap_entry: u32,
    /// cycles `mret` costs beyond its issue slot (fetch redirect to mepc)
    pub mret_penalty: u32,
    /// mvendorid, marchid, mimpid (0 = not implemented)
    pub ids: HartIds,
}

impl CoreParams {
    /// The built-in E31 model (equal to sim/cores/e31.toml).
    pub fn e31() -> CoreParams {
        CoreParams {
            name: "e31".into(), model: CoreModel::Pipeline,
            lat_alu: 1, lat_lw: 2, lat_lbh: 3, lat_csr: 3, lat_mul: 5, div_base: 2, lat_amo: 2,
            mispredict_penalty: 3, btb_entries: 40, bht_entries: 128, ras_entries: 2,
            icache_size: 16384, icache_ways: 2, icache_line: 32, icache_miss_penalty: 20,
            trap_entry: 4, mret_penalty: 3,
            ids: HartIds { mvendorid: 0x489, marchid: 0, mimpid: 0 },
        }
    }

    /// `--core ideal`: one cycle per instruction (the other parameters are not used).
    pub fn ideal() -> CoreParams {
        CoreParams { name: "ideal".into(), model: CoreModel::Ideal, ..CoreParams::e31() }
    }

    pub fn from_toml(text: &str) -> Result<CoreParams, String> {
        let v: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("core file: {}", e.message()))?;
        let mut p = CoreParams::e31();
        fn int(v: &toml::Value, k: &str) -> Result<u32, String> {
            let i = v.as_integer().ok_or_else(|| format!("core file: '{k}' must be an integer"))?;
            u32::try_from(i).map_err(|_| format!("core file: '{k}' out of range"))
        }
        for (k, val) in &v {
            match k.as_str() {
                "name" => p.name = val.as_str().ok_or("core file: 'name' must be a string")?.into(),
                "model" => {
                    let m = val.as_str().ok_or("core file: 'model' must be a string")?;
                    p.model = CoreModel::parse(m).ok_or_else(|| format!("core file: model must be \"pipeline\" or \"ideal\", not \"{m}\""))?;
                }
                "description" => {}
                "latency" | "branch" | "icache" | "trap" | "ids" => {
                    let t = val.as_table().ok_or_else(|| format!("core file: [{k}] must be a table"))?;
                    for (kk, vv) in t {
                        let full = format!("{k}.{kk}");
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
                            ("icache", "size") => &mut p.icache_size,
                            ("icache", "ways") => &mut p.icache_ways,
                            ("icache", "line") => &mut p.icache_line,
                            ("icache", "miss_penalty") => &mut p.icache_miss_penalty,
                            ("trap", "entry") => &mut p.trap_entry,
                            ("trap", "mret") => &mut p.mret_penalty,
                            ("ids", "mvendorid") => &mut p.ids.mvendorid,
                            ("ids", "marchid") => &mut p.ids.marchid,
                            ("ids", "mimpid") => &mut p.ids.mimpid,
                            _ => return Err(format!("core file: unknown key '{full}'")),
                        };
                        *slot = int(vv, &full)?;
                    }
                }
                _ => return Err(format!("core file: unknown key '{k}'")),
            }
        }
        p.validate()?;
        Ok(p)
    }

    pub fn validate(&self) -> Result<(), String> {
        for (n, v) in [("alu", self.lat_alu), ("lw", self.lat_lw), ("lb_lh", self.lat_lbh), ("csr", self.lat_csr), ("mul", self.lat_mul), ("amo", self.lat_amo)] {
            if v == 0 || v > 1000 { return Err(format!("core file: latency.{n} must be 1..1000")); }
        }
        if self.div_base == 0 || self.div_base > 1000 { return Err("core file: latency.div_base must be 1..1000".into()); }
        if !self.bht_entries.is_power_of_two() { return Err("core file: branch.bht_entries must be a power of two".into()); }
        if self.btb_entries == 0 || self.ras_entries == 0 { return Err("core file: btb_entries and ras_entries must be >= 1".into()); }
        if self.icache_size != 0 {
            if !self.icache_line.is_power_of_two() || self.icache_line < 4 { return Err("core file: icache.line must be a power of two >= 4".into()); }
            if self.icache_ways == 0 || self.icache_size % (self.icache_ways * self.icache_line) != 0 {
                return Err("core file: icache.size must be a multiple of ways*line".into());
            }
            let sets = self.icache_size / (self.icache_ways * self.icache_line);
            if !sets.is_power_of_two() { return Err("core file: icache sets (size/ways/line) must be a power of two".into()); }
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
    // branch prediction
    bht: Vec<u8>,
    bht_mask: u32,
    btb_tag: Vec<u32>,
    /// 2^64 / btb entries, rounded up (wraps to 0 for one entry): see btb_index
    btb_magic: u64,
    btb_target: Vec<u32>,
    ras: Vec<u32>,
    ras_top: usize,
    // instruction cache (tags per set*ways, way 0 = most recently used)
    ic_tags: Vec<u32>,
    ic_ways: usize,
    ic_set_mask: u32,
    ic_shift: u32,
    /// start address and size of the line fetched last
    ic_base: u32,
    ic_bytes: u32,
    /// changes of `ic_tags` so far (for `BlockPlan::ic_hit`)
    ic_epoch: u64,
    /// `Timing::issued_on_time`
    on_time: bool,
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
            bht: vec![1; p.bht_entries as usize],
            bht_mask: p.bht_entries - 1,
            btb_tag: vec![u32::MAX; p.btb_entries as usize],
            btb_magic: (u64::MAX / p.btb_entries as u64).wrapping_add(1),
            btb_target: vec![0; p.btb_entries as usize],
            ras: vec![0; p.ras_entries as usize],
            ras_top: 0,
            ic_tags: vec![u32::MAX; (sets as usize) * ic_ways.max(1)],
            ic_ways,
            ic_set_mask: sets - 1,
            ic_shift: shift,
            ic_base: 0,
            ic_bytes: 0,
            ic_epoch: 0,
            on_time: false,
            icache_misses: 0,
            mispredicts: 0,
            p,
        }
    }
    pub fn params(&self) -> &CoreParams { &self.p }

    /// Access one I-cache line; true on a miss. LRU: way order within the set.
    #[inline(never)]
    fn icache_access(&mut self, line: u32) -> bool {
        let w = self.ic_ways;
        let set = (line & self.ic_set_mask) as usize;
        let ways = &mut self.ic_tags[set * w..set * w + w];
        if ways[0] == line { return false; }
        self.ic_epoch += 1;
        if let Some(i) = ways.iter().position(|&t| t == line) {
            ways[..=i].rotate_right(1);
            false
        } else {
            ways.rotate_right(1);
            ways[0] = line;
            true
        }
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

    #[inline(always)]
    fn btb_index(&self, pc: u32) -> usize {
        // (pc >> 1) mod entries without a hardware divide (Lemire's fastmod, exact for u32)
        let low = self.btb_magic.wrapping_mul((pc >> 1) as u64);
        ((low as u128 * self.btb_tag.len() as u128) >> 64) as usize
    }
    /// The predictor entries of the control instruction at `pc`.
    #[inline(always)]
    fn slots(&self, pc: u32) -> PredictorSlots {
        PredictorSlots { bht: (pc >> 1) & self.bht_mask, btb: self.btb_index(pc) as u32 }
    }
    #[inline(always)]
    fn btb_lookup(&self, s: PredictorSlots, pc: u32) -> Option<u32> {
        let i = s.btb as usize;
        if self.btb_tag[i] == pc { Some(self.btb_target[i]) } else { None }
    }
    #[inline(always)]
    fn btb_insert(&mut self, s: PredictorSlots, pc: u32, target: u32) {
        let i = s.btb as usize;
        self.btb_tag[i] = pc;
        self.btb_target[i] = target;
    }

    /// The predictor's verdict on the control instruction `d` at `pc` (its entries `s`) and
    /// its update; returns the penalty cycles.
    #[inline(always)]
    fn predict(&mut self, s: PredictorSlots, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32 {
        let correct = match d.op {
            Op::Jal => {
                if is_link(d.rd) { self.ras_push(pc.wrapping_add(d.len as u32)); }
                let ok = self.btb_lookup(s, pc) == Some(next_pc);
                if !ok { self.btb_insert(s, pc, next_pc); }
                ok
            }
            Op::Jalr => {
                let (rd, rs1) = (d.rd, d.rs1);
                let ok = if is_link(rs1) && (!is_link(rd) || rd != rs1) {
                    // return (or coroutine swap): predicted by the RAS
                    let p = self.ras_pop();
                    if is_link(rd) { self.ras_push(pc.wrapping_add(d.len as u32)); }
                    p == next_pc
                } else {
                    if is_link(rd) { self.ras_push(pc.wrapping_add(d.len as u32)); }
                    let ok = self.btb_lookup(s, pc) == Some(next_pc);
                    if !ok { self.btb_insert(s, pc, next_pc); }
                    ok
                };
                ok
            }
            _ => {
                // conditional branch: 2-bit counter; a taken prediction also needs a BTB hit
                let i = s.bht as usize;
                let ctr = self.bht[i];
                let pred_taken = ctr >= 2 && self.btb_lookup(s, pc).is_some();
                self.bht[i] = if taken { (ctr + 1).min(3) } else { ctr.saturating_sub(1) };
                if taken { self.btb_insert(s, pc, next_pc); }
                pred_taken == taken
            }
        };
        if correct { 0 } else {
            let pen = self.p.mispredict_penalty;
            self.mispredicts += 1;
            self.next += pen as u64;
            self.stalls[S_BRANCH] += pen as u64;
            pen
        }
    }
    /// What decides whether a block's fetches hit (`issue_block`): the tags and the line
    /// fetched last (an odd value for none yet, never a line address).
    #[inline(always)]
    fn ic_key(&self) -> (u64, u32) { (self.ic_epoch, if self.ic_bytes != 0 { self.ic_base } else { 1 }) }

    /// Fetch restarts elsewhere after `pen` cycles (trap entry, mret).
    fn redirect(&mut self, pen: u32) -> u32 {
        self.next += pen as u64;
        self.stalls[S_TRAP] += pen as u64;
        pen
    }
    fn ras_push(&mut self, v: u32) {
        self.ras_top = if self.ras_top + 1 == self.ras.len() { 0 } else { self.ras_top + 1 };
        self.ras[self.ras_top] = v;
    }
    fn ras_pop(&mut self) -> u32 {
        let v = self.ras[self.ras_top];
        self.ras_top = if self.ras_top == 0 { self.ras.len() - 1 } else { self.ras_top - 1 };
        v
    }
}

#[inline(always)]
fn is_link(r: u8) -> bool { r == 1 || r == 5 }

impl Timing for Pipeline {
    #[inline(always)]
    fn issue(&mut self, pc: u32, d: &Decoded, x: &[u32; 32]) -> u32 {
        let start = self.next;
        let mut t = start;
        // instruction fetch through the I-cache (flash region only; DTIM is not cached):
        // nothing to do while the fetch stays inside the line fetched last
        if pc.wrapping_sub(self.ic_base).wrapping_add(d.len as u32) > self.ic_bytes {
            // fast path: the new line is the most recently used way of its set
            let line = pc >> self.ic_shift;
            let off = pc & (self.ic_bytes.wrapping_sub(1));
            if off + d.len as u32 <= self.ic_bytes
                && self.ic_tags[(line & self.ic_set_mask) as usize * self.ic_ways] == line
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
        self.latest = self.latest.max(t + lat);
        self.cur = t;
        self.next = t + 1;
        (t - start) as u32
    }

    #[inline(always)]
    fn control(&mut self, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32 {
        self.predict(self.slots(pc), pc, d, taken, next_pc)
    }
    #[inline(always)]
    fn control_block(&mut self, plan: &BlockPlan, pc: u32, d: &Decoded, taken: bool, next_pc: u32) -> u32 {
        self.predict(plan.slots, pc, d, taken, next_pc)
    }
    fn now(&self) -> u64 { self.cur }
    fn cycles(&self) -> u64 { self.next }
    fn stalls(&self) -> [u64; N_STALLS] { self.stalls }
    fn trap(&mut self) -> u32 { self.redirect(self.p.trap_entry) }
    fn mret(&mut self) -> u32 { self.redirect(self.p.mret_penalty) }

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
            checks,
            mdu_check,
            writes: (1..32).filter_map(|r| ready[r].filter(|&v| v > next).map(|v| (r as u8, v, class[r]))).collect(),
            mdu_free,
            max_ready: ready.iter().flatten().copied().chain(mdu_free).max().unwrap_or(0),
            stalls,
            stalled: stalls.iter().any(|&s| s > 0),
            lines: (pc >> shift, end_pc.wrapping_sub(1) >> shift),
            in_flash,
            ic_hit: None,
            slots: insns.last().filter(|d| d.op.control().is_some()).map_or_else(PredictorSlots::default, |d| self.slots(end_pc.wrapping_sub(d.len as u32))),
        }
    }

    #[inline(always)]
    fn issue_block(&mut self, p: &mut BlockPlan) -> bool {
        self.on_time = false;
        if !p.usable { return false; }
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
                if self.ic_tags[(l & self.ic_set_mask) as usize * self.ic_ways] != l { return false; }
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

    fn issued_on_time(&self) -> bool { self.on_time }

    fn repeat_block(&mut self, p: &BlockPlan, k: u64) {
        // Each execution starts as the one before ends (on time, no penalty), from a state
        // that, relative to its start, is the one before's: the same plan holds every time.
        // Only the last one's writes remain.
        self.apply_plan(p, self.next + (k - 1) * p.end as u64, k);
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
    #[test]
    fn div_latency_range() {
        assert_eq!(div_latency(2, DivOp::Divu, 0xffff_ffff, 1), 33);
        assert_eq!(div_latency(2, DivOp::Divu, 1, 0xffff_ffff), 2);
        assert_eq!(div_latency(2, DivOp::Divu, 5, 0), 2);
        assert_eq!(div_latency(2, DivOp::Div, (-256i32) as u32, 2), 2 + 9 - 2);
        assert_eq!(div_latency(2, DivOp::Div, i32::MIN as u32, 1), 33);
    }
    #[test]
    fn btb_index_is_pc_half_mod_entries() {
        for entries in [1u32, 2, 3, 7, 40, 64, 1000] {
            let p = CoreParams { btb_entries: entries, ..CoreParams::e31() };
            let pl = Pipeline::new(p);
            let mut pc = 0x2040_0000u32;
            for i in 0..20_000u32 {
                pc = pc.wrapping_mul(1_664_525).wrapping_add(1_013_904_223 ^ i);
                for x in [pc, u32::MAX, u32::MAX - 1, 0, 2, entries * 2, entries * 2 - 2] {
                    assert_eq!(pl.btb_index(x), ((x >> 1) % entries) as usize, "pc {x:#x}, {entries} entries");
                }
            }
        }
    }
    #[test]
    fn toml_roundtrip() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/cores/e31.toml")).unwrap();
        assert_eq!(CoreParams::from_toml(&text).unwrap(), CoreParams::e31());
        assert!(CoreParams::from_toml("[latency]\nfoo = 1").is_err());
        assert!(CoreParams::from_toml("[latency]\nmul = \"x\"").is_err());
        assert!(CoreParams::from_toml("[branch]\nbht_entries = 100").is_err());
    }
}

//! rvsim: an RV32 instruction-set simulator with a cycle model of the SiFive E31.
pub mod ext;
pub mod isa;
pub mod csr;
pub mod decode;
pub mod disasm;
pub mod mem;
pub mod elf;
pub mod timing;
pub mod bpred;
pub mod semihost;
pub mod exec;
pub mod stop;
pub mod report;
pub mod ct;
pub mod randprog;

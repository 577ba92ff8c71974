//! rvsim: an RV32 instruction-set simulator with a cycle model of the SiFive E31.
pub mod ext;

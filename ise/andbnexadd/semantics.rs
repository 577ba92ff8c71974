/// andbnexadd rd, rs1, rs2 (RdAcc form; c = old rd):
/// rd = rd ^ (rs2 & -(rs1 >> 31))   -- constant time, no branch
pub fn exec(_s: &mut ExtState, a: u32, b: u32, c: u32) -> u32 {
    let mask = 0u32.wrapping_sub(a >> 31);
    c ^ (b & mask)
}

/// muladd rd, rs1, rs2, rs3 (R4 form; c = x[rs3]): rd = rs1 * rs2 + rs3 (mod 2^32)
pub fn exec(_s: &mut ExtState, a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// sboxaddrw rd, rs1, rs2, bs: rd = rs2 + (((rs1 >> 8*bs) & 0xff) << 2).
pub fn exec(_st: &mut ExtState, a: u32, b: u32, bs: u32) -> u32 {
    b.wrapping_add(((a >> (8 * (bs & 3))) & 0xff) << 2)
}

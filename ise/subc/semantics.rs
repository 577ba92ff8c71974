/// subc rd, rs1, rs2: rd = rs1 - rs2 - C; C = 1 if a borrow occurred (rs1 < rs2 + C).
pub fn exec(st: &mut ExtState, a: u32, b: u32, _c: u32) -> u32 {
    let sub = b as u64 + (st.carry & 1) as u64;
    st.carry = ((a as u64) < sub) as u32;
    (a as u64).wrapping_sub(sub) as u32
}

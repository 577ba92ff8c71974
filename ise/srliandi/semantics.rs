/// srliandi rd, rs1, shamt, mask7 (Imm form; b = instruction bits [31:20]):
/// rd = (rs1 >> b[4:0]) & b[11:5]
pub fn exec(_s: &mut ExtState, a: u32, b: u32, _c: u32) -> u32 {
    let shamt = b & 31;
    let mask = (b >> 5) & 0x7f;
    (a >> shamt) & mask
}

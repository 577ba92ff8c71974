// rv32i_core: the baseline for "relative area" — a small single-cycle RV32I core.
// Every RV32I instruction but the CSR/counter ones (FENCE is a no-op); ECALL/EBREAK stop it
// (halt); an illegal instruction or a misaligned access or jump target stops it with error.
// Instruction and data memory are outside, read combinationally (as a tightly coupled RAM
// with the read in the same cycle would be); x1..x31 are flip-flops. One ALU serves
// arithmetic, comparisons and address generation; branches compare in the same ALU.
// No multiplier, no CSRs, no interrupts: an extension unit's area is compared with this.
module rv32i_core #(parameter RESET_PC = 32'h2040_0000) (
    input  wire        clk, rst,
    output wire [31:0] imem_addr,
    input  wire [31:0] imem_rdata,
    output wire [31:0] dmem_addr, dmem_wdata,
    output wire [3:0]  dmem_wstrb,
    output wire        dmem_we, dmem_re,
    input  wire [31:0] dmem_rdata,
    output reg         halt, error,
    // retire interface (for testbenches; unused outputs cost nothing after synthesis)
    output wire        retire,
    output wire [31:0] retire_pc, retire_insn,
    output wire [4:0]  retire_rd,
    output wire [31:0] retire_rd_value
);
    reg  [31:0] pc;
    reg  [31:0] x [1:31];
    wire [31:0] insn = imem_rdata;
    assign imem_addr = pc;

    // ---- decode
    wire [6:0] opc = insn[6:0];
    wire [2:0] f3 = insn[14:12];
    wire       f7b5 = insn[30];
    wire [4:0] rd = insn[11:7], rs1 = insn[19:15], rs2 = insn[24:20];
    wire [31:0] imm_i = {{20{insn[31]}}, insn[31:20]};
    wire [31:0] imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
    wire [31:0] imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
    wire [31:0] imm_u = {insn[31:12], 12'd0};
    wire [31:0] imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};
    wire is_lui = opc == 7'b0110111, is_auipc = opc == 7'b0010111, is_jal = opc == 7'b1101111,
         is_jalr = opc == 7'b1100111 && f3 == 3'd0, is_br = opc == 7'b1100011,
         is_load = opc == 7'b0000011, is_store = opc == 7'b0100011, is_opi = opc == 7'b0010011,
         is_op = opc == 7'b0110011, is_fence = opc == 7'b0001111,
         is_sys = insn == 32'h0000_0073 || insn == 32'h0010_0073;       // ecall, ebreak
    // funct7 must be 0 (or 0100000 for sub/sra/srai); shifts-by-immediate check imm[11:5]
    wire f7_ok = insn[31:25] == 7'd0 || (insn[31:25] == 7'b0100000 && (f3 == 3'd5 || (is_op && f3 == 3'd0)));
    wire legal = is_lui | is_auipc | is_jal | is_jalr | is_sys | is_fence
               | (is_br && f3 != 3'd2 && f3 != 3'd3)
               | (is_load && f3 != 3'd3 && f3 < 3'd6) | (is_store && f3 < 3'd3)
               | (is_opi && (f3 == 3'd1 || f3 == 3'd5 ? f7_ok : 1'b1)) | (is_op && f7_ok);

    wire [31:0] v1 = rs1 == 5'd0 ? 32'd0 : x[rs1];
    wire [31:0] v2 = rs2 == 5'd0 ? 32'd0 : x[rs2];

    // ---- ALU: operation from funct3 (OP, OP-IMM) or fixed (address, compare)
    wire [31:0] opb = is_op || is_br ? v2 : is_store ? imm_s : imm_i;
    wire        sub = (is_op && f7b5 && f3 == 3'd0) || is_br;
    wire [32:0] diff = {1'b0, v1} - {1'b0, opb};
    wire [31:0] sum = sub ? diff[31:0] : v1 + opb;
    wire        lt  = (v1[31] ^ opb[31]) ? v1[31] : diff[31];    // signed less-than
    wire        ltu = diff[32];
    wire [4:0]  sh  = opb[4:0];
    wire [31:0] sra = $signed(v1) >>> sh;
    reg  [31:0] alu;
    always @* case (f3)
        3'd0: alu = sum;
        3'd1: alu = v1 << sh;
        3'd2: alu = {31'd0, lt};
        3'd3: alu = {31'd0, ltu};
        3'd4: alu = v1 ^ opb;
        3'd5: alu = f7b5 ? sra : v1 >> sh;
        3'd6: alu = v1 | opb;
        default: alu = v1 & opb;
    endcase
    wire eq = diff[31:0] == 32'd0;
    reg  taken;
    always @* case (f3)
        3'd0: taken = eq;   3'd1: taken = !eq;
        3'd4: taken = lt;   3'd5: taken = !lt;
        3'd6: taken = ltu;  default: taken = !ltu;
    endcase

    // ---- memory: address = v1 + offset, the ALU's sum for loads and stores
    wire [31:0] addr = sum;
    wire        misaligned = (f3[1:0] == 2'd1 && addr[0]) || (f3[1:0] == 2'd2 && addr[1:0] != 2'd0);
    assign dmem_addr  = {addr[31:2], 2'b00};
    assign dmem_re    = is_load && !misaligned && !halt;
    assign dmem_we    = is_store && !misaligned && !halt && !rst;
    assign dmem_wdata = f3[1:0] == 2'd0 ? {4{v2[7:0]}} : f3[1:0] == 2'd1 ? {2{v2[15:0]}} : v2;
    assign dmem_wstrb = f3[1:0] == 2'd0 ? 4'b0001 << addr[1:0]
                      : f3[1:0] == 2'd1 ? (addr[1] ? 4'b1100 : 4'b0011) : 4'b1111;
    wire [31:0] word  = dmem_rdata >> {addr[1:0], 3'b000};
    wire [31:0] ldata = f3 == 3'd0 ? {{24{word[7]}}, word[7:0]}
                      : f3 == 3'd1 ? {{16{word[15]}}, word[15:0]}
                      : f3 == 3'd4 ? {24'd0, word[7:0]}
                      : f3 == 3'd5 ? {16'd0, word[15:0]} : word;

    // ---- next pc and write-back
    wire [31:0] pc4 = pc + 32'd4;
    wire [31:0] target = is_jalr ? {sum[31:1], 1'b0} : pc + (is_jal ? imm_j : imm_b);
    wire        jump = is_jal || is_jalr || (is_br && taken);
    wire        bad = !legal || ((is_load || is_store) && misaligned) || (jump && target[1:0] != 2'd0);
    wire [31:0] wb = is_lui ? imm_u : is_auipc ? pc + imm_u : (is_jal || is_jalr) ? pc4
                   : is_load ? ldata : alu;
    wire        writes = (is_lui | is_auipc | is_jal | is_jalr | is_load | is_opi | is_op) && rd != 5'd0;

    assign retire = !rst && !halt && !bad && !is_sys;
    assign retire_pc = pc;
    assign retire_insn = insn;
    assign retire_rd = writes ? rd : 5'd0;
    assign retire_rd_value = writes ? wb : 32'd0;

    always @(posedge clk) begin
        if (rst) begin
            pc <= RESET_PC; halt <= 1'b0; error <= 1'b0;
        end else if (!halt) begin
            if (bad || is_sys) begin
                halt <= 1'b1; error <= bad;
            end else begin
                pc <= jump ? target : pc4;
                if (writes) x[rd] <= wb;
            end
        end
    end
endmodule

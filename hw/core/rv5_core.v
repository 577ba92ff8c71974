// rv5_core: a 5-stage in-order pipelined RV32I core (IF, ID, EX, MEM, WB) with configurable
// M, C, machine-mode CSRs and crypto instruction units. Its cycle behaviour is exactly what
// sim/cores/rv5.toml tells rvsim (hw/README.md "The pipelined core"):
//   - one instruction enters EX per cycle ("issues"); cycle 0 is the first one's EX cycle;
//   - full forwarding from MEM and WB into EX; a load's result reaches EX one cycle later than
//     an ALU result, so an instruction reading it right after the load waits one cycle in ID
//     (load-use interlock: result latency 2 for every load, 1 for everything else);
//   - DIV/DIVU/REM/REMU stay in EX for 2 + max(0, bitlen|a| - bitlen|b|) cycles (an early-
//     terminating restoring divider), holding everything behind them;
//   - static not-taken fetch; branches, jumps, mret and traps are resolved in EX and squash the
//     two younger instructions: 2 cycles for a taken branch, any jal/jalr, mret or trap;
//   - memories answer in the cycle they are asked (no caches, no wait states).
// Exceptions are all raised in EX, so they are precise without further machinery: the
// instruction in EX does not retire, the older ones in MEM and WB complete.
//
// Memories are outside: the instruction port returns the two halfwords at imem_addr and
// imem_addr + 2 (two interleaved halfword banks, so a 32-bit instruction at any halfword
// address is fetched in one cycle); the data port reads combinationally and writes at the
// clock edge. Semihosting (an ebreak between `slli x0,x0,0x1f` and `srai x0,x0,7`) is served
// by the environment through the sh_* port in the ebreak's EX cycle, as a debugger would.
module rv5_core #(
    parameter M = 1,            // MUL*, DIV*, REM*
    parameter C = 1,            // compressed instructions (an expander in ID)
    parameter ZICSR = 1,        // machine-mode CSRs, cycle/instret counters, traps
    parameter ZBKB = 0, ZBKC = 0, ZBKX = 0, ZKNE = 0, ZKND = 0, ZKNH = 0, ZKSED = 0, ZKSH = 0,
    parameter XZBP = 0,
    parameter XCARRY = 0,       // custom addc/subc with the hidden carry bit (ise/addc, ise/subc)
    parameter XSBOX = 0,        // custom sboxaddr/sboxaddrw (ise/sboxaddr, ise/sboxaddrw)
    parameter XPOLYMUL = 0,     // seed 004's srliandi/sllior/muladd/andbnexadd (custom-2, ise/);
                                // adds a third register read port (rd or rs3 as an operand)
    parameter SHARED_SBOX = 0,  // Zkne/Zknd/Zksed on one S-box datapath (zkne_zknd_zksed_unit)
    parameter TRACE = 0,        // drive the dbg_* ports (simulation); 0 for synthesis
    parameter [31:0] RESET_PC = 32'h2040_0000,
    // physical memory attributes (the E31 map): executable/readable ROM, read/write RAM
    parameter [31:0] ROM_BASE = 32'h2000_0000, ROM_SIZE = 32'h2000_0000,
    parameter [31:0] RAM_BASE = 32'h8000_0000, RAM_SIZE = 32'h0000_4000
) (
    input  wire        clk, rst,
    output wire [31:0] imem_addr,
    input  wire [31:0] imem_rdata,
    output wire [31:0] dmem_addr,
    output wire        dmem_we,
    output wire [3:0]  dmem_be,
    output wire [31:0] dmem_wdata,
    input  wire [31:0] dmem_rdata,
    output wire        sh_valid,          // semihosting call in EX: op = sh_a0, argument = sh_a1
    output wire [31:0] sh_pc, sh_a0, sh_a1,
    input  wire        sh_ok,             // the environment served it (the sequence matched)
    input  wire [31:0] sh_ret,            // value for a0
    output wire        halt,              // without ZICSR: stopped on an exception
    output wire        trap_taken,        // an exception is taken this cycle (cause, pc, tval)
    output wire [4:0]  trap_cause,
    output wire [31:0] trap_pc, trap_tval,
    output wire        dbg_retire,        // TRACE: an instruction leaves EX and retires,
    output wire [31:0] dbg_pc,            // its pc;
    output wire        dbg_hold,          // the instruction in EX stays another cycle (divide);
    output wire        dbg_wb,            // an instruction is in WB: its pc, the register it
    output wire [31:0] dbg_wb_pc,         // writes (0: none; a semihosting result in a0 is
    output wire [4:0]  dbg_wb_rd,         // not counted, as rvsim's trace does not show it)
    output wire [31:0] dbg_wb_val         // and the value
);
    localparam HAS_EXT = ZBKB | ZBKC | ZBKX | ZKNE | ZKND | ZKNH | ZKSED | ZKSH | XZBP | XCARRY | XSBOX | XPOLYMUL;

    // ------------------------------------------------------------------ pipeline state
    reg  [31:0] pc_f;
    reg         id_valid;  reg [31:0] id_pc, id_raw;
    reg         ex_valid;  reg [31:0] ex_pc, ex_inst, ex_a, ex_b, ex_imm;
    reg  [4:0]  ex_rd, ex_rs1, ex_rs2, ex_rs3;  // ex_rs1/2/3: the registers read as operands
    reg  [31:0] ex_c;                       // xpolymul's third operand (old rd, or rs3)
    reg         ex_wr, ex_len2, ex_ill, ex_ifault;
    reg         mem_valid, mem_wr, mem_load, mem_store;
    reg  [4:0]  mem_rd;
    reg  [31:0] mem_val, mem_sdata;
    reg  [2:0]  mem_f3;
    reg         wb_wr;     reg [4:0] wb_rd; reg [31:0] wb_val;
    reg  [31:0] rf [1:31];
    reg         halted;

    reg  [3:0]  ex_xunit, ex_xop;   // extension unit and operation of the instruction in EX
    reg         ex_xhit, ex_ximm;
    reg  [15:0] ex_inst_raw16;      // its 16 bits if compressed (mtval of an illegal one)
    wire redirect;                  // EX: taken branch, jump, trap or mret
    wire [31:0] redirect_pc;
    wire ex_hold;                   // EX: divider busy
    wire ld_use;                    // ID: load-use interlock

    // ------------------------------------------------------------------ IF
    assign imem_addr = pc_f;
    wire is32_f = imem_rdata[1:0] == 2'b11;
    wire [31:0] pc_seq = pc_f + ((C && !is32_f) ? 32'd2 : 32'd4);
    always @(posedge clk) begin
        if (rst) begin
            pc_f <= RESET_PC; id_valid <= 1'b0;
        end else if (redirect) begin
            pc_f <= redirect_pc; id_valid <= 1'b0;
        end else if (!(ex_hold || ld_use || halted)) begin
            pc_f <= pc_seq; id_valid <= 1'b1; id_pc <= pc_f; id_raw <= imem_rdata;
        end
    end

    // ------------------------------------------------------------------ ID
    // compressed expansion (RV32C without F/D): the 32-bit equivalent, or illegal
    reg  [31:0] cx; reg cx_ill;
    wire [15:0] h = id_raw[15:0];
    wire [4:0] rdp = {2'b01, h[4:2]}, rs1p = {2'b01, h[9:7]}, crd = h[11:7], crs2 = h[6:2];
    wire [11:0] ci6 = {{7{h[12]}}, h[6:2]};
    function [31:0] i_t; input [11:0] imm; input [4:0] rs1; input [2:0] f3; input [4:0] rd; input [6:0] op;
        i_t = {imm, rs1, f3, rd, op}; endfunction
    function [31:0] s_t; input [11:0] imm; input [4:0] rs2, rs1; input [2:0] f3;
        s_t = {imm[11:5], rs2, rs1, f3, imm[4:0], 7'h23}; endfunction
    function [31:0] r_t; input [6:0] f7; input [4:0] rs2, rs1; input [2:0] f3; input [4:0] rd;
        r_t = {f7, rs2, rs1, f3, rd, 7'h33}; endfunction
    function [31:0] b_t; input [12:0] off; input [4:0] rs1; input [2:0] f3;
        b_t = {off[12], off[10:5], 5'd0, rs1, f3, off[4:1], off[11], 7'h63}; endfunction
    function [31:0] j_t; input [20:0] off; input [4:0] rd;
        j_t = {off[20], off[10:1], off[11], off[19:12], rd, 7'h6f}; endfunction
    wire [20:0] cj_off = {{10{h[12]}}, h[8], h[10:9], h[6], h[7], h[2], h[11], h[5:3], 1'b0};
    wire [12:0] cb_off = {{5{h[12]}}, h[6:5], h[2], h[11:10], h[4:3], 1'b0};
    always @* begin
        cx = 32'd0; cx_ill = 1'b0;
        case ({h[1:0], h[15:13]})
            5'b00_000: begin cx = i_t({2'd0, h[10:7], h[12:11], h[5], h[6], 2'd0}, 5'd2, 3'd0, rdp, 7'h13);
                             cx_ill = h[12:5] == 8'd0; end                                   // c.addi4spn
            5'b00_010: cx = i_t({5'd0, h[5], h[12:10], h[6], 2'd0}, rs1p, 3'd2, rdp, 7'h03);  // c.lw
            5'b00_110: cx = s_t({5'd0, h[5], h[12:10], h[6], 2'd0}, rdp, rs1p, 3'd2);         // c.sw
            5'b01_000: cx = i_t(ci6, crd, 3'd0, crd, 7'h13);                                 // c.addi
            5'b01_001: cx = j_t(cj_off, 5'd1);                                               // c.jal
            5'b01_010: cx = i_t(ci6, 5'd0, 3'd0, crd, 7'h13);                                // c.li
            5'b01_011: if (crd == 5'd2) begin                                                // c.addi16sp
                           cx = i_t({{3{h[12]}}, h[4:3], h[5], h[2], h[6], 4'd0}, 5'd2, 3'd0, 5'd2, 7'h13);
                           cx_ill = {h[12], h[6:2]} == 6'd0;
                       end else begin                                                       // c.lui
                           cx = {{15{h[12]}}, h[6:2], crd, 7'h37};
                           cx_ill = {h[12], h[6:2]} == 6'd0;
                       end
            5'b01_100: case (h[11:10])
                           2'd0: begin cx = i_t({7'h00, h[6:2]}, rs1p, 3'd5, rs1p, 7'h13); cx_ill = h[12]; end
                           2'd1: begin cx = i_t({7'h20, h[6:2]}, rs1p, 3'd5, rs1p, 7'h13); cx_ill = h[12]; end
                           2'd2: cx = i_t(ci6, rs1p, 3'd7, rs1p, 7'h13);                     // c.andi
                           default: begin
                               case (h[6:5])
                                   2'd0: cx = r_t(7'h20, rdp, rs1p, 3'd0, rs1p);             // c.sub
                                   2'd1: cx = r_t(7'h00, rdp, rs1p, 3'd4, rs1p);             // c.xor
                                   2'd2: cx = r_t(7'h00, rdp, rs1p, 3'd6, rs1p);             // c.or
                                   default: cx = r_t(7'h00, rdp, rs1p, 3'd7, rs1p);          // c.and
                               endcase
                               cx_ill = h[12];
                           end
                       endcase
            5'b01_101: cx = j_t(cj_off, 5'd0);                                               // c.j
            5'b01_110: cx = b_t(cb_off, rs1p, 3'd0);                                         // c.beqz
            5'b01_111: cx = b_t(cb_off, rs1p, 3'd1);                                         // c.bnez
            5'b10_000: begin cx = i_t({7'h00, h[6:2]}, crd, 3'd1, crd, 7'h13); cx_ill = h[12]; end  // c.slli
            5'b10_010: begin cx = i_t({4'd0, h[3:2], h[12], h[6:4], 2'd0}, 5'd2, 3'd2, crd, 7'h03);
                             cx_ill = crd == 5'd0; end                                       // c.lwsp
            5'b10_100: if (!h[12]) begin
                           if (crs2 == 5'd0) begin cx = i_t(12'd0, crd, 3'd0, 5'd0, 7'h67); cx_ill = crd == 5'd0; end // c.jr
                           else cx = r_t(7'h00, crs2, 5'd0, 3'd0, crd);                      // c.mv
                       end else begin
                           if (crs2 == 5'd0 && crd == 5'd0) cx = 32'h0010_0073;              // c.ebreak
                           else if (crs2 == 5'd0) cx = i_t(12'd0, crd, 3'd0, 5'd1, 7'h67);   // c.jalr
                           else cx = r_t(7'h00, crs2, crd, 3'd0, crd);                       // c.add
                       end
            5'b10_110: cx = s_t({4'd0, h[8:7], h[12:9], 2'd0}, crs2, 5'd2, 3'd2);             // c.swsp
            default:   cx_ill = 1'b1;
        endcase
    end
    wire id_len2 = C && id_raw[1:0] != 2'b11;
    wire [31:0] inst = id_len2 ? cx : id_raw;
    wire [6:0] opc = inst[6:0];
    wire [2:0] f3 = inst[14:12];
    wire [6:0] f7 = inst[31:25];
    wire [4:0] rd = inst[11:7], rs1 = inst[19:15], rs2 = inst[24:20];

    // extension instructions: unit, operation (the unit's `// ops:` index), operand forms
    localparam U_ZBKB = 4'd0, U_ZBKC = 4'd1, U_ZBKX = 4'd2, U_ZKNE = 4'd3, U_ZKND = 4'd4,
               U_ZKNH = 4'd5, U_ZKSED = 4'd6, U_ZKSH = 4'd7, U_XZBP = 4'd8, U_XCARRY = 4'd9,
               U_XSBOX = 4'd10, U_XPOLYMUL = 4'd11;
    reg x_hit, x_rs2, x_imm; reg [3:0] x_unit, x_opn;
    task hit; input [3:0] unit, op; input use_rs2, imm_b;
        begin if (!x_hit) begin x_hit = 1'b1; x_unit = unit; x_opn = op; x_rs2 = use_rs2; x_imm = imm_b; end end
    endtask
    wire [31:0] w = inst;
    `define R(f7v, f3v)  ((w & 32'hfe00707f) == (((f7v) << 25) | ((f3v) << 12) | 32'h33))
    `define U(i12, f3v)  ((w & 32'hfff0707f) == (((i12) << 20) | ((f3v) << 12) | 32'h13))
    `define SH(f7v, f3v) ((w & 32'hfe00707f) == (((f7v) << 25) | ((f3v) << 12) | 32'h13))
    `define SHF(f3v)     ((w & 32'hff00707f) == ((32'h04 << 25) | ((f3v) << 12) | 32'h13))
    `define BS(f5)       ((w & 32'h3e00707f) == (((f5) << 25) | 32'h33))
    always @(w) begin
        x_hit = 1'b0; x_rs2 = 1'b0; x_imm = 1'b0; x_unit = 4'd0; x_opn = 4'd0;
        if (ZBKB) begin   // ops: ror rol rori andn orn xnor pack packh brev8 rev8 zip unzip
            if (`R(32'h30, 32'd5)) hit(U_ZBKB, 0, 1, 0);  if (`R(32'h30, 32'd1)) hit(U_ZBKB, 1, 1, 0);
            if (`SH(32'h30, 32'd5)) hit(U_ZBKB, 2, 0, 1); if (`R(32'h20, 32'd7)) hit(U_ZBKB, 3, 1, 0);
            if (`R(32'h20, 32'd6)) hit(U_ZBKB, 4, 1, 0);  if (`R(32'h20, 32'd4)) hit(U_ZBKB, 5, 1, 0);
            if (`R(32'h04, 32'd4)) hit(U_ZBKB, 6, 1, 0);  if (`R(32'h04, 32'd7)) hit(U_ZBKB, 7, 1, 0);
            if (`U(32'h687, 32'd5)) hit(U_ZBKB, 8, 0, 0); if (`U(32'h698, 32'd5)) hit(U_ZBKB, 9, 0, 0);
            if (`U(32'h08f, 32'd1)) hit(U_ZBKB, 10, 0, 0); if (`U(32'h08f, 32'd5)) hit(U_ZBKB, 11, 0, 0);
        end
        if (ZBKC) begin   // ops: clmul clmulh
            if (`R(32'h05, 32'd1)) hit(U_ZBKC, 0, 1, 0);  if (`R(32'h05, 32'd3)) hit(U_ZBKC, 1, 1, 0);
        end
        if (ZBKX) begin   // ops: xperm4 xperm8
            if (`R(32'h14, 32'd2)) hit(U_ZBKX, 0, 1, 0);  if (`R(32'h14, 32'd4)) hit(U_ZBKX, 1, 1, 0);
        end
        // AES and SM4: with SHARED_SBOX one unit (ops aes32esi aes32esmi aes32dsi aes32dsmi
        // sm4ed sm4ks), else one per extension (ops: the pair of each)
        if (ZKNE) begin
            if (`BS(32'h11)) hit(U_ZKNE, 0, 1, 0);         if (`BS(32'h13)) hit(U_ZKNE, 1, 1, 0);
        end
        if (ZKND) begin
            if (`BS(32'h15)) hit(SHARED_SBOX ? U_ZKNE : U_ZKND, SHARED_SBOX ? 2 : 0, 1, 0);
            if (`BS(32'h17)) hit(SHARED_SBOX ? U_ZKNE : U_ZKND, SHARED_SBOX ? 3 : 1, 1, 0);
        end
        if (ZKSED) begin
            if (`BS(32'h18)) hit(SHARED_SBOX ? U_ZKNE : U_ZKSED, SHARED_SBOX ? 4 : 0, 1, 0);
            if (`BS(32'h1a)) hit(SHARED_SBOX ? U_ZKNE : U_ZKSED, SHARED_SBOX ? 5 : 1, 1, 0);
        end
        if (ZKNH) begin   // ops: sha256sum0 sum1 sig0 sig1 sha512sum0r sum1r sig0l sig0h sig1l sig1h
            if (`U(32'h100, 32'd1)) hit(U_ZKNH, 0, 0, 0); if (`U(32'h101, 32'd1)) hit(U_ZKNH, 1, 0, 0);
            if (`U(32'h102, 32'd1)) hit(U_ZKNH, 2, 0, 0); if (`U(32'h103, 32'd1)) hit(U_ZKNH, 3, 0, 0);
            if (`R(32'h28, 32'd0)) hit(U_ZKNH, 4, 1, 0);  if (`R(32'h29, 32'd0)) hit(U_ZKNH, 5, 1, 0);
            if (`R(32'h2a, 32'd0)) hit(U_ZKNH, 6, 1, 0);  if (`R(32'h2e, 32'd0)) hit(U_ZKNH, 7, 1, 0);
            if (`R(32'h2b, 32'd0)) hit(U_ZKNH, 8, 1, 0);  if (`R(32'h2f, 32'd0)) hit(U_ZKNH, 9, 1, 0);
        end
        if (ZKSH) begin   // ops: sm3p0 sm3p1
            if (`U(32'h108, 32'd1)) hit(U_ZKSH, 0, 0, 0); if (`U(32'h109, 32'd1)) hit(U_ZKSH, 1, 0, 0);
        end
        if (XZBP) begin   // ops: grev grevi shfl unshfl shfli unshfli
            if (`R(32'h34, 32'd5)) hit(U_XZBP, 0, 1, 0);  if (`SH(32'h34, 32'd5)) hit(U_XZBP, 1, 0, 1);
            if (`R(32'h04, 32'd1)) hit(U_XZBP, 2, 1, 0);  if (`R(32'h04, 32'd5)) hit(U_XZBP, 3, 1, 0);
            if (`SHF(32'd1)) hit(U_XZBP, 4, 0, 1);         if (`SHF(32'd5)) hit(U_XZBP, 5, 0, 1);
        end
        // custom-0 (0x0b), as ise/<name>/insn.toml define them; op 0/1 = the two instructions
        if (XCARRY) begin  // addc, subc: R form, funct3 0, funct7 0/1
            if ((w & 32'hfe00707f) == 32'h0000000b) hit(U_XCARRY, 0, 1, 0);
            if ((w & 32'hfe00707f) == 32'h0200000b) hit(U_XCARRY, 1, 1, 0);
        end
        if (XSBOX) begin   // sboxaddr, sboxaddrw: Bs form, funct3 1, funct5 0/1
            if ((w & 32'h3e00707f) == 32'h0000100b) hit(U_XSBOX, 0, 1, 0);
            if ((w & 32'h3e00707f) == 32'h0200100b) hit(U_XSBOX, 1, 1, 0);
        end
        // custom-2 (0x5b): op = funct3 (srliandi Imm, sllior RdAccImm, muladd R4, andbnexadd RdAcc)
        if (XPOLYMUL) begin
            if ((w & 32'h0000707f) == 32'h0000005b) hit(U_XPOLYMUL, 0, 0, 1);
            if ((w & 32'hfe00707f) == 32'h0000105b) hit(U_XPOLYMUL, 1, 0, 1);
            if ((w & 32'h0600707f) == 32'h0000205b) hit(U_XPOLYMUL, 2, 1, 0);
            if ((w & 32'hfe00707f) == 32'h0000305b) hit(U_XPOLYMUL, 3, 1, 0);
        end
    end
    `undef R
    `undef U
    `undef SH
    `undef SHF
    `undef BS

    // base decode: which registers are read (for the interlock: as rvsim's decoder), legality
    reg use1, use2, wr, ill;
    reg [31:0] imm;
    always @* begin
        use1 = 1'b0; use2 = 1'b0; wr = 1'b0; ill = 1'b0; imm = 32'd0;
        case (opc)
            7'h37, 7'h17: begin wr = 1'b1; imm = {inst[31:12], 12'd0}; end                        // lui auipc
            7'h6f: begin wr = 1'b1; imm = {{12{inst[31]}}, inst[19:12], inst[20], inst[30:21], 1'b0}; end
            7'h67: begin use1 = 1'b1; wr = 1'b1; imm = {{20{inst[31]}}, inst[31:20]}; ill = f3 != 3'd0; end
            7'h63: begin use1 = 1'b1; use2 = 1'b1; ill = f3 == 3'd2 || f3 == 3'd3;
                         imm = {{20{inst[31]}}, inst[7], inst[30:25], inst[11:8], 1'b0}; end
            7'h03: begin use1 = 1'b1; wr = 1'b1; imm = {{20{inst[31]}}, inst[31:20]};
                         ill = f3 == 3'd3 || f3[2:1] == 2'b11; end
            7'h23: begin use1 = 1'b1; use2 = 1'b1; imm = {{20{inst[31]}}, inst[31:25], inst[11:7]}; ill = f3 > 3'd2; end
            7'h13: begin use1 = 1'b1; wr = 1'b1; imm = {{20{inst[31]}}, inst[31:20]};
                         ill = (f3 == 3'd1 && f7 != 7'h00) || (f3 == 3'd5 && f7 != 7'h00 && f7 != 7'h20); end
            7'h33: begin use1 = 1'b1; use2 = 1'b1; wr = 1'b1;
                         ill = !(f7 == 7'h00 || (f7 == 7'h20 && (f3 == 3'd0 || f3 == 3'd5)) || (M && f7 == 7'h01)); end
            7'h0f: ill = f3 > 3'd1;                                                              // fence, fence.i: no-ops
            7'h73: if (f3 == 3'd0)
                       ill = !(inst == 32'h0000_0073 || inst == 32'h0010_0073 ||
                               (ZICSR && (inst == 32'h3020_0073 || inst == 32'h1050_0073)));
                   else begin
                       ill = !ZICSR || f3 == 3'd4; wr = 1'b1; use1 = !f3[2];
                       imm = {27'd0, inst[19:15]};
                   end
            default: ill = 1'b1;
        endcase
        if (HAS_EXT && x_hit) begin             // an extension row replaces the base decode
            ill = 1'b0; use1 = 1'b1; use2 = x_rs2; wr = 1'b1; imm = {20'd0, inst[31:20]};
        end
        if (id_len2 && cx_ill) ill = 1'b1;
        if (!C && id_raw[1:0] != 2'b11) ill = 1'b1;
    end
    wire [4:0] id_rs1 = use1 ? rs1 : 5'd0, id_rs2 = use2 ? rs2 : 5'd0;
    // the third operand of xpolymul: rs3 (bits 31:27) for muladd, the old rd for the
    // accumulator forms sllior and andbnexadd; an interlocked source like the other two
    wire use3 = XPOLYMUL && x_hit && x_unit == U_XPOLYMUL && x_opn != 4'd0;
    wire [4:0] id_rs3 = !use3 ? 5'd0 : x_opn == 4'd2 ? inst[31:27] : rd;
    // registers read as operands: an ebreak reads a0 and a1 for a semihosting call (without
    // making them interlocked sources, as rvsim's decoder lists none)
    wire id_ebreak = inst == 32'h0010_0073;
    wire [4:0] rd1 = id_ebreak ? 5'd10 : rs1, rd2 = id_ebreak ? 5'd11 : rs2;

    // register read; a write in WB this cycle is seen (write-through)
    function [31:0] rf_read; input [4:0] r;
        rf_read = r == 5'd0 ? 32'd0 : (wb_wr && wb_rd == r) ? wb_val : rf[r];
    endfunction
    assign ld_use = id_valid && ex_valid && ex_inst[6:0] == 7'h03 && ex_rd != 5'd0 &&
                    (ex_rd == id_rs1 || ex_rd == id_rs2 || ex_rd == id_rs3);
    // an instruction fetched outside the executable regions carries a fault to EX
    function pma_x; input [31:0] v;
        pma_x = (v - ROM_BASE) < ROM_SIZE || (v - RAM_BASE) < RAM_SIZE;
    endfunction
    wire id_ifault = !pma_x(id_pc);

    always @(posedge clk) begin
        if (rst || redirect || (ld_use && !ex_hold)) begin
            ex_valid <= 1'b0;
        end else if (ex_hold) begin
            // the divide's operands may have been forwarded from MEM/WB, which move on
            ex_a <= a; ex_b <= rs2v;
        end else if (!halted) begin
            ex_valid <= id_valid; ex_inst_raw16 <= id_raw[15:0];
            ex_pc <= id_pc; ex_inst <= inst; ex_len2 <= id_len2; ex_ill <= ill; ex_ifault <= id_ifault;
            ex_rd <= wr ? rd : 5'd0; ex_wr <= wr && rd != 5'd0;
            ex_rs1 <= rd1; ex_rs2 <= rd2; ex_rs3 <= id_rs3;
            ex_a <= rf_read(rd1); ex_b <= rf_read(rd2); ex_c <= rf_read(id_rs3); ex_imm <= imm;
            ex_xunit <= x_unit; ex_xop <= x_opn; ex_xhit <= HAS_EXT && x_hit; ex_ximm <= x_imm;
        end
    end

    // ------------------------------------------------------------------ EX
    // forwarding: the instruction in MEM (not a load: the interlock keeps those away), then WB
    wire [4:0] xr1 = ex_rs1, xr2 = ex_rs2;
    wire [31:0] a = (mem_valid && mem_wr && !mem_load && mem_rd == xr1 && xr1 != 5'd0) ? mem_val
                  : (wb_wr && wb_rd == xr1 && xr1 != 5'd0) ? wb_val : ex_a;
    wire [31:0] rs2v = (mem_valid && mem_wr && !mem_load && mem_rd == xr2 && xr2 != 5'd0) ? mem_val
                     : (wb_wr && wb_rd == xr2 && xr2 != 5'd0) ? wb_val : ex_b;
    wire [31:0] rs3v = (mem_valid && mem_wr && !mem_load && mem_rd == ex_rs3 && ex_rs3 != 5'd0) ? mem_val
                     : (wb_wr && wb_rd == ex_rs3 && ex_rs3 != 5'd0) ? wb_val : ex_c;
    wire [6:0] xopc = ex_inst[6:0];
    wire [2:0] xf3 = ex_inst[14:12];
    wire [6:0] xf7 = ex_inst[31:25];
    wire x_lui = xopc == 7'h37, x_auipc = xopc == 7'h17, x_jal = xopc == 7'h6f, x_jalr = xopc == 7'h67;
    wire x_br = xopc == 7'h63, x_ld = xopc == 7'h03, x_st = xopc == 7'h23;
    wire x_opi = xopc == 7'h13, x_op = xopc == 7'h33, x_sys = xopc == 7'h73;
    wire x_muldiv = M && x_op && xf7 == 7'h01 && !ex_xhit;
    wire x_div = x_muldiv && xf3[2];
    wire x_csr = ZICSR && x_sys && xf3 != 3'd0;
    wire x_ecall = x_sys && ex_inst == 32'h0000_0073;
    wire x_ebreak = x_sys && ex_inst == 32'h0010_0073;
    wire x_mret = ZICSR && x_sys && ex_inst == 32'h3020_0073;

    // ALU (register-register or register-immediate)
    wire [31:0] b = (x_op || x_br) ? rs2v : ex_imm;
    wire sub = x_op && xf7[5];
    wire [31:0] sum = a + (sub ? ~b : b) + {31'd0, sub};
    wire lt = $signed(a) < $signed(b), ltu = a < b;
    wire [31:0] sr = $signed({xf7[5] & a[31], a}) >>> b[4:0];
    reg [31:0] alu;
    always @* begin
        case (xf3)
            3'd0: alu = sum;
            3'd1: alu = a << b[4:0];
            3'd2: alu = {31'd0, lt};
            3'd3: alu = {31'd0, ltu};
            3'd4: alu = a ^ b;
            3'd5: alu = sr;
            3'd6: alu = a | b;
            default: alu = a & b;
        endcase
    end
    wire taken = x_br && (xf3[2] ? (xf3[1] ? ltu : lt) : (a == rs2v)) ^ xf3[0];
    wire [31:0] link = ex_pc + (ex_len2 ? 32'd2 : 32'd4);
    wire [31:0] target = x_jalr ? ((a + ex_imm) & ~32'd1) : ex_pc + ex_imm;
    wire [31:0] addr = a + ex_imm;

    // M: one 33x33 signed multiplier; an early-terminating restoring divider
    wire [31:0] md_res;
    wire [31:0] mul_lo;             // low word of the multiplier's product (muladd shares it)
    wire div_done;
    generate if (M) begin : g_m
        wire sa = xf3 != 3'd3, sb = xf3 == 3'd1;          // mulh: both signed, mulhsu: a signed
        wire signed [32:0] ma = {sa & a[31], a}, mb = {sb & rs2v[31], rs2v};
        wire signed [65:0] p = ma * mb;
        // divider: cycle 0 normalises (divisor shifted to the dividend's bit length), each
        // later cycle produces one quotient bit; the last one's result leaves EX directly
        wire sgn = !xf3[0];
        wire [31:0] ua = (sgn && a[31]) ? -a : a, ub = (sgn && rs2v[31]) ? -rs2v : rs2v;
        function [5:0] bitlen; input [31:0] v; integer i;
            begin bitlen = 6'd0; for (i = 0; i < 32; i = i + 1) if (v[i]) bitlen = i + 1; end
        endfunction
        wire [5:0] la = bitlen(ua), lb = bitlen(ub);
        wire trivial = rs2v == 32'd0 || la < lb;          // quotient 0 or division by zero
        reg busy, triv; reg [4:0] cnt; reg [31:0] R, D, Q;
        wire ge = R >= D;
        wire [31:0] r1 = ge ? R - D : R, q1 = {Q[30:0], ge};
        assign div_done = busy && (triv || cnt == 5'd0);
        always @(posedge clk) begin
            if (rst || !x_div || !ex_valid || div_done) busy <= 1'b0;
            else if (!busy) begin
                busy <= 1'b1; triv <= trivial; cnt <= la - lb;
                R <= ua; D <= ub << (la - lb); Q <= 32'd0;
            end else begin
                cnt <= cnt - 5'd1; R <= r1; D <= D >> 1; Q <= q1;
            end
        end
        wire [31:0] q = rs2v == 32'd0 ? 32'hffff_ffff : triv ? 32'd0 : ((sgn && (a[31] ^ rs2v[31])) ? -q1 : q1);
        wire [31:0] r = triv ? a : ((sgn && a[31]) ? -r1 : r1);
        assign md_res = !xf3[2] ? (xf3 == 3'd0 ? p[31:0] : p[63:32]) : xf3[1] ? r : q;
        assign mul_lo = p[31:0];
    end else begin : g_no_m
        assign md_res = 32'd0;
        assign mul_lo = 32'd0;
        assign div_done = 1'b1;
    end endgenerate
    assign ex_hold = ex_valid && x_div && !div_done;

    // extension units
    wire [31:0] xb = ex_ximm ? {20'd0, ex_inst[31:20]} : rs2v;
    wire [31:0] xc = {30'd0, ex_inst[31:30]};
    wire [31:0] y_zbkb, y_zbkc, y_zbkx, y_zkne, y_zknd, y_zknh, y_zksed, y_zksh, y_xzbp, y_xcarry, y_xsbox, y_xpolymul;
    reg carry;                      // xcarry's architectural carry bit C
    wire carry_next;
    generate
        if (ZBKB) zbkb_unit u_zbkb(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zbkb)); else assign y_zbkb = 0;
        if (ZBKC) zbkc_unit u_zbkc(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zbkc)); else assign y_zbkc = 0;
        if (ZBKX) zbkx_unit u_zbkx(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zbkx)); else assign y_zbkx = 0;
        if (SHARED_SBOX && (ZKNE | ZKND | ZKSED)) begin : g_shared
            zkne_zknd_zksed_unit u_sbox(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zkne));
            assign y_zknd = 0; assign y_zksed = 0;
        end else begin : g_separate
            if (ZKNE) zkne_unit u_zkne(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zkne)); else assign y_zkne = 0;
            if (ZKND) zknd_unit u_zknd(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zknd)); else assign y_zknd = 0;
            if (ZKSED) zksed_unit u_zksed(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zksed)); else assign y_zksed = 0;
        end
        if (ZKNH) zknh_unit u_zknh(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zknh)); else assign y_zknh = 0;
        if (ZKSH) zksh_unit u_zksh(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_zksh)); else assign y_zksh = 0;
        if (XZBP) xzbp_unit u_xzbp(.op(ex_xop), .a(a), .b(xb), .c(xc), .y(y_xzbp)); else assign y_xzbp = 0;
        if (XCARRY) begin : g_xcarry
            wire [31:0] ya, ys; wire ca, cs;
            addc_unit u_addc(.a(a), .b(xb), .c(xc), .carry_in(carry), .y(ya), .carry_out(ca));
            subc_unit u_subc(.a(a), .b(xb), .c(xc), .carry_in(carry), .y(ys), .carry_out(cs));
            assign y_xcarry = ex_xop[0] ? ys : ya;
            assign carry_next = ex_xop[0] ? cs : ca;
            always @(posedge clk)
                if (rst) carry <= 1'b0;
                else if (retire && ex_xhit && ex_xunit == U_XCARRY) carry <= carry_next;
        end else begin : g_no_xcarry
            assign y_xcarry = 0; assign carry_next = 1'b0;
        end
        if (XSBOX) begin : g_xsbox
            wire [31:0] y0, y1; wire c0, c1;
            sboxaddr_unit u_sboxaddr(.a(a), .b(xb), .c(xc), .carry_in(1'b0), .y(y0), .carry_out(c0));
            sboxaddrw_unit u_sboxaddrw(.a(a), .b(xb), .c(xc), .carry_in(1'b0), .y(y1), .carry_out(c1));
            assign y_xsbox = ex_xop[0] ? y1 : y0;
        end else begin : g_no_xsbox
            assign y_xsbox = 0;
        end
        if (XPOLYMUL) begin : g_xpolymul
            wire [31:0] y0, y1, y2, y3; wire c0, c1, c2, c3;
            srliandi_unit u_srliandi(.a(a), .b(xb), .c(rs3v), .carry_in(1'b0), .y(y0), .carry_out(c0));
            sllior_unit u_sllior(.a(a), .b(xb), .c(rs3v), .carry_in(1'b0), .y(y1), .carry_out(c1));
            // with M, muladd's product comes from M's multiplier (its operands are a and rs2v,
            // and the low word does not depend on their signedness): one multiplier, not two
            if (M) assign y2 = mul_lo + rs3v;
            else muladd_unit u_muladd(.a(a), .b(xb), .c(rs3v), .carry_in(1'b0), .y(y2), .carry_out(c2));
            andbnexadd_unit u_andbnexadd(.a(a), .b(xb), .c(rs3v), .carry_in(1'b0), .y(y3), .carry_out(c3));
            assign y_xpolymul = ex_xop[1] ? (ex_xop[0] ? y3 : y2) : (ex_xop[0] ? y1 : y0);
        end else begin : g_no_xpolymul
            assign y_xpolymul = 0;
        end
    endgenerate
    reg [31:0] x_res;
    always @* case (ex_xunit)
        U_ZBKB: x_res = y_zbkb;   U_ZBKC: x_res = y_zbkc;   U_ZBKX: x_res = y_zbkx;
        U_ZKNE: x_res = y_zkne;   U_ZKND: x_res = y_zknd;   U_ZKNH: x_res = y_zknh;
        U_ZKSED: x_res = y_zksed; U_ZKSH: x_res = y_zksh;   U_XCARRY: x_res = y_xcarry;
        U_XSBOX: x_res = y_xsbox; U_XPOLYMUL: x_res = y_xpolymul; default: x_res = y_xzbp;
    endcase

    // exceptions, in the privileged specification's priority order
    wire misal_ld = x_ld && ((xf3[1:0] == 2'd2 && addr[1:0] != 2'd0) || (xf3[1:0] == 2'd1 && addr[0]));
    wire misal_st = x_st && ((xf3[1:0] == 2'd2 && addr[1:0] != 2'd0) || (xf3[1:0] == 2'd1 && addr[0]));
    wire fault_ld = x_ld && !((addr - ROM_BASE) < ROM_SIZE || (addr - RAM_BASE) < RAM_SIZE);
    wire fault_st = x_st && !((addr - RAM_BASE) < RAM_SIZE);
    wire misal_pc = !C && ((x_jal || x_jalr) && target[1] || taken && target[1]);
    wire sh_call = x_ebreak && !ex_len2;             // a 32-bit ebreak may be a semihosting call
    wire csr_fault;
    wire [31:0] csr_rdata;
    reg exc; reg [4:0] cause; reg [31:0] tval;
    always @* begin
        exc = 1'b1; tval = 32'd0;
        if (ex_ifault) begin cause = 5'd1; tval = ex_pc; end
        else if (ex_ill || (x_csr && csr_fault)) begin
            cause = 5'd2; tval = ex_len2 ? {16'd0, ex_inst_raw16} : ex_inst;
        end
        else if (misal_pc) begin cause = 5'd0; tval = target; end
        else if (x_ecall) cause = 5'd11;
        else if (x_ebreak && !(sh_call && sh_ok)) cause = 5'd3;
        else if (misal_ld) begin cause = 5'd4; tval = addr; end
        else if (misal_st) begin cause = 5'd6; tval = addr; end
        else if (fault_ld) begin cause = 5'd5; tval = addr; end
        else if (fault_st) begin cause = 5'd7; tval = addr; end
        else begin exc = 1'b0; cause = 5'd0; end
    end

    wire ex_go = ex_valid && !ex_hold && !halted;    // the instruction in EX completes this cycle
    wire ex_trap = ex_go && exc;
    wire retire = ex_go && !exc;
    assign sh_valid = ex_valid && !halted && sh_call && !ex_ill && !ex_ifault;
    assign sh_pc = ex_pc; assign sh_a0 = a; assign sh_a1 = rs2v;

    // ------------------------------------------------------------------ machine-mode CSRs
    wire [31:0] mtvec, mepc;
    generate if (ZICSR) begin : g_csr
        reg [31:0] mtvec_r, mscratch, mepc_r, mcause, mtval;
        reg mie_b, mpie; reg [2:0] mie; reg cy_inh, ir_inh;
        reg [63:0] mcycle, minstret;
        wire [11:0] csr = ex_inst[31:20];
        wire [31:0] src = xf3[2] ? ex_imm : a;
        wire writes = xf3[1:0] == 2'd1 || ex_inst[19:15] != 5'd0;
        // MXL = 32-bit, I, M, C, and X with a non-standard extension (x...), as rvsim's misa
        localparam [31:0] MISA = 32'h4000_0100 | (M ? 32'h1000 : 0) | (C ? 32'h4 : 0) | ((XZBP | XCARRY | XSBOX) ? 32'h80_0000 : 0);
        reg [31:0] rv; reg ok;
        always @* begin
            ok = 1'b1; rv = 32'd0;
            casez (csr)      // the CSRs rvsim has (src/csr.rs), first match wins
                12'hc00, 12'hb00, 12'hc01: rv = mcycle[31:0];
                12'hc80, 12'hb80, 12'hc81: rv = mcycle[63:32];
                12'hc02, 12'hb02: rv = minstret[31:0];
                12'hc82, 12'hb82: rv = minstret[63:32];
                12'hb01, 12'hb81, 12'h321, 12'h322: ok = 1'b0;
                // hpm counters 3..31 and their events: 0; no PMP entries: pmpcfg/pmpaddr read 0
                12'b1100_000?_????, 12'b1100_100?_????, 12'b1011_000?_????, 12'b1011_100?_????,
                12'b0011_001?_????, 12'h3a0, 12'h3a1, 12'h3a2, 12'h3a3, 12'h3b?: rv = 32'd0;
                12'hf11, 12'hf12, 12'hf13, 12'hf14, 12'hf15, 12'h310, 12'h344: rv = 32'd0;
                12'h300: rv = {19'd0, 2'b11, 3'd0, mpie, 3'd0, mie_b, 3'd0};
                12'h301: rv = MISA;
                12'h304: rv = {20'd0, mie[2], 3'd0, mie[1], 3'd0, mie[0], 3'd0};
                12'h305: rv = mtvec_r;
                12'h320: rv = {29'd0, ir_inh, 1'b0, cy_inh};
                12'h340: rv = mscratch;
                12'h341: rv = C ? mepc_r : {mepc_r[31:2], 2'b00};
                12'h342: rv = mcause;
                12'h343: rv = mtval;
                default: ok = 1'b0;
            endcase
            if (csr[11:10] == 2'b11 && writes) ok = 1'b0;   // read-only by number
        end
        assign csr_fault = !ok;
        assign csr_rdata = rv;
        wire [31:0] nv = xf3[1:0] == 2'd1 ? src : xf3[1:0] == 2'd2 ? (rv | src) : (rv & ~src);
        wire wcsr = retire && x_csr && writes;
        wire cy_new = (wcsr && csr == 12'h320) ? nv[0] : cy_inh;
        always @(posedge clk) begin
            if (rst) begin
                mtvec_r <= 32'd0; mie_b <= 1'b0; mpie <= 1'b0;
                mcycle <= 64'hffff_ffff_ffff_fffe;        // reads 0 in the first EX cycle
                minstret <= 64'd0; cy_inh <= 1'b0; ir_inh <= 1'b0; mie <= 3'd0;
            end else begin
                // mcycle: a write sets the value this cycle's count starts from; the inhibit bit
                // written this cycle already applies (rvsim's Counter semantics, src/csr.rs)
                mcycle <= ((wcsr && csr == 12'hb00) ? {mcycle[63:32], nv} :
                           (wcsr && csr == 12'hb80) ? {nv, mcycle[31:0]} : mcycle) + (cy_new ? 64'd0 : 64'd1);
                // minstret: the writing instruction does not count; the old inhibit bit applies
                if (wcsr && csr == 12'hb02) minstret <= {minstret[63:32], nv};
                else if (wcsr && csr == 12'hb82) minstret <= {nv, minstret[31:0]};
                else if (retire && !ir_inh) minstret <= minstret + 64'd1;
                if (wcsr) case (csr)
                    12'h300: begin mie_b <= nv[3]; mpie <= nv[7]; end
                    12'h304: mie <= {nv[11], nv[7], nv[3]};
                    12'h305: if (nv[1:0] < 2'd2) mtvec_r <= nv;
                    12'h320: begin cy_inh <= nv[0]; ir_inh <= nv[2]; end
                    12'h340: mscratch <= nv;
                    12'h341: mepc_r <= {nv[31:1], 1'b0};
                    12'h342: mcause <= nv;
                    12'h343: mtval <= nv;
                    default: ;
                endcase
                if (ex_trap) begin
                    mepc_r <= {ex_pc[31:1], 1'b0}; mcause <= {27'd0, cause}; mtval <= tval;
                    mpie <= mie_b; mie_b <= 1'b0;
                end else if (retire && x_mret) begin
                    mie_b <= mpie; mpie <= 1'b1;
                end
            end
        end
        assign mtvec = mtvec_r;
        assign mepc = C ? mepc_r : {mepc_r[31:2], 2'b00};
    end else begin : g_no_csr
        assign csr_fault = 1'b1; assign csr_rdata = 32'd0;
        assign mtvec = 32'd0; assign mepc = 32'd0;
    end endgenerate

    // control transfer out of EX
    assign redirect = ex_go && (exc ? ZICSR != 0 : (taken || x_jal || x_jalr || x_mret));
    assign redirect_pc = exc ? {mtvec[31:2], 2'b00} : x_mret ? mepc : target;
    always @(posedge clk) if (rst) halted <= 1'b0; else if (ex_trap && !ZICSR) halted <= 1'b1;
    assign halt = halted;
    assign trap_taken = ex_trap; assign trap_cause = cause; assign trap_pc = ex_pc; assign trap_tval = tval;

    // result of the instruction in EX
    reg [31:0] ex_res;
    always @* begin
        if (x_lui) ex_res = ex_imm;
        else if (x_auipc) ex_res = ex_pc + ex_imm;
        else if (x_jal || x_jalr) ex_res = link;
        else if (ex_xhit) ex_res = x_res;
        else if (x_muldiv) ex_res = md_res;
        else if (x_csr) ex_res = csr_rdata;
        else if (x_ebreak) ex_res = sh_ret;
        else ex_res = alu;
    end

    // ------------------------------------------------------------------ MEM
    always @(posedge clk) begin
        if (rst || !retire) begin
            mem_valid <= 1'b0; mem_wr <= 1'b0; mem_load <= 1'b0; mem_store <= 1'b0;
        end else begin
            mem_valid <= 1'b1;
            // a served semihosting ebreak writes its result to a0
            mem_wr <= ex_wr || x_ebreak; mem_rd <= x_ebreak ? 5'd10 : ex_rd;
            mem_load <= x_ld; mem_store <= x_st; mem_f3 <= xf3;
            mem_val <= x_ld || x_st ? addr : ex_res; mem_sdata <= rs2v;
        end
    end
    assign dmem_addr = {mem_val[31:2], 2'b00};
    assign dmem_we = mem_valid && mem_store;
    wire [1:0] off = mem_val[1:0];
    assign dmem_be = mem_f3[1:0] == 2'd0 ? (4'b0001 << off) : mem_f3[1:0] == 2'd1 ? (4'b0011 << off) : 4'b1111;
    assign dmem_wdata = mem_f3[1:0] == 2'd0 ? {4{mem_sdata[7:0]}} : mem_f3[1:0] == 2'd1 ? {2{mem_sdata[15:0]}} : mem_sdata;
    wire [31:0] sh = dmem_rdata >> {off, 3'b000};
    wire [31:0] ld = mem_f3 == 3'd0 ? {{24{sh[7]}}, sh[7:0]} : mem_f3 == 3'd1 ? {{16{sh[15]}}, sh[15:0]}
                   : mem_f3 == 3'd4 ? {24'd0, sh[7:0]} : mem_f3 == 3'd5 ? {16'd0, sh[15:0]} : sh;

    // ------------------------------------------------------------------ WB
    always @(posedge clk) begin
        if (rst) wb_wr <= 1'b0;
        else begin
            wb_wr <= mem_valid && mem_wr && mem_rd != 5'd0; wb_rd <= mem_rd;
            wb_val <= mem_load ? ld : mem_val;
        end
        if (wb_wr) rf[wb_rd] <= wb_val;
    end

    generate if (TRACE) begin : g_trace
        reg [31:0] mpc, wpc; reg msh, wv, wsh;
        always @(posedge clk) begin
            mpc <= ex_pc; msh <= x_ebreak; wpc <= mpc; wsh <= msh;
            wv <= !rst && mem_valid;
        end
        assign dbg_retire = retire; assign dbg_pc = ex_pc; assign dbg_hold = ex_hold;
        assign dbg_wb = wv; assign dbg_wb_pc = wpc; assign dbg_wb_rd = (wb_wr && !wsh) ? wb_rd : 5'd0;
        assign dbg_wb_val = wb_val;
    end else begin : g_no_trace
        assign dbg_retire = 1'b0; assign dbg_pc = 32'd0; assign dbg_hold = 1'b0;
        assign dbg_wb = 1'b0; assign dbg_wb_pc = 32'd0; assign dbg_wb_rd = 5'd0; assign dbg_wb_val = 32'd0;
    end endgenerate
endmodule

// Test bench of rv5_core: the E31 memory map (ROM image at 0x2040_0000 loaded from rom.hex,
// 16 KiB RAM at 0x8000_0000 from ram.hex), and a semihosting host like rvsim's
// (sim/src/semihost.rs: same calls, same return values), so harness ELFs run unchanged.
// Program output goes to stdout; one summary line to stderr at the end:
//   RV5 exit=<status> cycles=<n> instret=<n>     (or RV5 error: <message>)
// cycles counts as rvsim does: the cycle after the last instruction's EX cycle, with the
// first instruction's EX cycle as cycle 0 (the two fill cycles are not counted).
// Plusargs: +rom=FILE +ram=FILE (hex words) +cmdline=STR (for GET_CMDLINE; no spaces)
// +max_cycles=N +trace (on stderr: `R cycle pc` per retired instruction at its EX cycle,
// `W pc rd value` per register write at WB).
`timescale 1ns/1ps
module tb_rv5;
    parameter M = 1, C = 1, ZICSR = 1, ZBKB = 0, ZBKC = 0, ZBKX = 0, ZKNE = 0, ZKND = 0,
              ZKNH = 0, ZKSED = 0, ZKSH = 0, XZBP = 0, XCARRY = 0, XSBOX = 0, XPOLYMUL = 0, SHARED_SBOX = 0;
    parameter [31:0] ENTRY = 32'h2040_0000;
    parameter ROM_WORDS = 65536;               // 256 KiB of image
    localparam [31:0] ROM_LOAD = 32'h2040_0000, RAM_BASE = 32'h8000_0000;
    localparam RAM_WORDS = 4096;
    localparam FILL = 2;                       // cycles before the first instruction is in EX

    reg clk = 1'b0, rst = 1'b1;
    reg [31:0] rom [0:ROM_WORDS-1];
    reg [31:0] ram [0:RAM_WORDS-1];
    wire [31:0] imem_addr, dmem_addr, dmem_wdata, sh_pc, sh_a0, sh_a1, trap_pc, trap_tval, dbg_pc;
    wire [31:0] dbg_wb_pc, dbg_wb_val;
    wire [3:0] dmem_be;
    wire dmem_we, sh_valid, halt, trap_taken, dbg_retire, dbg_wb, dbg_hold;
    wire [4:0] trap_cause, dbg_wb_rd;
    reg sh_ok; reg [31:0] sh_ret;

    // word at a byte address (0 outside the loaded image and RAM)
    function [31:0] rd32; input [31:0] ad;
        reg [31:0] o;
        begin
            o = ad - ROM_LOAD;
            if (o < ROM_WORDS * 4) rd32 = rom[o >> 2];
            else if (ad - RAM_BASE < RAM_WORDS * 4) rd32 = ram[(ad - RAM_BASE) >> 2];
            else rd32 = 32'd0;
        end
    endfunction
    function [7:0] rd8; input [31:0] ad;
        reg [31:0] v; begin v = rd32({ad[31:2], 2'b00}); rd8 = v >> (8 * ad[1:0]); end
    endfunction
    function [15:0] rd16; input [31:0] ad;
        reg [31:0] v; begin v = rd32({ad[31:2], 2'b00}); rd16 = ad[1] ? v[31:16] : v[15:0]; end
    endfunction
    function [31:0] rdw; input [31:0] ad;     // any alignment (semihosting, ebreak's neighbours)
        rdw = {rd8(ad + 3), rd8(ad + 2), rd8(ad + 1), rd8(ad)};
    endfunction
    task wr8; input [31:0] ad; input [7:0] v;
        reg [31:0] o;
        begin
            o = ad - RAM_BASE;
            if (o < RAM_WORDS * 4) case (ad[1:0])
                2'd0: ram[o >> 2][7:0] = v;   2'd1: ram[o >> 2][15:8] = v;
                2'd2: ram[o >> 2][23:16] = v; default: ram[o >> 2][31:24] = v;
            endcase
        end
    endtask

    rv5_core #(.M(M), .C(C), .ZICSR(ZICSR), .ZBKB(ZBKB), .ZBKC(ZBKC), .ZBKX(ZBKX), .ZKNE(ZKNE),
               .ZKND(ZKND), .ZKNH(ZKNH), .ZKSED(ZKSED), .ZKSH(ZKSH), .XZBP(XZBP), .XCARRY(XCARRY), .XSBOX(XSBOX), .XPOLYMUL(XPOLYMUL),
               .SHARED_SBOX(SHARED_SBOX), .TRACE(1), .RESET_PC(ENTRY)) dut (
        .clk(clk), .rst(rst),
        .imem_addr(imem_addr), .imem_rdata({rd16(imem_addr + 32'd2), rd16(imem_addr)}),
        .dmem_addr(dmem_addr), .dmem_we(dmem_we), .dmem_be(dmem_be), .dmem_wdata(dmem_wdata),
        .dmem_rdata(rd32(dmem_addr)),
        .sh_valid(sh_valid), .sh_pc(sh_pc), .sh_a0(sh_a0), .sh_a1(sh_a1), .sh_ok(sh_ok), .sh_ret(sh_ret),
        .halt(halt), .trap_taken(trap_taken), .trap_cause(trap_cause), .trap_pc(trap_pc),
        .trap_tval(trap_tval), .dbg_retire(dbg_retire), .dbg_pc(dbg_pc), .dbg_hold(dbg_hold), .dbg_wb(dbg_wb),
        .dbg_wb_pc(dbg_wb_pc), .dbg_wb_rd(dbg_wb_rd), .dbg_wb_val(dbg_wb_val));

    // data writes (RAM only: the core raises an access fault for stores elsewhere)
    always @(posedge clk) if (dmem_we && dmem_addr - RAM_BASE < RAM_WORDS * 4) begin
        if (dmem_be[0]) ram[(dmem_addr - RAM_BASE) >> 2][7:0] <= dmem_wdata[7:0];
        if (dmem_be[1]) ram[(dmem_addr - RAM_BASE) >> 2][15:8] <= dmem_wdata[15:8];
        if (dmem_be[2]) ram[(dmem_addr - RAM_BASE) >> 2][23:16] <= dmem_wdata[23:16];
        if (dmem_be[3]) ram[(dmem_addr - RAM_BASE) >> 2][31:24] <= dmem_wdata[31:24];
    end

    // ---------------------------------------------------------------- semihosting
    localparam H_NONE = 0, H_IN = 1, H_OUT = 2, H_ERR = 3, H_FEAT = 4;
    reg [2:0] htype [1:64];
    reg [31:0] hpos [1:64];
    integer nh = 0, errno = 0, i, stop = 0, status = 0;
    reg [63:0] cyc = 0;                       // cycles since reset released
    reg [63:0] retired = 0, held = 0;
    reg [31:0] p0, p1, p2, x;
    reg [8*32-1:0] name;
    function [7:0] feat; input [31:0] k;      // "SHFB" + EXIT_EXTENDED | STDOUT_STDERR
        case (k) 0: feat = "S"; 1: feat = "H"; 2: feat = "F"; 3: feat = "B"; default: feat = 8'h03; endcase
    endfunction
    function valid_h; input [31:0] hd; valid_h = hd >= 1 && hd <= nh && htype[hd] != H_NONE; endfunction

    task semihost;
        begin
            sh_ret = 32'd0;
            case (sh_a0)
                32'h01: begin   // OPEN
                    p0 = rdw(sh_a1); p1 = rdw(sh_a1 + 4); p2 = rdw(sh_a1 + 8);
                    name = 0;
                    for (i = 0; i < p2 && i < 32; i = i + 1) name = {name[8*31-1:0], rd8(p0 + i)};
                    x = H_NONE;
                    if (p2 == 3 && name[23:0] == ":tt") x = p1 < 4 ? H_IN : p1 < 8 ? H_OUT : p1 < 12 ? H_ERR : H_NONE;
                    if (p2 == 21 && name[8*21-1:0] == ":semihosting-features" && p1 < 4) x = H_FEAT;
                    if (x != H_NONE && nh < 64) begin
                        nh = nh + 1; htype[nh] = x; hpos[nh] = 0; sh_ret = nh;
                    end else begin errno = 2; sh_ret = 32'hffff_ffff; end
                end
                32'h02: begin   // CLOSE
                    p0 = rdw(sh_a1);
                    if (valid_h(p0)) htype[p0] = H_NONE; else begin errno = 9; sh_ret = 32'hffff_ffff; end
                end
                32'h03: $write("%c", rd8(sh_a1));                                   // WRITEC
                32'h04: begin                                                       // WRITE0
                    p0 = sh_a1;
                    while (rd8(p0) != 8'd0) begin $write("%c", rd8(p0)); p0 = p0 + 1; end
                end
                32'h05: begin   // WRITE
                    p0 = rdw(sh_a1); p1 = rdw(sh_a1 + 4); p2 = rdw(sh_a1 + 8);
                    if (valid_h(p0) && htype[p0] == H_OUT)
                        for (i = 0; i < p2; i = i + 1) $write("%c", rd8(p1 + i));
                    else if (valid_h(p0) && htype[p0] == H_ERR)
                        for (i = 0; i < p2; i = i + 1) $fwrite(32'h8000_0002, "%c", rd8(p1 + i));
                    else begin errno = 9; sh_ret = p2; end
                end
                32'h06: begin   // READ: the features file; stdin is empty here
                    p0 = rdw(sh_a1); p1 = rdw(sh_a1 + 4); p2 = rdw(sh_a1 + 8);
                    if (valid_h(p0) && htype[p0] == H_FEAT) begin
                        x = 5 - (hpos[p0] < 5 ? hpos[p0] : 5);
                        if (p2 < x) x = p2;
                        for (i = 0; i < x; i = i + 1) wr8(p1 + i, feat(hpos[p0] + i));
                        hpos[p0] = hpos[p0] + x; sh_ret = p2 - x;
                    end else if (valid_h(p0) && htype[p0] == H_IN) sh_ret = p2;
                    else begin errno = 9; sh_ret = 32'hffff_ffff; end
                end
                32'h08: sh_ret = {31'd0, rdw(sh_a1) >= 32'h8000_0000};                // ISERROR
                32'h09: begin   // ISTTY
                    p0 = rdw(sh_a1);
                    if (!valid_h(p0)) errno = 9;
                    else sh_ret = htype[p0] != H_FEAT;
                end
                32'h0a: begin   // SEEK
                    p0 = rdw(sh_a1); p1 = rdw(sh_a1 + 4);
                    if (valid_h(p0) && htype[p0] == H_FEAT && p1 <= 5) hpos[p0] = p1;
                    else begin errno = valid_h(p0) ? 22 : 9; sh_ret = 32'hffff_ffff; end
                end
                32'h0c: begin   // FLEN
                    p0 = rdw(sh_a1);
                    if (!valid_h(p0)) begin errno = 9; sh_ret = 32'hffff_ffff; end
                    else sh_ret = htype[p0] == H_FEAT ? 5 : 0;
                end
                32'h10: sh_ret = (cyc - FILL + 1) / 1000000;                           // CLOCK
                32'h11: sh_ret = 32'd0;                                                 // TIME
                32'h13: sh_ret = errno;                                                 // ERRNO
                32'h15: begin   // GET_CMDLINE: +cmdline (rvlab passes what rvsim uses: the ELF path)
                    p0 = rdw(sh_a1); p1 = rdw(sh_a1 + 4);
                    if (cmdlen + 1 > p1) sh_ret = 32'hffff_ffff;
                    else begin
                        for (i = 0; i < cmdlen; i = i + 1) wr8(p0 + i, cmdline[8 * (cmdlen - 1 - i) +: 8]);
                        wr8(p0 + cmdlen, 8'd0);
                        for (i = 0; i < 4; i = i + 1) wr8(sh_a1 + 4 + i, cmdlen >> (8 * i));
                    end
                end
                32'h16: begin p0 = rdw(sh_a1); for (i = 0; i < 16; i = i + 1) wr8(p0 + i, 0); end  // HEAPINFO
                32'h18: begin stop = 1; status = sh_a1 == 32'h20026 ? 0 : 1; end        // EXIT
                32'h20: begin stop = 1; status = rdw(sh_a1) == 32'h20026 ? rdw(sh_a1 + 4) : 1; end
                32'h100, 32'h101: ;                                                     // rvlab ct marks
                default: begin
                    $fwrite(32'h8000_0002, "RV5 error: unsupported semihosting call 0x%0h (pc 0x%08h)\n", sh_a0, sh_pc);
                    stop = 2;
                end
            endcase
        end
    endtask

    // the environment answers in the ebreak's EX cycle (at the falling edge, after the core's
    // combinational outputs have settled)
    always @(negedge clk) begin
        sh_ok = 1'b0;
        if (!rst && sh_valid) begin
            sh_ok = rdw(sh_pc - 4) == 32'h01f0_1013 && rdw(sh_pc + 4) == 32'h4070_5013;
            if (sh_ok) semihost;
        end
    end

    integer max_cycles = 0, trace = 0, cmdlen = 0;
    reg [8*4096-1:0] romf, ramf, cmdline;
    initial begin
        for (i = 0; i < RAM_WORDS; i = i + 1) ram[i] = 32'd0;
        for (i = 0; i < ROM_WORDS; i = i + 1) rom[i] = 32'd0;
        if ($value$plusargs("rom=%s", romf)) $readmemh(romf, rom);
        if ($value$plusargs("ram=%s", ramf)) $readmemh(ramf, ram);
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 0;
        trace = $test$plusargs("trace");
        cmdline = 0;
        if ($value$plusargs("cmdline=%s", cmdline))
            for (i = 0; i < 4096; i = i + 1) if (cmdline[8 * i +: 8] != 8'd0) cmdlen = i + 1;
        sh_ok = 1'b0; sh_ret = 32'd0;
        #1 clk = 1'b1; #1 clk = 1'b0; #1 clk = 1'b1; #1 clk = 1'b0;
        rst = 1'b0;
        forever begin
            #1 clk = 1'b1;
            #1 clk = 1'b0;
        end
    end

    always @(posedge clk) if (!rst) begin
        if (dbg_hold) held = held + 1;
        if (dbg_retire) begin
            retired = retired + 1;
            // the issue cycle: when the instruction entered EX (a divide stays there)
            if (trace) $fwrite(32'h8000_0002, "R %0d %08h\n", cyc - FILL - held, dbg_pc);
            held = 0;
        end
        if (trace && dbg_wb && dbg_wb_rd != 5'd0)
            $fwrite(32'h8000_0002, "W %08h %0d %08h\n", dbg_wb_pc, dbg_wb_rd, dbg_wb_val);
        if (trap_taken && dut.mtvec == 32'd0) begin
            $fwrite(32'h8000_0002, "RV5 error: exception %0d at pc 0x%08h (mtval 0x%08h) with no handler (mtvec 0)\n",
                    trap_cause, trap_pc, trap_tval);
            stop = 2;
        end
        if (halt) begin
            $fwrite(32'h8000_0002, "RV5 error: halted on exception %0d at pc 0x%08h\n", trap_cause, trap_pc);
            stop = 2;
        end
        if (max_cycles != 0 && cyc >= max_cycles) begin
            $fwrite(32'h8000_0002, "RV5 error: no exit after %0d cycles (+max_cycles)\n", max_cycles);
            stop = 2;
        end
        if (stop == 1) begin
            $fflush(32'h8000_0001);
            $fwrite(32'h8000_0002, "RV5 exit=%0d cycles=%0d instret=%0d\n", status, cyc - FILL + 1, retired);
            $finish;
        end
        if (stop == 2) $finish;
        cyc = cyc + 1;
    end
endmodule

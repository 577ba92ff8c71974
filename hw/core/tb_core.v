// Testbench of rv32i_core: 64 KiB of code/constants at 0x2040_0000 (loaded from +hex=FILE,
// 32-bit words) and 16 KiB of zeroed RAM at 0x8000_0000. Prints one line per retired
// instruction, `pc insn rd value` (hex; rd 0 = no register written), then HALT or ERROR.
module tb_core;
    reg clk = 0, rst = 1;
    reg [31:0] flash [0:16383];
    reg [31:0] ram [0:4095];
    wire [31:0] imem_addr, dmem_addr, dmem_wdata, retire_pc, retire_insn, retire_rd_value;
    wire [3:0] dmem_wstrb;
    wire dmem_we, dmem_re, halt, error, retire;
    wire [4:0] retire_rd;
    function [31:0] read(input [31:0] a);
        if (a[31:16] == 16'h2040) read = flash[a[15:2]];
        else if (a[31:14] == 18'h20000) read = ram[a[13:2]];
        else read = 32'hxxxxxxxx;
    endfunction
    // memories read combinationally; `stores` re-triggers the read after a write to the same word
    reg [31:0] imem_rdata, dmem_rdata;
    integer stores = 0;
    always @(imem_addr or dmem_addr or stores) begin
        imem_rdata = read(imem_addr);
        dmem_rdata = read(dmem_addr);
    end
    rv32i_core dut(.clk(clk), .rst(rst), .imem_addr(imem_addr), .imem_rdata(imem_rdata),
        .dmem_addr(dmem_addr), .dmem_wdata(dmem_wdata), .dmem_wstrb(dmem_wstrb), .dmem_we(dmem_we),
        .dmem_re(dmem_re), .dmem_rdata(dmem_rdata), .halt(halt), .error(error), .retire(retire),
        .retire_pc(retire_pc), .retire_insn(retire_insn), .retire_rd(retire_rd),
        .retire_rd_value(retire_rd_value));
    reg [1023:0] hex;
    integer i, limit, n = 0;
    initial begin
        for (i = 0; i < 16384; i = i + 1) flash[i] = 0;
        for (i = 0; i < 4096; i = i + 1) ram[i] = 0;
        if (!$value$plusargs("hex=%s", hex)) begin $display("ERROR no +hex=FILE"); $finish; end
        if (!$value$plusargs("limit=%d", limit)) limit = 1000000;
        $readmemh(hex, flash);
        #1 clk = 1; #1 clk = 0; rst = 0;
        while (!halt && n < limit) begin
            #1;
            if ((dmem_re || dmem_we) && read(dmem_addr) === 32'hxxxxxxxx) begin
                $display("ERROR access outside memory at %h by pc %h", dmem_addr, imem_addr); $finish;
            end
            if (retire) $display("%h %h %0d %h", retire_pc, retire_insn, retire_rd, retire_rd_value);
            if (dmem_we && dmem_addr[31:14] == 18'h20000)
                for (i = 0; i < 4; i = i + 1)
                    if (dmem_wstrb[i]) ram[dmem_addr[13:2]][8*i +: 8] = dmem_wdata[8*i +: 8];
            if (dmem_we) stores = stores + 1;
            clk = 1; #1 clk = 0; n = n + 1;
        end
        if (error) $display("ERROR at pc %h insn %h", imem_addr, imem_rdata);
        else if (halt) $display("HALT");
        else $display("ERROR cycle limit %0d reached", limit);
        $finish;
    end
endmodule

// Zbkc: carry-less multiply. One 32x32 carry-less multiplier (an AND array and XOR trees);
// clmul returns the low word of the 63-bit product, clmulh the high word.
// ops: clmul clmulh
module zbkc_unit (
    input  wire [3:0]  op,
    input  wire [31:0] a, b, c,
    output wire [31:0] y
);
    reg [63:0] p;
    integer i;
    always @* begin
        p = 64'd0;
        for (i = 0; i < 32; i = i + 1)
            if (b[i]) p = p ^ ({32'd0, a} << i);
    end
    assign y = op[0] ? p[63:32] : p[31:0];
endmodule

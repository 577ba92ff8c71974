// Zbkx: crossbar permutations. Each byte (xperm8) or nibble (xperm4) of b is an index into
// the bytes or nibbles of a; an index past the end selects zero.
// ops: xperm4 xperm8
module zbkx_unit (
    input  wire [3:0]  op,
    input  wire [31:0] a, b, c,
    output reg  [31:0] y
);
    reg [31:0] p4, p8;
    integer i;
    always @* begin
        for (i = 0; i < 8; i = i + 1)
            p4[4*i +: 4] = b[4*i + 3] ? 4'd0 : a[4*b[4*i +: 3] +: 4];
        for (i = 0; i < 4; i = i + 1)
            p8[8*i +: 8] = |b[8*i + 2 +: 6] ? 8'd0 : a[8*b[8*i +: 2] +: 8];
        y = op[0] ? p8 : p4;
    end
endmodule

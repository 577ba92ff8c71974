// Zbkb: the bit-manipulation instructions for cryptography. One rotator serves ror, rol and
// rori (rol rotates right by 32 - s); the rest is wiring and one gate per bit.
// ops: ror rol rori andn orn xnor pack packh brev8 rev8 zip unzip
module zbkb_unit #(
    parameter [11:0] OPS = 12'hfff      // ops present (bit i = op i); the others give 0
) (
    input  wire [3:0]  op,
    input  wire [31:0] a, b, c,       // rori: b = raw imm[11:0], shamt = b[4:0]
    output reg  [31:0] y
);
    wire [4:0]  s   = (op == 4'd1) ? (5'd0 - b[4:0]) : b[4:0];
    wire [63:0] dbl = {a, a} >> s;    // rotate right by s
    reg  [31:0] brev, zip, unzip;
    integer i;
    always @* begin
        for (i = 0; i < 32; i = i + 1) brev[i] = a[(i & ~7) | (7 - (i & 7))];
        for (i = 0; i < 16; i = i + 1) begin
            zip[2*i] = a[i];      zip[2*i+1] = a[i+16];
            unzip[i] = a[2*i];    unzip[i+16] = a[2*i+1];
        end
        // each arm is zero unless its op is present, so the logic of absent ops is removed
        case (op)
            4'd0:  y = OPS[0] ? dbl[31:0] : 32'd0;
            4'd1:  y = OPS[1] ? dbl[31:0] : 32'd0;
            4'd2:  y = OPS[2] ? dbl[31:0] : 32'd0;
            4'd3:  y = OPS[3] ? a & ~b : 32'd0;
            4'd4:  y = OPS[4] ? a | ~b : 32'd0;
            4'd5:  y = OPS[5] ? ~(a ^ b) : 32'd0;
            4'd6:  y = OPS[6] ? {b[15:0], a[15:0]} : 32'd0;
            4'd7:  y = OPS[7] ? {16'd0, b[7:0], a[7:0]} : 32'd0;
            4'd8:  y = OPS[8] ? brev : 32'd0;
            4'd9:  y = OPS[9] ? {a[7:0], a[15:8], a[23:16], a[31:24]} : 32'd0;
            4'd10: y = OPS[10] ? zip : 32'd0;
            4'd11: y = OPS[11] ? unzip : 32'd0;
            default: y = 32'd0;
        endcase
    end
endmodule

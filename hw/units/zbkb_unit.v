// Zbkb: the bit-manipulation instructions for cryptography. One rotator serves ror, rol and
// rori (rol rotates right by 32 - s); the rest is wiring and one gate per bit.
// ops: ror rol rori andn orn xnor pack packh brev8 rev8 zip unzip
module zbkb_unit (
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
        case (op)
            4'd0, 4'd1, 4'd2: y = dbl[31:0];
            4'd3:  y = a & ~b;
            4'd4:  y = a | ~b;
            4'd5:  y = ~(a ^ b);
            4'd6:  y = {b[15:0], a[15:0]};
            4'd7:  y = {16'd0, b[7:0], a[7:0]};
            4'd8:  y = brev;
            4'd9:  y = {a[7:0], a[15:8], a[23:16], a[31:24]};
            4'd10: y = zip;
            4'd11: y = unzip;
            default: y = 32'd0;
        endcase
    end
endmodule

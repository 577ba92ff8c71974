// sboxaddrw: y = b + 4 * byte c[1:0] of a
module sboxaddrw_unit (
    input  wire [31:0] a, b, c,   // operands as exec() gets them for the form (ise/README.md)
    input  wire        carry_in,  // the xcarry carry bit C
    output wire [31:0] y,         // value written to rd
    output wire        carry_out  // new C (= carry_in when the instruction leaves it alone)
);
    wire [7:0] x = a >> {c[1:0], 3'b000};
    assign y = b + {22'd0, x, 2'b00};
    assign carry_out = carry_in;
endmodule

// subc: y = a - b - C, C = borrow (a + ~b + !C on the same adder)
module subc_unit (
    input  wire [31:0] a, b, c,   // operands as exec() gets them for the form (ise/README.md)
    input  wire        carry_in,  // the xcarry carry bit C
    output wire [31:0] y,         // value written to rd
    output wire        carry_out  // new C (= carry_in when the instruction leaves it alone)
);
    wire [32:0] s = {1'b0, a} + {1'b0, ~b} + {32'd0, ~carry_in};
    assign y = s[31:0];
    assign carry_out = ~s[32];
endmodule

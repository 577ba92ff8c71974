// addc: {C, y} = a + b + C (a 32-bit adder with carry in and out)
module addc_unit (
    input  wire [31:0] a, b, c,   // operands as exec() gets them for the form (ise/README.md)
    input  wire        carry_in,  // the xcarry carry bit C
    output wire [31:0] y,         // value written to rd
    output wire        carry_out  // new C (= carry_in when the instruction leaves it alone)
);
    assign {carry_out, y} = {1'b0, a} + {1'b0, b} + {32'd0, carry_in};
endmodule

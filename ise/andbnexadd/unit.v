// andbnexadd: y = c ^ (b & {32{a[31]}}), c = old rd (a gate per bit)
module andbnexadd_unit (
    input  wire [31:0] a, b, c,   // operands as exec() gets them for the form (ise/README.md)
    input  wire        carry_in,  // the xcarry carry bit C
    output wire [31:0] y,         // value written to rd
    output wire        carry_out  // new C (= carry_in when the instruction leaves it alone)
);
    assign y = c ^ (b & {32{a[31]}});
    assign carry_out = carry_in;
endmodule

// srliandi: y = (a >> b[4:0]) & b[11:5] (a right shifter; only 7 result bits survive)
module srliandi_unit (
    input  wire [31:0] a, b, c,   // operands as exec() gets them for the form (ise/README.md)
    input  wire        carry_in,  // the xcarry carry bit C
    output wire [31:0] y,         // value written to rd
    output wire        carry_out  // new C (= carry_in when the instruction leaves it alone)
);
    wire [31:0] sh = a >> b[4:0];
    assign y = {25'd0, sh[6:0] & b[11:5]};
    assign carry_out = carry_in;
endmodule

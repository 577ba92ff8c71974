// Zksh: the SM3 permutations P0 and P1 (XORs of rotations: XOR trees and a mux).
// ops: sm3p0 sm3p1
module zksh_unit (
    input  wire [31:0] a, b, c,
    input  wire [3:0]  op,
    output wire [31:0] y
);
    wire [31:0] p0 = a ^ {a[22:0], a[31:23]} ^ {a[14:0], a[31:15]};   // a ^ rol 9 ^ rol 17
    wire [31:0] p1 = a ^ {a[16:0], a[31:17]} ^ {a[8:0], a[31:9]};     // a ^ rol 15 ^ rol 23
    assign y = op[0] ? p1 : p0;
endmodule

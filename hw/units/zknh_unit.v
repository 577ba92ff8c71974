// Zknh: SHA-256 and the RV32 split SHA-512 instructions. Every result bit is the XOR of a
// few bits of a and b (rotations and shifts are wiring), so the unit is XOR trees and a mux.
// SHA-512 halves: rs1/rs2 = the two halves of the 64-bit word as rvsim's semantics lay them
// out (sim/src/ext/crypto.rs).
// ops: sha256sum0 sha256sum1 sha256sig0 sha256sig1 sha512sum0r sha512sum1r sha512sig0l sha512sig0h sha512sig1l sha512sig1h
module zknh_unit (
    input  wire [3:0]  op,
    input  wire [31:0] a, b, c,
    output reg  [31:0] y
);
    function [31:0] ror;
        input [31:0] v; input integer n;
        ror = (v >> n) | (v << (32 - n));
    endfunction
    always @* begin
        case (op)
            4'd0: y = ror(a, 2) ^ ror(a, 13) ^ ror(a, 22);
            4'd1: y = ror(a, 6) ^ ror(a, 11) ^ ror(a, 25);
            4'd2: y = ror(a, 7) ^ ror(a, 18) ^ (a >> 3);
            4'd3: y = ror(a, 17) ^ ror(a, 19) ^ (a >> 10);
            4'd4: y = (a << 25) ^ (a << 30) ^ (a >> 28) ^ (b >> 7) ^ (b >> 2) ^ (b << 4);
            4'd5: y = (a << 23) ^ (a >> 14) ^ (a >> 18) ^ (b >> 9) ^ (b << 18) ^ (b << 14);
            4'd6: y = (a >> 1) ^ (a >> 7) ^ (a >> 8) ^ (b << 31) ^ (b << 25) ^ (b << 24);
            4'd7: y = (a >> 1) ^ (a >> 7) ^ (a >> 8) ^ (b << 31) ^ (b << 24);
            4'd8: y = (a << 3) ^ (a >> 6) ^ (a >> 19) ^ (b >> 29) ^ (b << 26) ^ (b << 13);
            4'd9: y = (a << 3) ^ (a >> 6) ^ (a >> 19) ^ (b >> 29) ^ (b << 13);
            default: y = 32'd0;
        endcase
    end
endmodule

// xzbp: the draft bitmanip 0.93 permutations seed 003 used (grev/grevi, shfl/unshfl and their
// immediates). grev is five butterfly stages, each swapping bit groups of width 1..16 when its
// control bit is set; shfl applies four swap stages from the widest, unshfl the same stages
// from the narrowest, so one chain of four stage slots serves both with a mux per slot.
// Controls: grev b[4:0], shfl/unshfl b[3:0] (for the immediates b = the raw imm[11:0]).
// ops: grev grevi shfl unshfl shfli unshfli
module xzbp_unit #(
    parameter [5:0] OPS = 6'h3f         // ops present (bit i = op i); the others give 0
) (
    input  wire [3:0]  op,
    input  wire [31:0] a, b, c,
    output wire [31:0] y
);
    function [31:0] swap;               // x with the bit groups of `left` and `right` exchanged
        input [31:0] x, left, right; input integer n;
        swap = (x & ~(left | right)) | ((x << n) & left) | ((x >> n) & right);
    endfunction
    // grev
    wire [31:0] g0 = b[0] ? swap(a,  32'haaaaaaaa, 32'h55555555, 1) : a;
    wire [31:0] g1 = b[1] ? swap(g0, 32'hcccccccc, 32'h33333333, 2) : g0;
    wire [31:0] g2 = b[2] ? swap(g1, 32'hf0f0f0f0, 32'h0f0f0f0f, 4) : g1;
    wire [31:0] g3 = b[3] ? swap(g2, 32'hff00ff00, 32'h00ff00ff, 8) : g2;
    wire [31:0] g4 = b[4] ? {g3[15:0], g3[31:16]} : g3;
    // shuffle stages: slot i is stage 3-i for shfl, stage i for unshfl
    wire un = op == 4'd3 || op == 4'd5;
    function [31:0] stage;              // shuffle stage k (k = 0..3) if enabled
        input [31:0] x; input integer k; input en;
        case (k)
            0: stage = en ? swap(x, 32'h44444444, 32'h22222222, 1) : x;
            1: stage = en ? swap(x, 32'h30303030, 32'h0c0c0c0c, 2) : x;
            2: stage = en ? swap(x, 32'h0f000f00, 32'h00f000f0, 4) : x;
            default: stage = en ? swap(x, 32'h00ff0000, 32'h0000ff00, 8) : x;
        endcase
    endfunction
    wire [31:0] s0 = un ? stage(a,  0, b[0]) : stage(a,  3, b[3]);
    wire [31:0] s1 = un ? stage(s0, 1, b[1]) : stage(s0, 2, b[2]);
    wire [31:0] s2 = un ? stage(s1, 2, b[2]) : stage(s1, 1, b[1]);
    wire [31:0] s3 = un ? stage(s2, 3, b[3]) : stage(s2, 0, b[0]);
    // zero unless the op is present, so the logic of absent ops is removed
    wire use_g = (op == 4'd0 && OPS[0]) || (op == 4'd1 && OPS[1]);
    wire use_s = (op == 4'd2 && OPS[2]) || (op == 4'd3 && OPS[3]) || (op == 4'd4 && OPS[4]) || (op == 4'd5 && OPS[5]);
    assign y = use_g ? g4 : use_s ? s3 : 32'd0;
endmodule

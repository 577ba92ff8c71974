"""The toolkit every kernel generator under crypto/ writes its assembly with (pqm4 keeps its
shared primitives in common/ the same way). A generator puts crypto/ on sys.path and imports:

    asm.py      Asm: the lines of one generated .S file in one layout -- instructions with
                their [role] tags and notes (rvsim --annotate shows them; rvlab/optable.py sums
                cycles by role), labels, functions, .equ names, data tables, li, rotations (rori
                on Zbkb); the variant is the Asm's extensions (Asm({"zbkb"}), a.has("zbkb")).
                header(): the comment a generated file starts with.
    buffers.py  block and key buffers: big- and little-endian words from bytes at any
                alignment, the Zbkb lw + rev8 fast path for aligned blocks (load_be_block,
                store_be_block), the call-on-an-aligned-copy slow path.
    tables.py   table_address(): base + scale * byte k of a register (sboxaddr/sboxaddrw on xsbox).
    sched.py    Insn/Listing, the E31 result latencies, dependences, and two list schedulers:
                earliest_first (hight, tdea) and critical_path (aes128-ctr bitsliced, polymul,
                the constant-time kernels; with a RegisterPool allocating as it schedules,
                camellia128 table-small).
    gf256.py    GF(2^8) arithmetic and the AES S-box (also hw/units/gen_aes_units.py).
    sboxcircuit.py  S-boxes "affine . GF(2^8) inversion . affine" as word-level bitsliced
                circuits: GF(2) byte maps, isomorphisms onto the AES field, the Boyar-Matthews-
                Peralta circuit split around its inversion, shift-XOR program searches and
                their transpose, gate evaluation (sm4, camellia128 and seed128 constant time).
    ssa.py      straight-line SSA blocks over virtual registers: the builder, a register-
                pressure-aware order, the register allocator (spills, recomputation, the
                live-out moves; its policies are parameters), a Python runner for the
                allocated code, the stack frame (aes128-ctr bitsliced, aes128 fixsliced, sm4 ct).
    alu.py      the value of one RV32 ALU operation (the generators' self-checks).

Changing a generator must leave every other kernel's instructions as they are:
scripts/regen-kernels.sh and tests/test_generated.py check that the committed .S files are
what the generators write.
"""

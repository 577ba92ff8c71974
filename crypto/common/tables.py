"""Table lookups: the address of the entry of a table that one byte of a register selects.
RV32I needs two or three instructions (shift, mask, add; the mask also scales the index to the
entry size); seed 003's S-box address instructions (ise/sboxaddr, ise/sboxaddrw: base + byte k
of x, times 1 or 4) do it in one, which is what the `xsbox` variants of the table kernels use."""


def table_address(a, t, x, k, base, scale=4, role=None, note=None, mask_first=False):
    """t = base + scale * (byte k of x), scale 1, 2 or 4; byte 0 the least significant. With
    xsbox (a.has("xsbox")) one sboxaddr / sboxaddrw (scale 1 / 4). mask_first: byte 0 at
    scale 4 as andi 0xff, slli 2 (else slli 2, andi 0x3fc; the same two instructions' cost)."""
    if a.has("xsbox"):
        assert scale in (1, 4), "sboxaddr(w) scale by 1 or 4"
        a("sboxaddrw" if scale == 4 else "sboxaddr", t, x, base, k, role=role, note=note)
        return
    log2 = scale.bit_length() - 1
    mask = f"0x{0xFF * scale:x}"
    if k == 3 and scale == 1:
        a("srli", t, x, 24, role=role)
    elif k == 0 and scale == 1:
        a("andi", t, x, "0xff", role=role)
    elif k == 0 and mask_first:
        a("andi", t, x, "0xff", role=role)
        a("slli", t, t, log2, role=role)
    elif k == 0:
        a("slli", t, x, log2, role=role)
        a("andi", t, t, mask, role=role)
    else:
        a("srli", t, x, 8 * k - log2, role=role)
        a("andi", t, t, mask, role=role)
    a("add", t, t, base, role=role, note=note)

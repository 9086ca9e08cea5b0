"""Which squares hold a piece, in the two shapes the sensor board uses.

The drivers and the scanner keep the 64 squares as 8 rank bytes (a
`bytearray(8)`; byte r is rank r+1, bit f is file f, so a1 is bit 0 of byte
0 and h8 bit 7 of byte 7): small ints that never touch the heap. The game
takes one int with bit i set for square i (a1=0, b1=1, ... h8=63). On a Pico
a small int has 31 bits, so that int is a long int; it is built only at the
edges, never per scan.

    >>> ranks = bytearray(8)
    >>> ranks[0] = 0b00000001; ranks[7] = 0b10000000   # a1 and h8
    >>> hex(to_mask(ranks))
    '0x8000000000000001'
"""


def to_mask(ranks):
    """The occupancy int of 8 rank bytes."""
    mask = 0
    for rank in range(7, -1, -1):
        mask = (mask << 8) | ranks[rank]
    return mask


def to_ranks(mask, ranks):
    """Fill the 8 rank bytes `ranks` from an occupancy int; return `ranks`."""
    for rank in range(8):
        ranks[rank] = (mask >> (8 * rank)) & 0xFF
    return ranks


def square_name(square):
    """'e4' for square 28."""
    return "abcdefgh"[square & 7] + str(square // 8 + 1)

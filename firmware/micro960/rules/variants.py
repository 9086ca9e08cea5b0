"""Rule sets, selectable by name, their start positions and how they are numbered.

chess960        Chess960 by the FIDE rules (the default); SP 0-959
classical       orthodox chess: SP 518 only, castling written e1g1 in UCI; a FEN
                castles only with the king on e1/e8 and the rook in its corner
double960       White and Black each get their own SP (not mirrored): SP 0-959 each
shuffle         rooks in the corners, king on e1/e8, the other pieces shuffled
                with the bishops on opposite colours: set-ups 0-17; castling
                as in classical chess. As on the Internet Chess Servers
                (XBoard's wildcastle) a FEN may put the king on d1/d8: it
                castles two squares towards the rook, the rook to the square
                it crossed (Chess480's castling: d1f1 with Rh1-e1, d1b1 with
                Ra1-c1)
chess480        Chess960 set-ups, Lewis's "orthodox castling": the king moves
                two squares towards the rook (onto or over its square), the
                rook to the square the king crossed; king and rook side by
                side in a corner swap. SP 0-959; a random set-up is one of the
                480 whose king stands right of its queen, one of each mirrored
                pair (which plays the same game under these rules)
transcendental  each side its own back rank, bishops on opposite colours, the
                king anywhere, no castling: set-ups 0-2879 each
lrs             LRS chess: no castling, no en passant, promotion to a queen only,
                no check (capturing the king wins), no move loses, a draw only
                after 1024 plies; any arrangement of the back rank: 0-5039

Every rule set refuses a FEN that no game can reach (rules/position.py). LRS, where
a king can be captured, also takes a position with a king missing or with
the side not to move in check, and does not check where checks could come from.
A FEN loaded under rules without castling or en passant loses those fields.
"""
from micro960.compat import const

NAMES = ("chess960", "classical", "double960", "shuffle", "chess480", "transcendental", "lrs")
# How many set-ups each rule set numbers (classical has one: SP 518).
_SETUPS = const((960, 1, 960, 18, 960, 2880, 5040))
# The PGN Variant tag each is known by (classical writes none).
_VARIANT_TAGS = const(("Chess960", "", "Double960", "Shuffle", "Chess480", "Transcendental", "LRS"))
# The set-ups themselves, numbered, are rules/startpos.py's: the UCI engine is
# given its FENs and keeps that code off its heap.


class Rules:
    def __init__(self, name="chess960"):
        if name not in NAMES:
            raise ValueError("unknown rules %r; choose one of %s" % (name, ", ".join(NAMES)))
        self.name = name
        index = NAMES.index(name)
        self.setups = _SETUPS[index]
        self.variant_tag = _VARIANT_TAGS[index]
        self.two_ranks = name in ("double960", "transcendental")  # each side its own
        lrs = name == "lrs"
        self.castling = name not in ("lrs", "transcendental")
        # The king two squares towards the rook: Chess480's castling, which
        # from e1 is the classical one and from d1 the shuffle's.
        self.orthodox_castling = name in ("chess480", "shuffle")
        # The files a castling king may stand on, its rook in the corner
        # (python-chess's orthodox rule; the ICS's shuffle adds d); "" for anywhere.
        self.castle_kings = "e" if name == "classical" else "de" if name == "shuffle" else ""
        self.en_passant = not lrs
        self.queen_only = lrs
        self.king_capture = lrs
        self.draw_claims = not lrs  # fifty moves, repetition, dead positions
        self.max_plies = 1024 if lrs else 0
        # UCI writes castling king-takes-rook except where the king is on e1.
        self.uci_chess960 = name in ("chess960", "double960", "chess480")

    def apply(self, pos):
        """Switch a Position to these rules."""
        pos.castling = self.castling
        pos.en_passant = self.en_passant
        pos.queen_only = self.queen_only
        pos.king_capture = self.king_capture
        pos.orthodox_castling = self.orthodox_castling
        pos.castle_kings = self.castle_kings

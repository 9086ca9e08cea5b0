"""Rule sets, selectable by name, and the start positions each allows.

chess960   Chess960 by the FIDE rules (the default)
classical  orthodox chess: SP 518 only, castling written e1g1 in UCI
double960  White and Black each get their own SP (not mirrored)
shuffle    rooks in the corners, king on e1/e8, the other pieces shuffled
lrs        LRS chess: no castling, no en passant, promotion to a queen only,
           no check (capturing the king wins), no move loses, a draw only
           after 1024 plies; optionally a random back row

Every rule set refuses a FEN that no game can reach (position.py). LRS, where
a king can be captured, also takes a position with a king missing or with
the side not to move in check, and does not check where checks could come from.
"""
import random

NAMES = ("chess960", "classical", "double960", "shuffle", "lrs")


class Rules:
    def __init__(self, name="chess960"):
        if name not in NAMES:
            raise ValueError("unknown rules %r; choose one of %s" % (name, ", ".join(NAMES)))
        self.name = name
        lrs = name == "lrs"
        self.castling = not lrs
        self.en_passant = not lrs
        self.queen_only = lrs
        self.king_capture = lrs
        self.draw_claims = not lrs  # fifty moves, repetition, dead positions
        self.max_plies = 1024 if lrs else 0
        # UCI writes castling king-takes-rook except where the king is on e1.
        self.uci_chess960 = name in ("chess960", "double960")

    def apply(self, pos):
        """Switch a Position to these rules."""
        pos.castling = self.castling
        pos.en_passant = self.en_passant
        pos.queen_only = self.queen_only
        pos.king_capture = self.king_capture

    def start_fen(self, number=None, black_number=None, rng=random):
        """The start FEN for a set-up number of these rules (random when None).

        chess960: SP 0-959; classical: 518; double960: White's and Black's SP;
        shuffle: 0-17; lrs: None or -1 for the classical row, else 0-5039.
        """
        # Imported here: the UCI engine is given its FENs and never needs it.
        from . import startpos
        if self.name == "classical":
            if number not in (None, startpos.CLASSICAL_SP):
                raise ValueError("classical chess has only SP 518")
            return startpos.start_fen(startpos.backrank(startpos.CLASSICAL_SP))
        if self.name == "chess960":
            return startpos.start_fen(startpos.backrank(_pick(number, 960, rng)))
        if self.name == "double960":
            white = startpos.backrank(_pick(number, 960, rng))
            black = startpos.backrank(_pick(black_number, 960, rng))
            return startpos.start_fen(white, black)
        if self.name == "shuffle":
            return startpos.start_fen(startpos.shuffle_rank(_pick(number, 18, rng)))
        row = "RNBQKBNR" if number is None or number == -1 else \
            startpos.lrs_rank(_pick(number, 5040, rng))
        return startpos.start_fen(row, castling=False)

    def random_fen(self, rng=random):
        if self.name == "lrs":
            from .startpos import uniform
            return self.start_fen(uniform(5040, rng))
        return self.start_fen(rng=rng)


def _pick(number, count, rng):
    if number is None:
        from .startpos import uniform
        return uniform(count, rng)
    if not 0 <= number < count:
        raise ValueError("set-up numbers for these rules run from 0 to %d" % (count - 1))
    return number

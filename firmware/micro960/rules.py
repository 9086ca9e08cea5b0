"""Rule sets, selectable by name, their start positions and how they are numbered.

chess960        Chess960 by the FIDE rules (the default); SP 0-959
classical       orthodox chess: SP 518 only, castling written e1g1 in UCI
double960       White and Black each get their own SP (not mirrored): SP 0-959 each
shuffle         rooks in the corners, king on e1/e8, the other pieces shuffled
                with the bishops on opposite colours: set-ups 0-17; castling
                as in classical chess
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

Every rule set refuses a FEN that no game can reach (position.py). LRS, where
a king can be captured, also takes a position with a king missing or with
the side not to move in check, and does not check where checks could come from.
A FEN loaded under rules without castling or en passant loses those fields.
"""
import random

NAMES = ("chess960", "classical", "double960", "shuffle", "chess480", "transcendental", "lrs")
# How many set-ups each rule set numbers (classical has one: SP 518).
SETUPS = (960, 1, 960, 18, 960, 2880, 5040)
# The PGN Variant tag each is known by (classical writes none).
VARIANT_TAGS = ("Chess960", "", "Double960", "Shuffle", "Chess480", "Transcendental", "LRS")
# Other spellings read in PGN tags, UCI_Variant and XBoard's variant names.
SPELLINGS = {"chess 960": "chess960", "fischerandom": "chess960", "fischerrandom": "chess960",
             "fischer random": "chess960", "frc": "chess960", "960": "chess960",
             "standard": "classical", "normal": "classical", "chess": "classical",
             "double chess960": "double960", "shuffle chess": "shuffle",
             "chess 480": "chess480", "transcendental chess": "transcendental",
             "lrs chess": "lrs", "from position": "chess960"}
CLASSICAL_SP = 518


def named(text):
    """Rules for a name or a common spelling of it (PGN, UCI, XBoard)."""
    name = text.strip().lower()
    return Rules(SPELLINGS.get(name, name))


class Rules:
    def __init__(self, name="chess960"):
        if name not in NAMES:
            raise ValueError("unknown rules %r; choose one of %s" % (name, ", ".join(NAMES)))
        self.name = name
        index = NAMES.index(name)
        self.setups = SETUPS[index]
        self.variant_tag = VARIANT_TAGS[index]
        self.two_ranks = name in ("double960", "transcendental")  # each side its own
        lrs = name == "lrs"
        self.castling = name not in ("lrs", "transcendental")
        self.orthodox_castling = name == "chess480"
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

    # ------------------------------------------------------------ numbering

    def rank(self, number):
        """Set-up number -> White's back rank, e.g. SP 518 -> 'RNBQKBNR'."""
        from . import startpos
        name = self.name
        if name == "classical" and number != CLASSICAL_SP:
            raise ValueError("classical chess has only SP 518")
        if name == "shuffle":
            return startpos.shuffle_rank(number)
        if name == "transcendental":
            return startpos.transcendental_rank(number)
        if name == "lrs":
            return startpos.lrs_rank(number)
        return startpos.backrank(number)

    def number(self, rank):
        """Back rank -> its set-up number; ValueError saying which rule it breaks."""
        from . import startpos
        name = self.name
        if name == "shuffle":
            return startpos.shuffle_number(rank)
        if name == "transcendental":
            return startpos.transcendental_number(rank)
        if name == "lrs":
            return startpos.lrs_number(rank)
        number = startpos.sp_number(rank)
        if name == "classical" and number != CLASSICAL_SP:
            raise ValueError("classical chess has only RNBQKBNR")
        return number

    def random_number(self, rng=random):
        from .startpos import uniform
        if self.name == "classical":
            return CLASSICAL_SP
        while True:
            number = uniform(self.setups, rng)
            if self.name != "chess480" or _king_right_of_queen(self.rank(number)):
                return number

    def start_fen(self, number=None, black_number=None, rng=random):
        """The start FEN of a set-up number (random when None). Rules that give
        each side its own rank take Black's number too (the same when None)."""
        from .startpos import start_fen
        if number is None:
            number = self.random_number(rng)
            if self.two_ranks and black_number is None:
                black_number = self.random_number(rng)
        if black_number is not None and black_number != number and not self.two_ranks:
            raise ValueError("%s gives both sides the same set-up; one number, please"
                             % self.name)
        white = self.rank(number)
        black = white if black_number is None else self.rank(black_number)
        return start_fen(white, black, castling=self.castling)

    def random_fen(self, rng=random):
        return self.start_fen(rng=rng)

    def setup(self, fen):
        """(White's number, Black's number) if `fen` is a start position of
        these rules, else None."""
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != 8 or rows[1] != "pppppppp" or rows[6] != "PPPPPPPP" or \
                rows[2:6] != ["8"] * 4 or fields[1] != "w" or fields[3] != "-" or \
                not rows[7].isupper() or not rows[0].islower():
            return None
        if (fields[2] == "-") == self.castling or self.castling and len(fields[2]) != 4:
            return None
        try:
            numbers = (self.number(rows[7]), self.number(rows[0]))
        except ValueError:
            return None
        if numbers[0] != numbers[1] and not self.two_ranks:
            return None
        return numbers

    def setup_text(self, fen):
        """'SP 518 (RNBQKBNR)', 'SP 0 / SP 959 (BBQNNRKR / RKRNNQBB)', or None."""
        numbers = self.setup(fen)
        if numbers is None:
            return None
        # Chess960's numbers are SPs; the other rule sets number their own.
        label = "SP" if self.setups == 960 or self.name == "classical" else "set-up"
        rows = fen.split("/")
        if numbers[0] == numbers[1]:
            return "%s %d (%s)" % (label, numbers[0], rows[7].split()[0])
        return "%s %d / %s %d (%s / %s)" % (label, numbers[0], label, numbers[1],
                                            rows[7].split()[0], rows[0].upper())


def _king_right_of_queen(rank):
    return rank.index("K") > rank.index("Q")

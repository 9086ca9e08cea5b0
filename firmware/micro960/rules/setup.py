"""A set-up phase: the players place the back-rank pieces in turn.

Northam's joint set-up for the rules where Black mirrors White (chess960,
chess480, shuffle, classical, LRS): White and Black take turns to choose the
square of the next piece, which goes on that file of both back ranks.
Pre-Chess for the rules that give each side its own rank (double960,
transcendental): each places its own pieces on its own rank, White first.

The pieces come in a fixed order, bishops first: B B Q N N R K R. A square is
allowed only if a start position of the rules can still follow (the bishops
on opposite colours, the king between the rooks, ...), so the set-up never
reaches an impasse; a square that would lead to one is refused, saying why.

    >>> from micro960.rules.variants import Rules
    >>> s = SetUp(Rules("chess960"))
    >>> s.piece(), s.side()                # White's first bishop
    ('B', 8)
    >>> s.place(2)                         # on the c-file (files are 0-7)
    >>> s.piece(), s.side()                # now Black chooses
    ('B', 16)
"""
from micro960.rules.position import BLACK, WHITE, square_name
from micro960.rules.startpos import setup_fen, setup_number

ORDER = "BBQNNRKR"
NAMES = {"B": "bishop", "Q": "queen", "N": "knight", "R": "rook", "K": "king"}


class SetUp:
    def __init__(self, rules):
        self.rules = rules
        self.ranks = [[""] * 8, [""] * 8]  # White's, Black's: "" for an empty square
        self.placed = []  # (side index, file) of each placement, for undo

    def done(self):
        return len(self.placed) == self.placements()

    def placements(self):
        return 16 if self.rules.two_ranks else 8

    def side(self):
        """WHITE or BLACK: who places the next piece."""
        return WHITE if len(self.placed) % 2 == 0 else BLACK

    def piece(self):
        """The letter of the piece to place next."""
        count = len(self.placed)
        return ORDER[count // 2 if self.rules.two_ranks else count]

    def _rank_index(self):
        return 1 if self.rules.two_ranks and self.side() == BLACK else 0

    def allowed(self):
        """The files (0-7) where the next piece may go."""
        return [f for f in range(8) if self._why_not(f) is None]

    def place(self, file):
        """Put the next piece on `file`; ValueError saying why not."""
        problem = self._why_not(file)
        if problem:
            raise ValueError(problem)
        index = self._rank_index()
        self.ranks[index][file] = self.piece()
        if not self.rules.two_ranks:
            self.ranks[1][file] = self.piece()
        self.placed.append((index, file))

    def undo(self):
        if not self.placed:
            raise ValueError("no piece placed yet")
        index, file = self.placed.pop()
        self.ranks[index][file] = ""
        if not self.rules.two_ranks:
            self.ranks[1][file] = ""

    def _why_not(self, file):
        if self.done():
            return "every piece is placed"
        rank = self.ranks[self._rank_index()]
        if rank[file]:
            return "%s is taken" % self._square(file)
        rank[file] = self.piece()
        try:
            if not _completes(self.rules, rank):
                return "no start position of %s has a %s on %s with the pieces placed so far" \
                    % (self.rules.name, NAMES[self.piece()], self._square(file))
        finally:
            rank[file] = ""
        return None

    def _square(self, file):
        sq = file + (91 if self._rank_index() else 21)
        return square_name(sq)

    def fen(self):
        """The start position set up, once done()."""
        numbers = [self.rules_number(0)]
        if self.rules.two_ranks:
            numbers.append(self.rules_number(1))
        return setup_fen(self.rules, *numbers)

    def rules_number(self, index):
        return setup_number(self.rules, "".join(self.ranks[index]))


def _completes(rules, rank):
    """True if the partly filled `rank` (a list of 8, "" where empty) can
    still become a back rank of the rules: the pieces not yet placed are
    tried on the empty squares, in every arrangement, until one is legal."""
    left = list(ORDER)
    for piece in rank:
        if piece:
            left.remove(piece)
    return _fill(rules, rank, sorted(left))


def _fill(rules, rank, left):
    if not left:
        try:
            setup_number(rules, "".join(rank))
            return True
        except ValueError:
            return False
    empty = rank.index("")
    for piece in sorted(set(left)):
        rank[empty] = piece
        rest = list(left)
        rest.remove(piece)
        found = _fill(rules, rank, rest)
        rank[empty] = ""
        if found:
            return True
    return False

"""The set-up phase on a sensor board: the back-rank pieces placed in turn
(setup.py's order and rules), the LEDs showing where the piece in hand may go.

The board starts with the pawns on ranks 2 and 7 and the back ranks empty.
Each turn the LEDs light the squares allowed for the piece named (`setup`
lines say which); put it on one of them. Where Black mirrors White, the LEDs
then light the one square of the other colour's piece, on the other back
rank. The engine chooses its squares itself: the LEDs light the one square
for its piece. A piece put anywhere else, or one lifted, is an error (its
square lit) until put right.
"""
from micro960.eboard.moves import squares_text
from micro960.rules.position import BLACK, OFF, WHITE, side_name
from micro960.rules.setup import NAMES, ORDER, SetUp

PAWNS = 0x00FF00000000FF00  # ranks 2 and 7, bit i for square i (a1 = 0)


class BoardSetUp:
    def __init__(self, rules, engine_side, out, occupied=None):
        """`occupied`: the board as the sensors see it (None: the pawns alone)."""
        self.setup = SetUp(rules)
        self.engine_side = engine_side
        self.out = out
        self.expected = PAWNS  # the pawns and the pieces placed so far
        self.physical = PAWNS if occupied is None else occupied
        self.mirror = -1  # the square the other colour's piece goes on now, or -1
        self.chosen = -1  # the engine's square for its piece, or -1
        self._next()

    def done(self):
        return self.setup.done() and self.mirror < 0

    @property
    def wrong(self):
        """Squares that differ from the set-up so far."""
        return self.physical ^ self.expected

    def leds(self):
        """("place", squares for the piece in hand), or ("error", wrong squares)."""
        if self.wrong:
            return "error", self.wrong
        return "place", self._wanted()

    def _row(self, side):
        return 0 if side == WHITE else 56

    def _wanted(self):
        if self.done():
            return 0
        if self.mirror >= 0:
            return 1 << self.mirror
        if self.chosen >= 0:  # the engine's choice: where Black mirrors White, either piece first
            other = (self.chosen & 7) + (56 if self.chosen < 8 else 0)
            return 1 << self.chosen | (0 if self.setup.rules.two_ranks else 1 << other)
        row = self._row(self.setup.side())
        mask = 0
        for file in self.setup.allowed():
            mask |= 1 << (row + file)
        return mask

    def _next(self):
        """Say what is placed next; the engine picks its square."""
        setup = self.setup
        if self.done():
            return
        if self.mirror >= 0:  # the piece just placed, of the other colour
            self.out("setup put %s's %s on %s" % (
                side_name(WHITE if self.mirror < 8 else BLACK),
                NAMES[setup.ranks[0][self.mirror & 7]], squares_text(1 << self.mirror)))
            return
        piece = NAMES[setup.piece()]
        if setup.side() == self.engine_side:
            import random
            self.chosen = self._row(setup.side()) + random.choice(setup.allowed())
            self.out("setup micro960 puts its %s on %s" % (piece,
                                                          squares_text(1 << self.chosen)))
        else:
            self.out("setup %s places a %s: %s" % (side_name(setup.side()), piece,
                                                   squares_text(self._wanted())))

    def place(self, sq):
        bit = 1 << sq
        was_wrong = self.wrong
        self.physical |= bit
        if was_wrong or not self._wanted() & bit:
            if self.wrong & bit:
                self.out("error the piece goes on %s: take the piece off %s" % (
                    squares_text(self._wanted()), squares_text(bit)))
            return
        self.expected |= bit
        if self.mirror >= 0:
            self.mirror = -1
        else:
            self.setup.place(sq & 7)
            self.chosen = -1
            if not self.setup.rules.two_ranks:
                self.mirror = (sq & 7) + (56 if sq < 8 else 0)
        self._next()

    def lift(self, sq):
        bit = 1 << sq
        self.physical &= ~bit
        if self.wrong & bit:
            self.out("error put the piece back on %s" % squares_text(bit))

    def fen(self):
        return self.setup.fen()

    def _piece_on(self, sq):
        """The letter of the piece the set-up has on square sq (FEN case), or ""."""
        if not self.expected >> sq & 1:
            return ""
        rank = sq >> 3
        if rank in (1, 6):
            return "P" if rank == 1 else "p"
        if rank == 0:
            return self.setup.ranks[0][sq & 7]
        return self.setup.ranks[1][sq & 7].lower()

    def board_text(self):
        """The board so far as a FEN board field: the pawns and the pieces
        placed (not a piece standing where it may not go)."""
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                letter = self._piece_on(8 * rank + file)
                if letter:
                    row += (str(empty) if empty else "") + letter
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def left_text(self):
        """The pieces still to place: 'White B Q N N R K R, Black B B Q N N R K R'."""
        sides = []
        for name, row in (("White", 0), ("Black", 56)):
            left = list(ORDER)
            for file in range(8):
                letter = self._piece_on(row + file).upper()
                if letter:
                    left.remove(letter)
            if left:
                sides.append(name + " " + " ".join(left))
        return ", ".join(sides)

    def report(self):
        """What the set-up has reached, when the game has not begun: there
        is no position to give, only the board so far and what is to come."""
        return "setup not finished: set up so far %s; still to place: %s" % (
            self.board_text(), self.left_text())

    def view(self):
        """The board so far as a display draws a game (display.Display.show):
        no moves, no result, the side to place next to move."""
        return _SetUpView(self)


class _SetUpView:
    def __init__(self, setting_up):
        self.rules = setting_up.setup.rules
        self.moves = ()
        self.pos = _Board(setting_up)

    def result(self):
        return "*"


class _Board:
    def __init__(self, setting_up):
        self.side = setting_up.setup.side()
        self.board = board = bytearray(120)
        for i in range(120):
            board[i] = OFF if i < 21 or i > 98 or i % 10 in (0, 9) else 0
        for sq in range(64):
            letter = setting_up._piece_on(sq)
            if letter:
                colour = WHITE if letter.isupper() else BLACK
                board[21 + (sq >> 3) * 10 + (sq & 7)] = colour | " PNBRQK".index(letter.upper())

    def in_check(self):
        return False

"""A game: the moves played, repetition, the result and why, undo, save/restore.

    >>> game = Game("chess960", number=518)
    >>> e4 = game.play("e4"); e5 = game.play("e5")   # each returns the move
    >>> game.result()
    '*'
"""
from micro960.compat import const
from micro960.rules.history import REMEMBERED, History
from micro960.rules.movegen import legal_moves
from micro960.rules.position import (BISHOP, BOTH, KING, KNIGHT, OFF, WHITE, Position, TO64,
                                     side_name)
from micro960.rules.ucimove import move_text

# SAN (rules/notation.py) is imported where it is used: the UCI engine, which uses
# a Game too, never needs it and a small board's heap is spared its code.

WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAW = "1/2-1/2"
UNDECIDED = "*"
_BOTH = const(24)  # rules/position.py's BOTH


class Game(History):
    settings = ""  # how the game is played (the console's side, level, time), saved with it
    clock = None  # a clock.Clock when the game is played on a clock
    date = None  # the day it began, "2026.03.14" as PGN writes it, when the clock knew it

    def new(self, fen=None, number=None, black_number=None):
        """Start again from a FEN, a set-up number, or a random set-up."""
        History.new(self, fen, number, black_number)
        self.ended = None  # (result, reason) after resignation or a claim

    # ------------------------------------------------------------- moving

    def play(self, text):
        """Play a move given as SAN, UCI or lenient text; return the move.

        Raises ValueError (and changes nothing) if the game is over or the
        move is not legal.
        """
        if self.result() != UNDECIDED:
            raise ValueError("the game is over: " + self.reason())
        from micro960.rules.notation import parse_move
        move = parse_move(self.pos, text, self.legal_moves())
        self.push(move)
        return move

    def undo(self):
        """Take back the last move (and any resignation or claim after it)."""
        if not self.moves:
            raise ValueError("no move to take back")
        self.ended = None
        self.truncate(len(self.moves) - 1)
        if self.clock:
            self.clock.undo(len(self.moves))

    # ------------------------------------------------------------- results

    def repetitions(self):
        """How often the current position has stood on the board (1 = first time)."""
        keys = self.keys
        checks = self.checks
        ply = len(self.moves)
        now = ply % REMEMBERED
        count = 0
        # Only positions since the last capture or pawn move can repeat, and
        # only every second one has the same side to move.
        for back in range(0, min(self.pos.halfmove, ply, REMEMBERED - 1) + 1, 2):
            i = (ply - back) % REMEMBERED
            if keys[i] == keys[now] and checks[i] == checks[now]:
                count += 1
        return count

    def outcome(self):
        """(result, reason) when the rules end the game now, else None."""
        if self.ended:
            return self.ended
        pos = self.pos
        if self.rules.king_capture:
            return self._lrs_outcome()
        if not legal_moves(pos, self.buf, 0):
            if pos.in_check():
                return (BLACK_WINS if pos.side == WHITE else WHITE_WINS), "checkmate"
            return DRAW, "stalemate"
        if pos.halfmove >= 150:
            return DRAW, "75-move rule"
        if self.repetitions() >= 5:
            return DRAW, "fivefold repetition"
        if dead_position(pos):
            return DRAW, "insufficient material"
        return None

    def _lrs_outcome(self):
        pos = self.pos
        if not pos.kings[0]:
            return BLACK_WINS, "White's king was captured"
        if not pos.kings[1]:
            return WHITE_WINS, "Black's king was captured"
        if not legal_moves(pos, self.buf, 0):
            return (BLACK_WINS if pos.side == WHITE else WHITE_WINS), \
                side_name(pos.side) + " has no move"
        if len(self.moves) >= self.rules.max_plies:
            return DRAW, "%d plies played" % self.rules.max_plies
        return None

    def result(self):
        outcome = self.outcome()
        return outcome[0] if outcome else UNDECIDED

    def reason(self):
        outcome = self.outcome()
        return outcome[1] if outcome else ""

    def claimable_draw(self):
        """The reason a draw can be claimed now, or None."""
        if not self.rules.draw_claims or self.outcome():
            return None
        if self.pos.halfmove >= 100:
            return "fifty-move rule"
        if self.repetitions() >= 3:
            return "threefold repetition"
        return None

    def claim_draw(self):
        reason = self.claimable_draw()
        if not reason:
            raise ValueError("no draw to claim: needs 50 moves without capture or pawn move, "
                             "or a threefold repetition")
        self.ended = (DRAW, reason + " claimed")  # read in parentheses: no nested ones

    def resign(self):
        """The side to move resigns."""
        if self.outcome():
            raise ValueError("the game is over: " + self.reason())
        loser = self.pos.side
        self.ended = (BLACK_WINS if loser == WHITE else WHITE_WINS,
                      side_name(loser) + " resigns")

    def flag(self, side):
        """`side`'s time ran out: it loses, unless the other side cannot mate at all."""
        other = side ^ _BOTH
        if can_mate(self.pos, other):
            self.ended = (BLACK_WINS if side == WHITE else WHITE_WINS,
                          side_name(side) + " lost on time")
        else:
            self.ended = (DRAW, "%s's time ran out, but %s cannot mate"
                          % (side_name(side), side_name(other)))

    def agree_draw(self):
        if self.outcome():
            raise ValueError("the game is over: " + self.reason())
        self.ended = (DRAW, "draw agreed")

    # ------------------------------------------------------------- text

    def replay(self):
        """Yield (position, move) for each move from the start; the position is
        the one before the move and is only valid during that step."""
        pos = Position(stack_size=2, start=self.start_position)
        self.rules.apply(pos)
        for move in self.moves:
            yield pos, move
            pos.push(move)
            pos.commit()

    # (The moves as lists of SAN or UCI text, and the save as one text, are
    # tests/firmware/game_text.py's: only tests want them whole, and here
    # their code would take every board's heap.)

    def save_pieces(self):
        """A short text from which storage.load_game rebuilds this game
        exactly, a piece at a time (a line, or a move): a long game is saved
        without its whole text in one piece of a small heap."""
        yield "rules %s\nfen %s\nmoves " % (self.rules.name, self.start_fen)
        rules = self.rules
        # Each move's text without replaying the game (which cost the device
        # some 6 ms a move at every save): the sides alternate.
        side = self.pos.side ^ (BOTH if len(self.moves) & 1 else 0)  # the first mover
        space = ""
        for move in self.moves:
            yield space + move_text(move, side, rules.uci_chess960, rules.orthodox_castling)
            side ^= BOTH
            space = " "
        yield "\n"
        if self.ended:
            yield "ended %s %s\n" % self.ended
        if self.settings:
            yield "settings %s\n" % self.settings
        if self.clock:
            yield "clock "
            for piece in self.clock.save_pieces():
                yield piece
            yield "\n"
        if self.date:
            yield "date %s\n" % self.date


def can_mate(pos, side):
    """Could `side` mate by some series of legal moves? Not with a bare king,
    nor with one knight or bishop against a bare king."""
    minors = 0
    others = False  # the other side has more than its king
    for sq in range(21, 99):
        p = pos.board[sq]
        if p == 0 or p == OFF or p & 7 == KING:
            continue
        if p & 24 != side:
            others = True
        elif p & 7 in (KNIGHT, BISHOP):
            minors += 1
        else:
            return True  # a pawn, rook or queen
    return minors >= 2 or minors == 1 and others


def dead_position(pos):
    """No sequence of legal moves can mate: K v K, K+minor v K, bishops all on one colour."""
    minors = 0
    knights = 0
    bishop_colours = 0
    for sq in range(21, 99):
        p = pos.board[sq]
        if p == 0 or p == OFF:
            continue
        kind = p & 7
        if kind == KING:
            continue
        if kind == KNIGHT:
            knights += 1
        elif kind == BISHOP:
            s = TO64[sq]
            bishop_colours |= 1 << (((s >> 3) + s) & 1)
        else:
            return False
        minors += 1
    return minors <= 1 or (knights == 0 and bishop_colours != 3)



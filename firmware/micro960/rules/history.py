"""A game's history: its start position, the moves played since and the
positions they passed through, for repetitions.

This is all the UCI engine keeps of a game (and all the search asks of one);
game.py builds the rest of a game on it: results, claims, undo, text.
"""
from array import array

from micro960.compat import zeros
from micro960.rules.movegen import has_legal_ep, legal_moves, move_buffer
from micro960.rules.position import Position, ep_key
from micro960.rules.variants import Rules

# Positions kept for repetition: every position since the last capture or
# pawn move, which the 75-move rule limits to 151.
REMEMBERED = 152
# Room for the moves (two bytes a ply) made once: a long game appends into it
# rather than regrowing the array in a heap that is full and cut up by then.
# The array is emptied and cut short in place, which keeps its room.
RESERVED_PLIES = 300
_NO_MOVES = array("H")


class History:
    def __init__(self, rules="chess960", fen=None, number=None, black_number=None):
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        self.pos = Position()
        self.rules.apply(self.pos)
        self.buf = move_buffer()
        self.new(fen, number, black_number)

    def new(self, fen=None, number=None, black_number=None):
        """Start again from a FEN, a set-up number, or a random set-up."""
        if fen is None:
            # (not loaded where a FEN is always given: UCI)
            from micro960.rules.startpos import setup_fen
            fen = setup_fen(self.rules, number, black_number)
        self.pos.set_fen(fen)  # raises ValueError before anything changes
        self.start_fen = self.pos.fen(ep_when="pseudo")
        self.start_position = self.pos.snapshot()  # set up again without reading the FEN
        if getattr(self, "moves", None) is None:
            self.moves = zeros("H", RESERVED_PLIES)
        self.moves[0:] = _NO_MOVES  # the same array for every game
        # Two independent keys per position, the 30-bit Zobrist key and a
        # 16-bit check of the board, in rings indexed by ply; a new game
        # reuses the old one's (a small heap is kept whole).
        if getattr(self, "keys", None) is None:
            self.keys = zeros("i", REMEMBERED)
            self.checks = zeros("H", REMEMBERED)
        self._remember(0)

    def legal_moves(self):
        return [self.buf[i] for i in range(legal_moves(self.pos, self.buf, 0))]

    def push(self, move):
        """Play a move already known to be legal. (Past the room reserved,
        the move list grows first: if the heap has no room, nothing changes.)"""
        self.moves.append(move)
        self._play(move, len(self.moves))

    def truncate(self, plies):
        """Take back the moves after the first `plies`."""
        self.moves[plies:] = _NO_MOVES
        self.rebuild()

    def rebuild(self):
        """Set the position up again from the start position and the moves,
        replayed where they lie: a copy of a long game's moves might not
        find room in a full heap."""
        moves = self.moves
        self.pos.restore(self.start_position)
        self._remember(0)
        for i in range(len(moves)):
            self._play(moves[i], i + 1)

    def _play(self, move, ply):
        """Make a legal move for good and remember the position it reaches,
        the game's `ply`."""
        self.pos.push(move)
        self.pos.commit()
        self._remember(ply)

    def _remember(self, ply):
        """Keep the two keys of the position at `ply` for repetition: 46
        bits in all, so that two positions of a game are taken for one
        about once in 10**10 games."""
        pos = self.pos
        key = pos.key
        if pos.ep and not has_legal_ep(pos, self.buf):
            key ^= ep_key(pos.ep)  # an en passant square nobody can use is no difference
        check = pos.side + pos.rights * 32
        for sq in range(21, 99):
            check = (check * 31 + pos.board[sq]) & 0xFFFF
        i = ply % REMEMBERED
        self.keys[i] = key
        self.checks[i] = check

    def seen_before(self, key, first, last):
        """Did a position with this key stand `first` to `last` plies (stepping
        by two) before the current one? The search asks this for repetitions
        reaching back past its root."""
        ply = len(self.moves)
        for back in range(first, last + 1, 2):
            if back > ply or back >= REMEMBERED:
                return False
            if self.keys[(ply - back) % REMEMBERED] == key:
                return True
        return False

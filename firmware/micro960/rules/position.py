"""The board: a 10x12 mailbox, make/unmake, Zobrist hashing, attack tests
(FEN is read and written in rules/fen.py, which needs this module: Position loads
it on demand through compat.load, and imports nothing above it).

Squares are 10x12 mailbox indices (a1 = 21, h1 = 28, a8 = 91); the border
holds OFF so a piece walking off the board stops without a range check.
Moves are 16-bit ints: from-square (0-63) | to-square (0-63) << 6 | flag << 12.
Castling is "king takes own rook": its to-square is the rook's square.
"""
from micro960.compat import const, load, micropython, ptr8, ptr16, ptr32, zeros  # noqa: F401

PAWN = const(1)
KNIGHT = const(2)
BISHOP = const(3)
ROOK = const(4)
QUEEN = const(5)
KING = const(6)

# A piece is a type plus one colour bit. OFF (the border) carries both colour
# bits, so `target & us` stops a slider at its own pieces and at the edge alike.
WHITE = const(8)
BLACK = const(16)
OFF = const(24)
BOTH = const(24)  # side ^ BOTH is the other side

# Move flags (bits 12-15): 0 a plain move, then these.
_DOUBLE_PUSH = const(1)
EN_PASSANT = const(2)
CASTLE = const(3)
PROMOTE_N = const(4)  # flag - 2 is the promoted piece type: 4 N, 5 B, 6 R, 7 Q
PROMOTE_Q = const(7)

# Indices into Position.state.
SIDE = const(0)
_EP = const(1)
RIGHTS = const(2)
_HALFMOVE = const(3)
_KEY = const(4)
_PLY = const(5)
_FULLMOVE = const(6)
_ORTHODOX = const(7)  # 1 under Chess480's orthodox castling (see castle_squares)

# Castling rights (Position.rights) are a bit per castling rook: 1 White's
# h-side, 2 White's a-side, 4 Black's h-side, 8 Black's a-side.

CLASSICAL_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
PIECE_LETTERS = " PNBRQK"

TO120 = bytes(21 + (s & 7) + 10 * (s >> 3) for s in range(64))
TO64 = bytearray(255 for _ in range(120))
for _s in range(64):
    TO64[TO120[_s]] = _s

KNIGHT_STEPS = (-21, -19, -12, -8, 8, 12, 19, 21)
KING_STEPS = (-11, -10, -9, -1, 1, 9, 10, 11)
ROOK_STEPS = (-10, -1, 1, 10)
BISHOP_STEPS = (-11, -9, 9, 11)


def _zobrist_keys(count, seed, skip_from=0, skipped=0):
    """`count` deterministic 30-bit keys (small ints on a 32-bit MicroPython);
    the `skipped` keys drawn from number `skip_from` on are not kept."""
    keys = zeros("i", count)
    x = seed
    for n in range(count + skipped):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        if n < skip_from:
            keys[n] = x & 0x3FFFFFFF
        elif n >= skip_from + skipped:
            keys[n - skipped] = x & 0x3FFFFFFF
    return keys


def piece_row(piece):
    """The row of a piece in tables by piece and square (Z_PIECE, the search's
    history): 0-5 White's pawn to king, 6-11 Black's. Viper code writes it out."""
    return piece - 9 - ((piece >> 3) & 2)


# Piece keys by (piece_row(piece) << 6) | square64. They are drawn as from a
# table of 14 rows (pieces 9-22), leaving out the rows of pieces 15 and 16,
# which do not exist: the same keys as before the table lost those rows.
Z_PIECE = _zobrist_keys(12 * 64, 2463534242, 6 * 64, 2 * 64)
# The side to move's key (Z_EXTRA[0]), then one per castling right, then
# one per file of an en passant square.
Z_EXTRA = _zobrist_keys(1 + 4 + 10, 88172645)


def castle_key(rights):
    key = 0
    for bit in range(4):
        if rights & (1 << bit):
            key ^= Z_EXTRA[1 + bit]
    return key


Z_CASTLE = zeros("i", 16)
for _s in range(16):
    Z_CASTLE[_s] = castle_key(_s)
del _s, _zobrist_keys, castle_key  # needed once, at import: their code is freed


def ep_key(square):
    return Z_EXTRA[5 + square % 10 - 1] if square else 0


def square_name(sq):
    s = TO64[sq]
    return FILES[s & 7] + str((s >> 3) + 1)


def side_name(side):
    return "White" if side & WHITE else "Black"


def parse_square(text):
    """'e4' -> mailbox index; ValueError for anything else."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError("not a square: " + repr(text))
    return 21 + FILES.index(text[0]) + 10 * (int(text[1]) - 1)


def castle_squares(side, rook_sq, king_sq, orthodox=False):
    """King and rook destinations for castling with that rook: the g/f or
    c/d files in Chess960; under orthodox castling (Chess480) the king goes
    two squares towards the rook and the rook to the square it crossed, and
    a king beside its rook in the corner swaps with it. (push_move and pop_move do
    the same in viper code.)"""
    if orthodox:
        step = 1 if rook_sq > king_sq else -1
        if TO64[king_sq + 2 * step] == 255:
            return rook_sq, king_sq
        return king_sq + 2 * step, king_sq + step
    base = 21 if side == WHITE else 91
    if rook_sq > king_sq:
        return base + 6, base + 5
    return base + 2, base + 3


class Position:
    """A chess position with an undo stack `stack_size` plies deep."""

    def __init__(self, fen=None, stack_size=48, start=None):
        """Set up from `fen`, or from a snapshot() `start`, or the classical start."""
        self.board = bytearray(120)
        self.kings = bytearray(2)  # king squares, indexed by side >> 4
        # Piece lists: white squares in slots 0-15, black in 16-31.
        self.squares = bytearray(32)
        self.counts = bytearray(2)
        self.slot = bytearray(120)
        self.rook_squares = bytearray(4)  # one per castling-right bit
        # Per square, the castling rights a move from or to it leaves (RIGHTS bits).
        self.castle_mask = bytearray(120)
        # Scratch space of move generation and static exchange, a position's
        # own so that two searches (engine/smp.py) can run at once: per
        # square, the step of the pin line through a pinned piece, then the
        # pinned squares (rules/movegen.py); (square, piece) pairs that an
        # exchange lifts off the board (engine/see.py).
        self.pins = bytearray(120 + 8)
        self.lifted = bytearray(2 * 34)
        # The scalars every move changes, in one array so viper code can reach
        # them: see the SIDE ... _FULLMOVE indices and the properties below.
        self.state = zeros("i", 8)
        # Undo stack: three entries a ply: the packed ep square, rights, captured
        # piece and halfmove clock; the key; the captured piece's list slot.
        self.saved = zeros("i", 3 * stack_size)
        # Rules switches; see rules/variants.py.
        self.castling = True
        self.en_passant = True
        self.queen_only = False
        self.king_capture = False
        self.castle_kings = ""  # see rules/variants.py
        if start:
            self.restore(start)
        else:
            self.set_fen(fen or CLASSICAL_FEN)

    # Read-only views of the state; _load() and viper code write the array.
    side = property(lambda self: self.state[SIDE])
    ep = property(lambda self: self.state[_EP])
    rights = property(lambda self: self.state[RIGHTS])
    halfmove = property(lambda self: self.state[_HALFMOVE])
    key = property(lambda self: self.state[_KEY])
    ply = property(lambda self: self.state[_PLY])
    fullmove = property(lambda self: self.state[_FULLMOVE])
    orthodox_castling = property(lambda self: bool(self.state[_ORTHODOX]),
                                 lambda self, v: _set(self, _ORTHODOX, int(v)))  # rules/variants.py

    # ------------------------------------------------------------------ FEN

    def set_fen(self, fen):
        """Read X-FEN or Shredder-FEN; on error raise ValueError, keeping the old position."""
        self._load(*load("rules.fen").parse(fen, self.king_capture, self.castle_kings))

    def snapshot(self):
        """This position as restore() takes it: what a game keeps of its start
        position, to set it up again without reading its FEN."""
        return (bytes(self.board), self.side, bytes(self.rook_squares), self.ep,
                self.halfmove, self.fullmove, bytes(self.kings))

    def restore(self, snapshot):
        self._load(*snapshot)

    def _load(self, board, side, rook_squares, ep, halfmove, fullmove, kings):
        state = self.state
        self.board[:] = board
        state[SIDE] = side
        self.kings[:] = kings
        if not self.castling:  # rules without castling (LRS) drop a FEN's rights
            rook_squares = bytes(4)
        if not self.en_passant:
            ep = 0
        self.rook_squares[:] = rook_squares
        rights = 0
        for bit in range(4):
            if rook_squares[bit]:
                rights |= 1 << bit
        state[RIGHTS] = rights
        state[_HALFMOVE] = halfmove
        state[_FULLMOVE] = fullmove
        state[_PLY] = 0
        self._index_pieces()
        self._set_castle_masks()
        state[_EP] = ep if ep and self._ep_capturer(ep) else 0
        state[_KEY] = self.compute_key()

    def _index_pieces(self):
        self.counts[0] = self.counts[1] = 0
        for sq in range(21, 99):
            p = self.board[sq]
            if p and p != OFF:
                c = p >> 4
                i = 16 * c + self.counts[c]
                self.squares[i] = sq
                self.slot[sq] = i
                self.counts[c] += 1

    def _set_castle_masks(self):
        mask = self.castle_mask
        for sq in range(120):
            mask[sq] = 15
        for bit in range(4):
            rook = self.rook_squares[bit]
            if rook:
                mask[rook] &= ~(1 << bit)
                side_bits = 3 if bit < 2 else 12
                mask[self.kings[bit >> 1]] &= ~side_bits

    def _ep_capturer(self, ep):
        """True if a pawn of the side to move stands next to the double-pushed pawn."""
        us = self.side
        behind = -10 if us == WHITE else 10
        pawn = us | PAWN
        b = self.board
        return b[ep + behind - 1] == pawn or b[ep + behind + 1] == pawn

    def compute_key(self):
        key = Z_EXTRA[0] if self.side == BLACK else 0
        for sq in range(21, 99):
            p = self.board[sq]
            if p and p != OFF:
                key ^= Z_PIECE[(piece_row(p) << 6) | TO64[sq]]
        return key ^ Z_CASTLE[self.rights] ^ ep_key(self.ep)

    def fen(self, shredder=False, ep_when="legal"):
        """X-FEN (or Shredder-FEN); the en passant square only when a capture is legal."""
        return load("rules.fen").write(self, shredder, ep_when)

    # ------------------------------------------------------------ make/unmake

    def push(self, move):
        """Make a move; `pop(move)` takes it back."""
        # n = 0: no network to tell (the board stands in for its unused buffer)
        push_move(self.board, self.squares, self.slot, self.counts, self.kings,
                  self.castle_mask, self.state, self.saved, move, self.en_passant, self.board, 0)

    def pop(self, move):
        pop_move(self.board, self.squares, self.slot, self.counts, self.kings, self.state,
             self.saved, move)

    def push_null(self):
        """Pass the move to the other side (for null-move pruning); pop_null() undoes it."""
        state = self.state
        ply = state[_PLY]
        self.saved[3 * ply] = state[_EP] | (state[RIGHTS] << 7) | (state[_HALFMOVE] << 16)
        self.saved[3 * ply + 1] = state[_KEY]
        state[_PLY] = ply + 1
        key = state[_KEY] ^ Z_EXTRA[0]
        if state[_EP]:
            key ^= ep_key(state[_EP])
            state[_EP] = 0
        state[_KEY] = key
        state[SIDE] ^= BOTH

    def pop_null(self):
        state = self.state
        ply = state[_PLY] - 1
        state[_PLY] = ply
        state[SIDE] ^= BOTH
        state[_EP] = self.saved[3 * ply] & 127
        state[_KEY] = self.saved[3 * ply + 1]

    def commit(self):
        """Forget the undo stack: the current position becomes the root.

        Games call this after each move so a long game never overflows the
        stack; the game keeps its own move list for undo.
        """
        self.state[_PLY] = 0

    # ---------------------------------------------------------------- attacks

    def attacked(self, sq, by):
        """Is square `sq` attacked by side `by` (WHITE or BLACK)?"""
        return attacked(self.board, sq, by)

    def in_check(self):
        king = self.kings[self.side >> 4]
        return bool(king) and self.attacked(king, self.side ^ BOTH)


def _set(pos, index, value):
    pos.state[index] = value


@micropython.viper
def push_move(b: ptr8, squares: ptr8, slot: ptr8, counts: ptr8, kings: ptr8, castle_mask: ptr8,
              state: ptr32, saved: ptr32, move: int, en_passant: int, pending: ptr16, n: int):
    """Make a move on the board, piece lists, key and state; save what
    pop_move needs. Position.push() calls it; the search calls it directly
    with the position's buffers, saving a method call a node.

    With n > 0 (the network's size) it also notes for the network
    (engine/network.py) which inputs the move adds and removes, in slot ply + 1 of
    `pending`: they change where the Zobrist key does, whose index is the
    input's."""
    to120 = ptr8(TO120)
    to64 = ptr8(TO64)
    zp = ptr32(Z_PIECE)
    zx = ptr32(Z_EXTRA)
    zc = ptr32(Z_CASTLE)
    fr = int(to120[move & 63])
    to = int(to120[(move >> 6) & 63])
    flag = move >> 12
    us = int(state[SIDE])
    ep = int(state[_EP])
    rights = int(state[RIGHTS])
    halfmove = int(state[_HALFMOVE])
    key = int(state[_KEY]) ^ int(zx[0])
    ply = int(state[_PLY])
    saved[3 * ply + 1] = state[_KEY]
    state[_PLY] = ply + 1
    if ep:
        key ^= int(zx[5 + (int(to64[ep]) & 7)])
    new_ep = 0
    captured = 0
    added = 0  # network inputs (Zobrist index + 1) the move adds and removes (0: none)
    added2 = 0
    removed = 0
    removed2 = 0
    piece = int(b[fr])
    if flag == CASTLE:  # castling: king takes own rook
        rook = int(b[to])
        if state[_ORTHODOX]:  # castle_squares(orthodox=True)
            step = 1 if to > fr else -1
            kdst = fr + 2 * step
            rdst = fr + step
            if int(to64[kdst]) == 255:
                kdst = to
                rdst = fr
        else:
            kdst = 21 if us == WHITE else 91
            if to > fr:
                kdst += 6
                rdst = kdst - 1
            else:
                kdst += 2
                rdst = kdst + 1
        ks = int(slot[fr])
        rs = int(slot[to])
        b[fr] = 0
        b[to] = 0
        b[kdst] = piece
        b[rdst] = rook
        squares[ks] = kdst
        squares[rs] = rdst
        slot[kdst] = ks
        slot[rdst] = rs
        kings[us >> 4] = kdst
        zk = (piece - 9 - ((piece >> 3) & 2)) << 6  # piece_row
        zr = (rook - 9 - ((rook >> 3) & 2)) << 6
        removed = (zk | int(to64[fr])) + 1
        added = (zk | int(to64[kdst])) + 1
        removed2 = (zr | int(to64[to])) + 1
        added2 = (zr | int(to64[rdst])) + 1
        key ^= int(zp[removed - 1]) ^ int(zp[added - 1]) ^ int(zp[removed2 - 1]) ^ int(zp[added2 - 1])
        halfmove += 1
    else:
        captured = int(b[to])
        victim = to
        if flag == EN_PASSANT:  # en passant: the pawn taken stands beside, not on `to`
            victim = to - 10 if us == WHITE else to + 10
            captured = int(b[victim])
            b[victim] = 0
        if captured:
            # Take it off its side's list: the last piece fills its slot.
            c = captured >> 4
            last = 16 * c + int(counts[c]) - 1
            moved = int(squares[last])
            s = int(slot[victim])
            squares[s] = moved
            slot[moved] = s
            counts[c] = int(counts[c]) - 1
            saved[3 * ply + 2] = s
            removed2 = (((captured - 9 - ((captured >> 3) & 2)) << 6) | int(to64[victim])) + 1
            key ^= int(zp[removed2 - 1])
            if captured & 7 == KING:  # a king, under LRS rules
                kings[c] = 0
            halfmove = 0
        elif piece & 7 == PAWN:
            halfmove = 0
        else:
            halfmove += 1
        b[fr] = 0
        s = int(slot[fr])
        squares[s] = to
        slot[to] = s
        removed = (((piece - 9 - ((piece >> 3) & 2)) << 6) | int(to64[fr])) + 1
        key ^= int(zp[removed - 1])
        if flag >= 4:
            piece = us | (flag - 2)
        b[to] = piece
        added = (((piece - 9 - ((piece >> 3) & 2)) << 6) | int(to64[to])) + 1
        key ^= int(zp[added - 1])
        if piece & 7 == KING:
            kings[us >> 4] = to
        elif flag == _DOUBLE_PUSH and en_passant:  # double push: en passant square if a pawn can use it
            enemy = (us ^ BOTH) | 1
            if int(b[to - 1]) == enemy or int(b[to + 1]) == enemy:
                new_ep = (fr + to) >> 1
                key ^= int(zx[5 + (int(to64[new_ep]) & 7)])
    saved[3 * ply] = ep | (rights << 7) | (captured << 11) | (int(state[_HALFMOVE]) << 16)
    if rights:
        new = rights & int(castle_mask[fr]) & int(castle_mask[to])
        if new != rights:
            key ^= int(zc[rights]) ^ int(zc[new])
            state[RIGHTS] = new
    if us == BLACK:
        state[_FULLMOVE] = int(state[_FULLMOVE]) + 1
    state[SIDE] = us ^ BOTH
    state[_EP] = new_ep
    state[_HALFMOVE] = halfmove
    state[_KEY] = key
    if n:
        # The network's accumulators of the new ply are made when it is
        # scored (network.score): here only what to add and take off.
        p = ((ply + 1) & 31) * 5
        pending[p] = added
        pending[p + 1] = removed
        pending[p + 2] = added2
        pending[p + 3] = removed2
        pending[p + 4] = 0  # not made yet


@micropython.viper
def pop_move(b: ptr8, squares: ptr8, slot: ptr8, counts: ptr8, kings: ptr8, state: ptr32,
             saved: ptr32, move: int):
    """Take back the move `push_move` made last."""
    to120 = ptr8(TO120)
    fr = int(to120[move & 63])
    to = int(to120[(move >> 6) & 63])
    flag = move >> 12
    ply = int(state[_PLY]) - 1
    state[_PLY] = ply
    us = int(state[SIDE]) ^ BOTH
    state[SIDE] = us
    if us == BLACK:
        state[_FULLMOVE] = int(state[_FULLMOVE]) - 1
    packed = int(saved[3 * ply])
    if flag == CASTLE:
        if state[_ORTHODOX]:  # castle_squares(orthodox=True), as in push_move
            step = 1 if to > fr else -1
            kdst = fr + 2 * step
            rdst = fr + step
            if int(ptr8(TO64)[kdst]) == 255:
                kdst = to
                rdst = fr
        else:
            kdst = 21 if us == WHITE else 91
            if to > fr:
                kdst += 6
                rdst = kdst - 1
            else:
                kdst += 2
                rdst = kdst + 1
        king = int(b[kdst])
        rook = int(b[rdst])
        ks = int(slot[kdst])
        rs = int(slot[rdst])
        b[kdst] = 0
        b[rdst] = 0
        b[fr] = king
        b[to] = rook
        squares[ks] = fr
        squares[rs] = to
        slot[fr] = ks
        slot[to] = rs
        kings[us >> 4] = fr
    else:
        piece = int(b[to])
        if flag >= 4:
            piece = us | 1
        s = int(slot[to])
        squares[s] = fr
        slot[fr] = s
        b[fr] = piece
        b[to] = 0
        if piece & 7 == KING:
            kings[us >> 4] = fr
        captured = (packed >> 11) & 31
        if captured:
            victim = to
            if flag == EN_PASSANT:
                victim = to - 10 if us == WHITE else to + 10
            b[victim] = captured
            # Back into its own slot, and the piece that filled it back to the
            # end, so the lists (and so the move order) are as before.
            c = captured >> 4
            last = 16 * c + int(counts[c])
            s = int(saved[3 * ply + 2])
            moved = int(squares[s])
            squares[last] = moved
            slot[moved] = last
            squares[s] = victim
            slot[victim] = s
            counts[c] = int(counts[c]) + 1
            if captured & 7 == KING:
                kings[c] = victim
    state[_EP] = packed & 127
    state[RIGHTS] = (packed >> 7) & 15
    state[_HALFMOVE] = packed >> 16
    state[_KEY] = saved[3 * ply + 1]


# Steps (+32, to fit a byte) for viper code: knight 0-7, king and queen 8-15,
# of which bishop 8-11 and rook 12-15.
STEPS = bytes(d + 32 for d in KNIGHT_STEPS + BISHOP_STEPS + ROOK_STEPS)


@micropython.viper
def attacked(b: ptr8, sq: int, by: int) -> bool:
    """Is square `sq` of board `b` attacked by side `by` (WHITE or BLACK)?"""
    if by == WHITE:
        if b[sq - 9] == WHITE | PAWN or b[sq - 11] == WHITE | PAWN:
            return True
    elif b[sq + 9] == BLACK | PAWN or b[sq + 11] == BLACK | PAWN:
        return True
    steps = ptr8(STEPS)
    knight = by | KNIGHT
    for i in range(8):
        if b[sq + int(steps[i]) - 32] == knight:
            return True
    king = by | KING
    queen = by | QUEEN
    slider = by | BISHOP
    for i in range(8, 16):
        if i == 12:
            slider = by | ROOK
        d = int(steps[i]) - 32
        s = sq + d
        t = b[s]
        if t == king:
            return True
        while t == 0:
            s += d
            t = b[s]
        if t == slider or t == queen:
            return True
    return False

"""The board: a 10x12 mailbox, make/unmake, Zobrist hashing, attack tests, FEN.

Squares are 10x12 mailbox indices (a1 = 21, h1 = 28, a8 = 91); the border
holds OFF so a piece walking off the board stops without a range check.
Moves are 16-bit ints: from-square (0-63) | to-square (0-63) << 6 | flag << 12.
Castling is "king takes own rook": its to-square is the rook's square.
"""
from array import array

from .compat import const, micropython, ptr8, zeros  # noqa: F401

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

# Move flags (bits 12-15).
NORMAL = const(0)
DOUBLE_PUSH = const(1)
EN_PASSANT = const(2)
CASTLE = const(3)
PROMOTE_N = const(4)  # flag - 2 is the promoted piece type: 4 N, 5 B, 6 R, 7 Q
PROMOTE_Q = const(7)

# Castling-right bits, one per castling rook: white h-side, white a-side,
# black h-side, black a-side.
WHITE_H = const(1)
WHITE_A = const(2)
BLACK_H = const(4)
BLACK_A = const(8)

FILES = "abcdefgh"
PIECE_LETTERS = " PNBRQK"

TO120 = bytes(21 + (s & 7) + 10 * (s >> 3) for s in range(64))
TO64 = bytearray(255 for _ in range(120))
for _s in range(64):
    TO64[TO120[_s]] = _s
TO64_TO = array("H", (TO64[s] << 6 if TO64[s] != 255 else 0 for s in range(120)))

KNIGHT_STEPS = (-21, -19, -12, -8, 8, 12, 19, 21)
KING_STEPS = (-11, -10, -9, -1, 1, 9, 10, 11)
ROOK_STEPS = (-10, -1, 1, 10)
BISHOP_STEPS = (-11, -9, 9, 11)
# Slider steps indexed by piece type (bishop, rook, queen).
SLIDER_STEPS = ((), (), (), BISHOP_STEPS, ROOK_STEPS, KING_STEPS)


def _zobrist_keys(count, seed):
    """Deterministic 30-bit keys: they stay small ints on a 32-bit MicroPython."""
    keys = zeros("i", count)
    x = seed
    for i in range(count):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        keys[i] = x & 0x3FFFFFFF
    return keys


# Piece keys indexed by ((piece - 9) << 6) | square64; white pieces are rows
# 0-5, black pieces rows 8-13.
Z_PIECE = _zobrist_keys(14 * 64, 2463534242)
Z_EXTRA = _zobrist_keys(1 + 4 + 10, 88172645)
Z_SIDE = Z_EXTRA[0]


def castle_key(rights):
    key = 0
    for bit in range(4):
        if rights & (1 << bit):
            key ^= Z_EXTRA[1 + bit]
    return key


Z_CASTLE = array("i", (castle_key(r) for r in range(16)))


def ep_key(square):
    return Z_EXTRA[5 + square % 10 - 1] if square else 0


def square_name(sq):
    s = TO64[sq]
    return FILES[s & 7] + str((s >> 3) + 1)


def parse_square(text):
    """'e4' -> mailbox index; ValueError for anything else."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError("not a square: " + repr(text))
    return 21 + FILES.index(text[0]) + 10 * (int(text[1]) - 1)


def castle_squares(side, rook_sq, king_sq):
    """King and rook destinations (c/d or g/f files) for castling with that rook."""
    base = 21 if side == WHITE else 91
    if rook_sq > king_sq:
        return base + 6, base + 5
    return base + 2, base + 3


class Position:
    """A chess position with an undo stack `stack_size` plies deep."""

    def __init__(self, fen=None, stack_size=128):
        self.board = bytearray(120)
        self.kings = bytearray(2)  # king squares, indexed by side >> 4
        # Piece lists: white squares in slots 0-15, black in 16-31.
        self.squares = bytearray(32)
        self.counts = bytearray(2)
        self.slot = bytearray(120)
        self.rook_squares = bytearray(4)  # one per castling-right bit
        self.keep = bytearray(120)  # rights kept when a move touches a square
        self.side = WHITE
        self.ep = 0
        self.rights = 0
        self.halfmove = 0
        self.fullmove = 1
        self.key = 0
        self.ply = 0
        # Undo stack.
        self._ep = bytearray(stack_size)
        self._rights = bytearray(stack_size)
        self._captured = bytearray(stack_size)
        self._halfmove = zeros("H", stack_size)
        self._key = zeros("i", stack_size)
        # Rules switches; see rules.py.
        self.castling = True
        self.en_passant = True
        self.queen_only = False
        self.king_capture = False
        self.set_fen(fen or "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")

    # ------------------------------------------------------------------ FEN

    def set_fen(self, fen):
        """Read X-FEN or Shredder-FEN; on error raise ValueError, keeping the old position."""
        parts = fen.split()
        if len(parts) == 4:
            parts = parts + ["0", "1"]
        if len(parts) != 6:
            raise ValueError("FEN needs 6 fields, got " + str(len(parts)))
        board = _parse_placement(parts[0])
        if parts[1] not in ("w", "b"):
            raise ValueError("side to move must be w or b")
        side = WHITE if parts[1] == "w" else BLACK
        kings = bytearray(2)
        for sq in range(21, 99):
            p = board[sq]
            if p & 7 == KING and p != OFF:
                if kings[p >> 4]:
                    raise ValueError("more than one king of a colour")
                kings[p >> 4] = sq
        if not self.king_capture and not (kings[0] and kings[1]):
            raise ValueError("each side needs a king")
        rook_squares = _parse_castling(parts[2], board, kings)
        ep = _parse_ep(parts[3], board, side)
        try:
            halfmove = int(parts[4])
            fullmove = int(parts[5])
        except ValueError:
            raise ValueError("move counters must be numbers")
        if halfmove < 0 or fullmove < 1 or halfmove > 9999 or fullmove > 9999:
            raise ValueError("move counters out of range")
        if not self.king_capture and attacked(board, kings[(side ^ BOTH) >> 4], side):
            raise ValueError("the side not to move is in check")
        self._load(board, side, rook_squares, ep, halfmove, fullmove, kings)

    def _load(self, board, side, rook_squares, ep, halfmove, fullmove, kings):
        self.board[:] = board
        self.side = side
        self.kings[:] = kings
        self.rook_squares[:] = rook_squares
        self.rights = 0
        for bit in range(4):
            if rook_squares[bit]:
                self.rights |= 1 << bit
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.ply = 0
        self._index_pieces()
        self._set_keep_masks()
        self.ep = ep if ep and self._ep_capturer(ep) else 0
        self.key = self.compute_key()

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

    def _set_keep_masks(self):
        keep = self.keep
        for sq in range(120):
            keep[sq] = 15
        for bit in range(4):
            rook = self.rook_squares[bit]
            if rook:
                keep[rook] &= ~(1 << bit)
                side_bits = 3 if bit < 2 else 12
                keep[self.kings[bit >> 1]] &= ~side_bits

    def _ep_capturer(self, ep):
        """True if a pawn of the side to move stands next to the double-pushed pawn."""
        us = self.side
        behind = -10 if us == WHITE else 10
        pawn = us | PAWN
        b = self.board
        return b[ep + behind - 1] == pawn or b[ep + behind + 1] == pawn

    def compute_key(self):
        key = Z_SIDE if self.side == BLACK else 0
        for sq in range(21, 99):
            p = self.board[sq]
            if p and p != OFF:
                key ^= Z_PIECE[((p - 9) << 6) | TO64[sq]]
        return key ^ Z_CASTLE[self.rights] ^ ep_key(self.ep)

    def fen(self, shredder=False, ep_when="legal"):
        """X-FEN (or Shredder-FEN); the en passant square only when a capture is legal."""
        ranks = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                p = self.board[21 + file + 10 * rank]
                if p == 0:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                letter = PIECE_LETTERS[p & 7]
                row += letter if p & WHITE else letter.lower()
            ranks.append(row + (str(empty) if empty else ""))
        ep = "-"
        if self.ep and (ep_when != "legal" or self.has_legal_ep()):
            ep = square_name(self.ep)
        return "%s %s %s %s %d %d" % (
            "/".join(ranks), "w" if self.side == WHITE else "b",
            self.castling_text(shredder), ep, self.halfmove, self.fullmove)

    def castling_text(self, shredder=False):
        text = ""
        for bit in range(4):
            if not self.rights & (1 << bit):
                continue
            rook = self.rook_squares[bit]
            letter = FILES[TO64[rook] & 7]
            if not shredder and self._outermost(rook, bit):
                letter = "k" if bit % 2 == 0 else "q"
            text += letter.upper() if bit < 2 else letter
        return text or "-"

    def _outermost(self, rook, bit):
        step = 1 if bit % 2 == 0 else -1
        sq = rook + step
        while self.board[sq] != OFF:
            if self.board[sq] == self.board[rook]:
                return False
            sq += step
        return True

    def has_legal_ep(self):
        if not self.ep:
            return False
        from .movegen import legal_moves
        buf = zeros("H", 256)
        for i in range(legal_moves(self, buf, 0)):
            if buf[i] >> 12 == EN_PASSANT:
                return True
        return False

    # ------------------------------------------------------------ make/unmake

    def push(self, move):
        """Make a move; `pop(move)` takes it back."""
        b = self.board
        fr = TO120[move & 63]
        to = TO120[(move >> 6) & 63]
        flag = move >> 12
        ply = self.ply
        self._ep[ply] = self.ep
        self._rights[ply] = self.rights
        self._halfmove[ply] = self.halfmove
        self._key[ply] = self.key
        self.ply = ply + 1
        us = self.side
        key = self.key ^ Z_SIDE
        if self.ep:
            key ^= Z_EXTRA[4 + self.ep % 10]
            self.ep = 0
        piece = b[fr]
        squares = self.squares
        slot = self.slot
        if flag == CASTLE:
            rook = b[to]
            kdst = 21 if us == WHITE else 91
            if to > fr:
                kdst += 6
                rdst = kdst - 1
            else:
                kdst += 2
                rdst = kdst + 1
            ks = slot[fr]
            rs = slot[to]
            b[fr] = 0
            b[to] = 0
            b[kdst] = piece
            b[rdst] = rook
            squares[ks] = kdst
            squares[rs] = rdst
            slot[kdst] = ks
            slot[rdst] = rs
            self.kings[us >> 4] = kdst
            zk = (piece - 9) << 6
            zr = (rook - 9) << 6
            key ^= (Z_PIECE[zk | TO64[fr]] ^ Z_PIECE[zk | TO64[kdst]]
                    ^ Z_PIECE[zr | TO64[to]] ^ Z_PIECE[zr | TO64[rdst]])
            self._captured[ply] = 0
            self.halfmove += 1
        else:
            captured = b[to]
            self._captured[ply] = captured
            if captured:
                self._remove(to, captured)
                key ^= Z_PIECE[((captured - 9) << 6) | TO64[to]]
                self.halfmove = 0
                if captured & 7 == KING:  # only under LRS rules
                    self.kings[captured >> 4] = 0
            elif piece & 7 == PAWN:
                self.halfmove = 0
            else:
                self.halfmove += 1
            b[fr] = 0
            s = slot[fr]
            squares[s] = to
            slot[to] = s
            key ^= Z_PIECE[((piece - 9) << 6) | TO64[fr]]
            if flag >= PROMOTE_N:
                piece = us | (flag - 2)
            b[to] = piece
            key ^= Z_PIECE[((piece - 9) << 6) | TO64[to]]
            if piece & 7 == KING:
                self.kings[us >> 4] = to
            elif flag == EN_PASSANT:
                victim = to - 10 if us == WHITE else to + 10
                self._remove(victim, b[victim])
                key ^= Z_PIECE[((b[victim] - 9) << 6) | TO64[victim]]
                b[victim] = 0
            elif flag == DOUBLE_PUSH:
                ep = (fr + to) >> 1
                them = us ^ BOTH
                if b[to - 1] == them | PAWN or b[to + 1] == them | PAWN:
                    if self.en_passant:
                        self.ep = ep
                        key ^= Z_EXTRA[4 + ep % 10]
        rights = self.rights
        if rights:
            new = rights & self.keep[fr] & self.keep[to]
            if new != rights:
                key ^= Z_CASTLE[rights] ^ Z_CASTLE[new]
                self.rights = new
        if us == BLACK:
            self.fullmove += 1
        self.side = us ^ BOTH
        self.key = key

    def pop(self, move):
        b = self.board
        fr = TO120[move & 63]
        to = TO120[(move >> 6) & 63]
        flag = move >> 12
        ply = self.ply - 1
        self.ply = ply
        us = self.side ^ BOTH
        self.side = us
        if us == BLACK:
            self.fullmove -= 1
        squares = self.squares
        slot = self.slot
        if flag == CASTLE:
            kdst = 21 if us == WHITE else 91
            if to > fr:
                kdst += 6
                rdst = kdst - 1
            else:
                kdst += 2
                rdst = kdst + 1
            king = b[kdst]
            rook = b[rdst]
            ks = slot[kdst]
            rs = slot[rdst]
            b[kdst] = 0
            b[rdst] = 0
            b[fr] = king
            b[to] = rook
            squares[ks] = fr
            squares[rs] = to
            slot[fr] = ks
            slot[to] = rs
            self.kings[us >> 4] = fr
        else:
            piece = b[to]
            if flag >= PROMOTE_N:
                piece = us | PAWN
            s = slot[to]
            squares[s] = fr
            slot[fr] = s
            b[fr] = piece
            captured = self._captured[ply]
            b[to] = captured
            if captured:
                self._add(to, captured)
                if captured & 7 == KING:
                    self.kings[captured >> 4] = to
            if piece & 7 == KING:
                self.kings[us >> 4] = fr
            elif flag == EN_PASSANT:
                victim = to - 10 if us == WHITE else to + 10
                b[victim] = (us ^ BOTH) | PAWN
                self._add(victim, b[victim])
        self.ep = self._ep[ply]
        self.rights = self._rights[ply]
        self.halfmove = self._halfmove[ply]
        self.key = self._key[ply]

    def push_null(self):
        """Pass the move to the other side (for null-move pruning); pop_null() undoes it."""
        ply = self.ply
        self._ep[ply] = self.ep
        self._rights[ply] = self.rights
        self._halfmove[ply] = self.halfmove
        self._key[ply] = self.key
        self.ply = ply + 1
        key = self.key ^ Z_SIDE
        if self.ep:
            key ^= Z_EXTRA[4 + self.ep % 10]
            self.ep = 0
        self.key = key
        self.side ^= BOTH

    def pop_null(self):
        ply = self.ply - 1
        self.ply = ply
        self.side ^= BOTH
        self.ep = self._ep[ply]
        self.key = self._key[ply]

    def _remove(self, sq, piece):
        c = piece >> 4
        last = 16 * c + self.counts[c] - 1
        moved = self.squares[last]
        s = self.slot[sq]
        self.squares[s] = moved
        self.slot[moved] = s
        self.counts[c] -= 1

    def _add(self, sq, piece):
        c = piece >> 4
        s = 16 * c + self.counts[c]
        self.squares[s] = sq
        self.slot[sq] = s
        self.counts[c] += 1

    def commit(self):
        """Forget the undo stack: the current position becomes the root.

        Games call this after each move so a long game never overflows the
        stack; the game keeps its own move list for undo.
        """
        self.ply = 0

    # ---------------------------------------------------------------- attacks

    def attacked(self, sq, by):
        """Is square `sq` attacked by side `by` (WHITE or BLACK)?"""
        return attacked(self.board, sq, by)

    def in_check(self):
        king = self.kings[self.side >> 4]
        return bool(king) and self.attacked(king, self.side ^ BOTH)

    def piece_at(self, sq):
        return self.board[sq]


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


def _parse_placement(text):
    board = bytearray(OFF for _ in range(120))
    rows = text.split("/")
    if len(rows) != 8:
        raise ValueError("FEN board needs 8 ranks separated by /")
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        for ch in row:
            if ch in "12345678":
                for _ in range(int(ch)):
                    if file < 8:
                        board[21 + file + 10 * rank] = 0
                    file += 1
            elif ch.upper() in "PNBRQK" and ch.upper() != ch.lower():
                if file < 8:
                    t = PIECE_LETTERS.index(ch.upper())
                    board[21 + file + 10 * rank] = t | (WHITE if ch.isupper() else BLACK)
                    if t == PAWN and rank in (0, 7):
                        raise ValueError("pawn on rank " + str(rank + 1))
                file += 1
            else:
                raise ValueError("bad character in FEN board: " + repr(ch))
        if file != 8:
            raise ValueError("rank %d has %d squares, not 8" % (rank + 1, file))
    return board


def _outermost_rook(board, king, step, rook):
    """The farthest rook of that colour from the king in direction `step`."""
    found = 0
    sq = king + step
    while board[sq] != OFF:
        if board[sq] == rook:
            found = sq
        sq += step
    return found


def _parse_castling(text, board, kings):
    rook_squares = bytearray(4)
    if text == "-":
        return rook_squares
    for ch in text:
        white = ch.isupper()
        side = WHITE if white else BLACK
        king = kings[side >> 4]
        base = 21 if white else 91
        if not king or not base <= king <= base + 7:
            raise ValueError("castling right %s but the king is not on its back rank" % ch)
        rook = side | ROOK
        c = ch.lower()
        if c == "k":
            sq = _outermost_rook(board, king, 1, rook)
        elif c == "q":
            sq = _outermost_rook(board, king, -1, rook)
        elif c in FILES:
            sq = base + FILES.index(c)
            if board[sq] != rook:
                raise ValueError("castling right %s but no rook on %s" % (ch, square_name(sq)))
        else:
            raise ValueError("bad castling character " + repr(ch))
        if not sq:
            raise ValueError("castling right %s but no rook on that side" % ch)
        bit = (0 if sq > king else 1) + (0 if white else 2)
        if rook_squares[bit]:
            raise ValueError("two castling rights for one side of the king: " + text)
        rook_squares[bit] = sq
    return rook_squares


def _parse_ep(text, board, side):
    if text == "-":
        return 0
    sq = parse_square(text)
    rank = (TO64[sq] >> 3) + 1
    if rank != (6 if side == WHITE else 3):
        raise ValueError("en passant square on the wrong rank: " + text)
    pawn_sq = sq - 10 if side == WHITE else sq + 10
    them = BLACK if side == WHITE else WHITE
    if board[pawn_sq] != them | PAWN or board[sq] != 0:
        raise ValueError("en passant square %s without a pawn that just moved" % text)
    return sq

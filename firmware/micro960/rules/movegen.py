"""Pseudo-legal and legal moves, Chess960 castling included, and perft.

Moves are written into a caller's preallocated `array('H')` from an index
and the new end index is returned, so generating allocates nothing.
"""
from micro960.compat import const, micropython, ptr8, ptr16, ptr32, zeros  # noqa: F401
from micro960.rules.position import (
    BISHOP_STEPS, BOTH, CASTLE, EN_PASSANT, KING_STEPS, STEPS, TO64, TO120,
    attacked,
)

# rules/position.py's values again, as constants viper code can compile in.
_PAWN = const(1)
_KNIGHT = const(2)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)
_WHITE = const(8)
_BLACK = const(16)
_BOTH = const(24)
_DOUBLE_PUSH = const(1)
_EN_PASSANT = const(2)
_CASTLE = const(3)
_PROMOTE_N = const(4)
_PROMOTE_Q = const(7)
_SIDE = const(0)  # fields of Position.state
_EP = const(1)
_RIGHTS = const(2)
_ORTHODOX = const(7)

MAX_MOVES = 256  # more than the 218 any chess position can have

# LINE[to - king + 77] is the step (+12) from the king towards `to` when the
# two squares share a rank, file or diagonal, else 0. A pinned piece may only
# move along its pin line.
LINE = bytearray(155)
for _step in KING_STEPS:
    for _k in range(1, 8):
        LINE[_step * _k + 77] = _step + 12


def move_buffer(size=MAX_MOVES):
    """A move list buffer: room for `size` moves."""
    return zeros("H", size)


def has_legal_ep(pos, buf=None):
    """Can the side to move capture en passant? `buf`: a move buffer to use."""
    if not pos.ep:
        return False
    buf = buf or move_buffer()
    for i in range(legal_moves(pos, buf, 0)):
        if buf[i] >> 12 == EN_PASSANT:
            return True
    return False


@micropython.viper
def pseudo_moves(pos, buf, n: int) -> int:
    """Write the side to move's pseudo-legal moves into buf[n:]; return the end."""
    state = ptr32(pos.state)
    us = state[_SIDE]
    first = 16 if us == _BLACK else 0
    n = int(generate(pos.board, pos.squares, first, first + int(ptr8(pos.counts)[us >> 4]), buf,
                      n, us | 1 | (2 if pos.queen_only else 0), state[_EP]))
    if state[_RIGHTS] and pos.castling:
        n = int(castling_moves(pos, buf, n))
    return n


@micropython.viper
def generate(b: ptr8, squares: ptr8, first: int, last: int, buf: ptr16, n: int,
             flags: int, ep: int) -> int:
    """Moves of the pieces in squares[first:last]; flags: side | 1 quiet | 2 queen only."""
    us = flags & 24
    quiet = flags & 1
    lowest_promotion = _PROMOTE_Q if flags & 2 else _PROMOTE_N
    to64 = ptr8(TO64)
    steps = ptr8(STEPS)
    if us == _WHITE:
        forward = 10
        start_lo = 31
        promote_from = 81
    else:
        forward = -10
        start_lo = 81
        promote_from = 31
    for i in range(first, last):
        fr = int(squares[i])
        kind = int(b[fr]) & 7
        f = int(to64[fr])
        if kind == _PAWN:
            to = fr + forward
            promoting = fr >= promote_from and fr - promote_from < 8
            if (quiet or promoting) and b[to] == 0:
                if promoting:
                    flag = _PROMOTE_Q
                    while flag >= lowest_promotion:
                        buf[n] = f | (int(to64[to]) << 6) | (flag << 12)
                        n += 1
                        flag -= 1
                else:
                    buf[n] = f | (int(to64[to]) << 6)
                    n += 1
                    if fr >= start_lo and fr - start_lo < 8 and b[to + forward] == 0:
                        buf[n] = f | (int(to64[to + forward]) << 6) | (_DOUBLE_PUSH << 12)
                        n += 1
            for side_step in range(-1, 2, 2):
                target = to + side_step
                t = b[target]
                if t != 0 and not (t & us):
                    if promoting:
                        flag = _PROMOTE_Q
                        while flag >= lowest_promotion:
                            buf[n] = f | (int(to64[target]) << 6) | (flag << 12)
                            n += 1
                            flag -= 1
                    else:
                        buf[n] = f | (int(to64[target]) << 6)
                        n += 1
                elif target == ep and t == 0:
                    buf[n] = f | (int(to64[target]) << 6) | (_EN_PASSANT << 12)
                    n += 1
        elif kind == _KNIGHT or kind == _KING:
            j = 0 if kind == _KNIGHT else 8
            for k in range(j, j + 8):
                to = fr + int(steps[k]) - 32
                t = b[to]
                if not (t & us) and (quiet or t != 0):
                    buf[n] = f | (int(to64[to]) << 6)
                    n += 1
        else:
            j = 12 if kind == _ROOK else 8
            k_end = 12 if kind == _BISHOP else 16
            for k in range(j, k_end):
                d = int(steps[k]) - 32
                to = fr + d
                t = b[to]
                while t == 0:
                    if quiet:
                        buf[n] = f | (int(to64[to]) << 6)
                        n += 1
                    to += d
                    t = b[to]
                if not (t & us):
                    buf[n] = f | (int(to64[to]) << 6)
                    n += 1
    return n


@micropython.viper
def castling_moves(pos, buf: ptr16, n: int) -> int:
    """Chess960 castling by the FIDE rules (or Chess480's orthodox castling),
    written as king takes own rook.

    The king's destination square itself is tested after the move is made
    (legal_moves), because the castling rook may stand between it and an
    attacker until it moves. (Viper: in bytecode, with the properties it
    read, this was a seventh of the search's time on a Pico.)
    """
    state = ptr32(pos.state)
    us = state[_SIDE]
    rights = state[_RIGHTS] & (3 if us == _WHITE else 12)
    if not rights:
        return n
    b_obj = pos.board
    b = ptr8(b_obj)
    them = us ^ _BOTH
    king = int(ptr8(pos.kings)[us >> 4])
    if attacked(b_obj, king, them):
        return n
    rooks = ptr8(pos.rook_squares)
    to64 = ptr8(TO64)
    orthodox = state[_ORTHODOX]
    base = 21 if us == _WHITE else 91
    for bit in range(4):
        if not (rights & (1 << bit)):
            continue
        rook = int(rooks[bit])
        # position.castle_squares, without the tuple it would allocate.
        step = 1 if rook > king else -1
        if orthodox:
            kdst = king + 2 * step
            rdst = king + step
            if int(to64[kdst]) == 255:  # king beside its rook in the corner: they swap
                kdst = rook
                rdst = king
        else:
            kdst = base + 4 + 2 * step
            rdst = kdst - step
        # Every square between the king, the rook and their destinations is empty...
        lo = king if king < rook else rook
        hi = rook if king < rook else king
        if kdst < lo:
            lo = kdst
        if kdst > hi:
            hi = kdst
        if rdst < lo:
            lo = rdst
        if rdst > hi:
            hi = rdst
        sq = lo
        while sq <= hi and (sq == king or sq == rook or not b[sq]):
            sq += 1
        if sq <= hi:
            continue
        # ... and no square the king passes is attacked.
        step = 1 if kdst > king else -1
        sq = king  # not attacked: asked above
        while sq != kdst and (sq == king or not attacked(b_obj, sq, them)):
            sq += step
        if sq == kdst:
            buf[n] = int(to64[king]) | (int(to64[rook]) << 6) | (_CASTLE << 12)
            n += 1
    return n


def legal_moves(pos, buf, n):
    """Write the legal moves into buf[n:]; return the end.

    Under `king_capture` rules (LRS) every pseudo-legal move is legal, and
    none is once a king is taken: that has ended the game.
    """
    if pos.king_capture:
        return pseudo_moves(pos, buf, n) if pos.kings[0] and pos.kings[1] else n
    end = pseudo_moves(pos, buf, n)
    b = pos.board
    us = pos.side
    them = us ^ BOTH
    king = pos.kings[us >> 4]
    if attacked(b, king, them):
        return _drop_unsafe(pos, buf, n, end)
    pin = pos.pins  # per square the pin line's step (+12); from 120 on, the pinned squares
    pins = _mark_pins(b, king, us, pin)
    j = n
    for i in range(n, end):
        m = buf[i]
        fr = TO120[m & 63]
        flag = m >> 12
        if fr == king:
            if flag == CASTLE:
                ok = _safe_after(pos, m, us, them)
            else:
                ok = not attacked(b, TO120[(m >> 6) & 63], them)
        elif flag == EN_PASSANT:
            ok = _safe_after(pos, m, us, them)
        elif pin[fr]:
            ok = LINE[TO120[(m >> 6) & 63] - king + 77] == pin[fr]
        else:
            ok = True
        if ok:
            buf[j] = m
            j += 1
    for i in range(120, 120 + pins):
        pin[pin[i]] = 0
    return j


def _safe_after(pos, m, us, them):
    pos.push(m)
    ok = not attacked(pos.board, pos.kings[us >> 4], them)
    pos.pop(m)
    return ok


def _drop_unsafe(pos, buf, n, end):
    """In check: of buf[n:end], only the moves that leave the king safe
    stay, each tried on the board; their end."""
    us = pos.side
    them = us ^ BOTH
    j = n
    for i in range(n, end):
        m = buf[i]
        if _safe_after(pos, m, us, them):
            buf[j] = m
            j += 1
    return j


def _mark_pins(b, king, us, pin):
    """Mark our pieces pinned to our king in `pin` (Position.pins); return
    how many."""
    count = 0
    for d in KING_STEPS:
        sq = king + d
        t = b[sq]
        while t == 0:
            sq += d
            t = b[sq]
        if t & us and t & BOTH != BOTH:
            beyond = sq + d
            x = b[beyond]
            while x == 0:
                beyond += d
                x = b[beyond]
            if x & BOTH != BOTH and not x & us:
                kind = x & 7
                if kind == _QUEEN or kind == (_BISHOP if d in BISHOP_STEPS else _ROOK):
                    pin[sq] = d + 12
                    pin[120 + count] = sq
                    count += 1
    return count


def perft(pos, depth, buf=None, start=0):
    """Count the leaf nodes of the legal move tree `depth` plies deep."""
    if depth == 0:
        return 1
    if buf is None:
        buf = move_buffer(MAX_MOVES * depth)
    end = legal_moves(pos, buf, start)
    if depth == 1:
        return end - start
    total = 0
    for i in range(start, end):
        m = buf[i]
        pos.push(m)
        total += perft(pos, depth - 1, buf, end)
        pos.pop(m)
    return total


def has_legal_move(pos, buf=None, start=0):
    if buf is None:
        buf = move_buffer(MAX_MOVES)
    return legal_moves(pos, buf, start) > start


@micropython.viper
def gives_check(board: ptr8, move: int, king: int) -> bool:
    """Might this quiet move check the king on `king`? Directly or by
    discovery; castling always might. Asked before the move is made, so a
    quiet move can be pruned without making it."""
    to120 = ptr8(TO120)
    line = ptr8(LINE)  # the pin lines' table: LINE[b - a + 77] = step from a to b, + 12
    fr = int(to120[move & 63])
    to = int(to120[(move >> 6) & 63])
    if move >> 12 == _CASTLE or not king:  # castling (or no king, LRS)
        return True
    piece = int(board[fr])
    kind = piece & 7
    us = piece & 24
    d = king - to
    if kind == _PAWN:
        if (us == _WHITE and (d == 9 or d == 11)) or (us == _BLACK and (d == -9 or d == -11)):
            return True
    elif kind == _KNIGHT:
        if d == 8 or d == -8 or d == 12 or d == -12 or d == 19 or d == -19 or \
                d == 21 or d == -21:
            return True
    elif kind != _KING and int(line[d + 77]):
        step = int(line[d + 77]) - 12
        straight = _ROOK if step == 1 or step == -1 or step == 10 or step == -10 else _BISHOP
        if kind == _QUEEN or kind == straight:
            sq = to + step
            while sq != king and (sq == fr or not int(board[sq])):
                sq += step
            if sq == king:
                return True
    # Discovered: the piece leaves a line from the king to one of our sliders.
    d = fr - king
    if not int(line[d + 77]):
        return False
    step = int(line[d + 77]) - 12
    sq = king + step
    while sq != fr:
        if sq == to or int(board[sq]):
            return False
        sq += step
    sq = fr + step
    while sq != to and not int(board[sq]):
        sq += step
    if sq == to:
        return False
    t = int(board[sq])
    if t & _BOTH != us:
        return False
    kind = t & 7
    straight = _ROOK if step == 1 or step == -1 or step == 10 or step == -10 else _BISHOP
    return kind == _QUEEN or kind == straight

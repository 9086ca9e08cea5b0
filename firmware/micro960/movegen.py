"""Pseudo-legal and legal moves, Chess960 castling included, and perft.

Moves are written into a caller's preallocated `array('H')` from an index
and the new end index is returned, so generating allocates nothing.
"""
from .compat import zeros
from .position import (
    BISHOP_STEPS, BLACK, BOTH, CASTLE, DOUBLE_PUSH, EN_PASSANT, KING, KING_STEPS,
    KNIGHT, KNIGHT_STEPS, PAWN, PROMOTE_N, PROMOTE_Q, SLIDER_STEPS,
    TO120, TO64, TO64_TO, WHITE, attacked,
)

MAX_MOVES = 256  # more than the 218 any chess position can have

_PROMOTE_ALL = (PROMOTE_Q << 12, (PROMOTE_Q - 1) << 12, (PROMOTE_Q - 2) << 12, PROMOTE_N << 12)
_PROMOTE_QUEEN = (PROMOTE_Q << 12,)

# LINE[to - king + 77] is the step (+12) from the king towards `to` when the
# two squares share a rank, file or diagonal, else 0. A pinned piece may only
# move along its pin line.
LINE = bytearray(155)
for _step in KING_STEPS:
    for _k in range(1, 8):
        LINE[_step * _k + 77] = _step + 12

_SIDE_STEPS = (-1, 1)  # a pawn captures one file to either side

_pin = bytearray(120)  # step (+12) of the pin line through a pinned piece
_pinned = bytearray(8)  # which squares _pin marks, to clear them cheaply


def move_buffer(size=MAX_MOVES):
    """A move list buffer: room for `size` moves."""
    return zeros("H", size)


def pseudo_moves(pos, buf, n, quiet=True):
    """Write the side to move's pseudo-legal moves into buf[n:]; return the end.

    With quiet=False only captures and promotions (for quiescence search).
    """
    b = pos.board
    us = pos.side
    squares = pos.squares
    first = 16 if us == BLACK else 0
    if us == WHITE:
        forward = 10
        start_lo = 31
        promote_from = 81
    else:
        forward = -10
        start_lo = 81
        promote_from = 31
    promotions = _PROMOTE_QUEEN if pos.queen_only else _PROMOTE_ALL
    for i in range(first, first + pos.counts[us >> 4]):
        fr = squares[i]
        kind = b[fr] & 7
        f = TO64[fr]
        if kind == PAWN:
            to = fr + forward
            if fr - promote_from < 8 and fr >= promote_from:
                # Every pawn move from here promotes: all are noisy.
                if b[to] == 0:
                    for flag in promotions:
                        buf[n] = f | TO64_TO[to] | flag
                        n += 1
                for side_step in _SIDE_STEPS:
                    t = b[to + side_step]
                    if t and not t & us:
                        for flag in promotions:
                            buf[n] = f | TO64_TO[to + side_step] | flag
                            n += 1
                continue
            if quiet and b[to] == 0:
                buf[n] = f | TO64_TO[to]
                n += 1
                if 0 <= fr - start_lo < 8 and b[to + forward] == 0:
                    buf[n] = f | TO64_TO[to + forward] | (DOUBLE_PUSH << 12)
                    n += 1
            for side_step in _SIDE_STEPS:
                t = b[to + side_step]
                if t and not t & us:
                    buf[n] = f | TO64_TO[to + side_step]
                    n += 1
                elif to + side_step == pos.ep and t == 0:
                    buf[n] = f | TO64_TO[to + side_step] | (EN_PASSANT << 12)
                    n += 1
        elif kind == KNIGHT or kind == KING:
            for d in (KNIGHT_STEPS if kind == KNIGHT else KING_STEPS):
                t = b[fr + d]
                if not t & us and (quiet or t):
                    buf[n] = f | TO64_TO[fr + d]
                    n += 1
        else:
            for d in SLIDER_STEPS[kind]:
                to = fr + d
                t = b[to]
                while t == 0:
                    if quiet:
                        buf[n] = f | TO64_TO[to]
                        n += 1
                    to += d
                    t = b[to]
                if not t & us:
                    buf[n] = f | TO64_TO[to]
                    n += 1
    if quiet and pos.rights and pos.castling:
        n = castling_moves(pos, buf, n)
    return n


def castling_moves(pos, buf, n):
    """Chess960 castling by the FIDE rules, written as king takes own rook.

    The king's destination square itself is tested after the move is made
    (legal_moves), because the castling rook may stand between it and an
    attacker until it moves.
    """
    us = pos.side
    rights = pos.rights & (3 if us == WHITE else 12)
    if not rights:
        return n
    b = pos.board
    them = us ^ BOTH
    king = pos.kings[us >> 4]
    if attacked(b, king, them):
        return n
    base = 21 if us == WHITE else 91
    for bit in range(4):
        if not rights & (1 << bit):
            continue
        rook = pos.rook_squares[bit]
        if rook > king:
            kdst = base + 6
            rdst = base + 5
        else:
            kdst = base + 2
            rdst = base + 3
        lo = min(king, rook, kdst, rdst)
        hi = max(king, rook, kdst, rdst)
        blocked = False
        for sq in range(lo, hi + 1):
            if b[sq] and sq != king and sq != rook:
                blocked = True
                break
        if blocked:
            continue
        step = 1 if kdst > king else -1
        sq = king
        while sq != kdst:
            sq += step
            if sq != kdst and attacked(b, sq, them):
                blocked = True
                break
        if not blocked:
            buf[n] = TO64[king] | TO64_TO[rook] | (CASTLE << 12)
            n += 1
    return n


def legal_moves(pos, buf, n):
    """Write the legal moves into buf[n:]; return the end.

    Under `king_capture` rules (LRS) every pseudo-legal move is legal.
    """
    end = pseudo_moves(pos, buf, n)
    if pos.king_capture:
        return end
    b = pos.board
    us = pos.side
    them = us ^ BOTH
    king = pos.kings[us >> 4]
    if attacked(b, king, them):
        return _keep_if_safe(pos, buf, n, end)
    pins = _mark_pins(b, king, us)
    pin = _pin
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
    for i in range(pins):
        pin[_pinned[i]] = 0
    return j


def _safe_after(pos, m, us, them):
    pos.push(m)
    ok = not attacked(pos.board, pos.kings[us >> 4], them)
    pos.pop(m)
    return ok


def _keep_if_safe(pos, buf, n, end):
    us = pos.side
    them = us ^ BOTH
    j = n
    for i in range(n, end):
        m = buf[i]
        if _safe_after(pos, m, us, them):
            buf[j] = m
            j += 1
    return j


def _mark_pins(b, king, us):
    """Mark our pieces pinned to our king in _pin; return how many."""
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
                if kind == 5 or kind == (3 if d in BISHOP_STEPS else 4):
                    _pin[sq] = d + 12
                    _pinned[count] = sq
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


"""Static exchange evaluation against a slow reference, on both runtimes.

The reference finds each side's attackers piece by piece (where see.py looks
outward from the square), plays the exchange out with the least valuable
attacker each time, and lets either side stop when capturing on would lose.
"""
from micro960.rules import movegen
from micro960.rules.position import (
    BISHOP_STEPS, CASTLE, EN_PASSANT, KING, KING_STEPS, KNIGHT, KNIGHT_STEPS, PAWN, PROMOTE_N,
    ROOK_STEPS, TO120, Position)
from micro960.rules.notation import uci_text
from micro960.engine.see import VALUES, see_ge

from support import tsv_rows

THRESHOLDS = (-600, -300, -100, -1, 0, 1, 100, 200, 400)
# Exchanges made to order: batteries (x-rays), a king that may not recapture
# onto a guarded square and one that may, pawn and knight guards.
EXCHANGES = (
    "3r3k/3r4/8/3p4/8/8/3R4/3R2K1 w - - 0 1",  # doubled rooks on both sides
    "3r3k/3r4/8/3p4/8/8/3R4/3Q2K1 w - - 0 1",  # a queen behind the rook
    "7k/8/8/3p4/4K3/8/8/8 w - - 0 1",  # the king takes an unguarded pawn
    "8/8/4k3/3p4/8/2N5/8/3R2K1 w - - 0 1",  # the king may not take back
    "7k/8/2p5/3p4/4K3/8/8/8 w - - 0 1",  # ... but not a guarded one
    "7k/2b5/8/3p4/2N5/8/8/6K1 w - - 0 1",  # the bishop guards from afar
    "k7/8/4p3/3n4/8/5B2/6Q1/7K w - - 0 1",  # a queen behind the bishop
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
)


def _attacks(board, fr, to):
    """Does the piece on `fr` attack `to` (pins ignored, as in SEE)?"""
    piece = board[fr]
    kind = piece & 7
    if kind == PAWN:
        forward = 10 if piece & 8 else -10
        return to in (fr + forward - 1, fr + forward + 1)
    if kind == KNIGHT:
        return to - fr in KNIGHT_STEPS
    if kind == KING:
        return to - fr in KING_STEPS
    steps = (BISHOP_STEPS if kind == 3 else ROOK_STEPS if kind == 4
             else BISHOP_STEPS + ROOK_STEPS)
    for d in steps:
        s = fr + d
        while board[s] == 0 and s != to:
            s += d
        if s == to:
            return True
    return False


def _least_attacker(board, to, side):
    found = [sq for sq in range(21, 99) if board[sq] & 24 == side and _attacks(board, sq, to)]
    return min(found, key=lambda sq: board[sq] & 7) if found else 0


def _gain(board, to, side, on_square):
    """What `side` gains by capturing on `to` (worth on_square) and on, or 0 to stop."""
    sq = _least_attacker(board, to, side)
    if not sq:
        return 0
    piece = board[sq]
    if piece & 7 == KING and _least_attacker(board, to, side ^ 24):
        return 0
    board[sq] = 0
    gain = max(0, on_square - _gain(board, to, side ^ 24, VALUES[piece & 7]))
    board[sq] = piece
    return gain


def reference_see(board, move):
    fr, to = TO120[move & 63], TO120[(move >> 6) & 63]
    mover = board[fr]
    board[fr] = 0
    value = VALUES[board[to] & 7] - _gain(board, to, (mover & 24) ^ 24, VALUES[mover & 7])
    board[fr] = mover
    return value


def _compare(pos, moves):
    compared = 0
    before = bytes(pos.board)
    for i in range(movegen.legal_moves(pos, moves, 0)):
        move = moves[i]
        flag = move >> 12
        if flag == CASTLE or flag == EN_PASSANT or flag >= PROMOTE_N:
            continue
        value = reference_see(pos.board, move)
        for threshold in THRESHOLDS:
            assert see_ge(pos.board, move, threshold, pos.lifted) == (value >= threshold), \
                (pos.fen(), move, threshold, value)
        assert bytes(pos.board) == before, "see_ge must put the board back"
        compared += 1
    return compared


def test_see_agrees_with_playing_the_exchange_out():
    pos = Position()
    moves = movegen.move_buffer()
    replies = movegen.move_buffer()
    compared = 0
    for fen in EXCHANGES + tuple(row[1] for row in tsv_rows("perft_std.tsv")):
        pos.set_fen(fen)
        compared += _compare(pos, replies)
        for i in range(movegen.legal_moves(pos, moves, 0)):
            pos.push(moves[i])  # and one ply on, for more varied positions
            compared += _compare(pos, replies)
            pos.pop(moves[i])
    assert compared > 2000


def test_see_values_of_simple_exchanges():
    pos = Position()
    moves = movegen.move_buffer()

    def value_of(fen, uci):
        pos.set_fen(fen)
        for i in range(movegen.legal_moves(pos, moves, 0)):
            if uci_text(pos, moves[i]) == uci:
                return max(t for t in range(-1000, 1001, 10) if see_ge(pos.board, moves[i], t, pos.lifted))
        raise AssertionError(uci + " is not legal in " + fen)

    assert value_of(EXCHANGES[0], "d2d5") == -400  # black's two rooks outlast white's
    assert value_of("7k/8/8/3p4/4K3/8/8/8 w - - 0 1", "e4d5") == 100
    assert value_of("7k/8/2p5/3p4/8/8/3Q4/6K1 w - - 0 1", "d2d5") == 100 - 950
    assert value_of("8/8/4k3/3p4/8/2N5/8/6K1 w - - 0 1", "c3d5") == 100 - 320  # Kxd5
    assert value_of("8/8/4k3/3p4/8/2N5/8/3R2K1 w - - 0 1", "c3d5") == 100  # d5 is guarded
    assert value_of("7k/8/8/8/8/8/3N4/6K1 w - - 0 1", "d2f3") == 0  # a quiet move, safe
    assert value_of("7k/8/8/8/4p3/8/3N4/6K1 w - - 0 1", "d2f3") == -320  # onto a pawn's square

"""perft against published counts, on CPython (pytest) and MicroPython (mprun).

The reference tables are read a line at a time: perft960.tsv whole would not
fit a 64K MicroPython heap. MICRO960_DATA names their directory.
"""
from micro960.rules import movegen
from micro960.rules.position import Position

from support import tsv_rows

MAX_DEPTH = 3

# Columns of perft_std.tsv and perft960.tsv.
STD_FEN, STD_DEPTH, STD_PUBLISHED, STD_STATUS = 1, 2, 3, 7
SP, SP_FEN, SP_D2, SP_D3 = 0, 1, 3, 4


def check(pos, fen, depth, expected, buf):
    pos.set_fen(fen)
    nodes = movegen.perft(pos, depth, buf)
    assert nodes == expected, "perft(%s, %d) = %d, expected %d" % (fen, depth, nodes, expected)


def test_perft_standard_positions():
    pos = Position()
    buf = movegen.move_buffer(movegen.MAX_MOVES * MAX_DEPTH)
    checked = 0
    for row in tsv_rows("perft_std.tsv"):
        depth = int(row[STD_DEPTH])
        if row[STD_STATUS] == "OK" and depth <= MAX_DEPTH:
            check(pos, row[STD_FEN], depth, int(row[STD_PUBLISHED]), buf)
            checked += 1
    assert checked >= 18, checked


def test_perft960_depth2_every_start_position():
    pos = Position()
    buf = movegen.move_buffer(movegen.MAX_MOVES * 2)
    checked = 0
    for row in tsv_rows("perft960.tsv"):
        check(pos, row[SP_FEN], 2, int(row[SP_D2]), buf)
        checked += 1
    assert checked == 960, checked


def test_perft960_depth3_every_20th_start_position():
    pos = Position()
    buf = movegen.move_buffer(movegen.MAX_MOVES * 3)
    checked = 0
    for row in tsv_rows("perft960.tsv"):
        if int(row[SP]) % 20 == 0:
            check(pos, row[SP_FEN], 3, int(row[SP_D3]), buf)
            checked += 1
    assert checked == 48, checked


def test_perft_undoes_every_move():
    pos = Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    before = pos.fen(shredder=True)
    key = pos.key
    movegen.perft(pos, 2, movegen.move_buffer(movegen.MAX_MOVES * 2))
    assert pos.fen(shredder=True) == before
    assert pos.key == key


def test_gives_check_agrees_with_making_the_move():
    """The search prunes quiet moves that give no check before making them:
    gives_check() must see every check (direct or discovered) that making
    the move and testing the king finds; only castling may be over-reported."""
    pos = Position()
    buf = movegen.move_buffer()
    compared = 0
    discovered = (  # a knight, a pawn, a king in front of a rook or bishop
        "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "7k/8/8/8/3N4/8/1B6/6K1 w - - 0 1",
        "3k4/8/8/8/8/3P4/8/3R2K1 w - - 0 1", "k7/8/8/8/8/8/K7/R7 w - - 0 1")
    for fen in discovered + tuple(row[STD_FEN] for row in tsv_rows("perft_std.tsv")):
        pos.set_fen(fen)
        compared += _compare_checks(pos)
        for i in range(movegen.legal_moves(pos, buf, 0)):
            pos.push(buf[i])  # and one ply on, for more varied positions
            compared += _compare_checks(pos)
            pos.pop(buf[i])
    assert compared > 1000


def _compare_checks(pos):
    """Compare gives_check() with the truth for pos's quiet moves; how many."""
    from micro960.rules.position import CASTLE, EN_PASSANT, PROMOTE_N, TO120, attacked
    moves = movegen.move_buffer()
    compared = 0
    for j in range(movegen.legal_moves(pos, moves, 0)):
        move = moves[j]
        flag = move >> 12
        if pos.board[TO120[(move >> 6) & 63]] or flag == EN_PASSANT or flag >= PROMOTE_N:
            continue  # the search asks only of quiet moves
        us = pos.side
        king = pos.kings[(us ^ 24) >> 4]
        said = movegen.gives_check(pos.board, move, king)
        pos.push(move)
        checks = attacked(pos.board, king, us)
        pos.pop(move)
        assert said == checks or (said and flag == CASTLE), (pos.fen(), move)
        compared += 1
    return compared

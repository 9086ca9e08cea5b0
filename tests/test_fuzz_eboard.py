"""Sensor-board fuzzing: random Chess960 games turned into lift and place
events (captures either way round, en passant, promotions, castling in
several orders), with bursts of noise between the moves (bounces, knocked
pieces, a piece put down and taken away, snapshots, malformed lines), fed to
`micro960 eboard-sim` on CPython and on the MicroPython unix port.

No traceback ever, and since the noise always leaves the pieces as they
stood, every move of the game is recognised and the final position is
python-chess's.
"""
import subprocess
import sys
from pathlib import Path

import chess
from hypothesis import given, strategies as st

from fuzzing import fuzz_settings, random_game, tally

REPO = Path(__file__).resolve().parent.parent
MALFORMED = ["lift", "place", "promote", "promote k", "snapshot", "snapshot 0xZZ",
             "snapshot 0x" + "F" * 20, "snapshot 8/8", "place e9", "lift zz", "xyzzy", "Nf9",
             "\u2658f3", "   ", "# a comment"]


def square(sq):
    return chess.square_name(sq)


def move_events(board, move, draw):
    """The lifts and places of `move` on `board`, in one of the ways a person makes it."""
    if board.is_castling(move):
        king, rook = move.from_square, move.to_square
        rank = chess.square_rank(king)
        king_to = chess.square(6 if rook > king else 2, rank)
        rook_to = chess.square(5 if rook > king else 3, rank)
        lifts = [square(king), square(rook)]
        places = [square(king_to), square(rook_to)]
        return ["lift " + s for s in draw(st.permutations(lifts))] + \
               ["place " + s for s in draw(st.permutations(places))]
    events = []
    if move.promotion and move.promotion != chess.QUEEN:
        events.append("promote " + chess.piece_symbol(move.promotion))
    victim = None
    if board.is_en_passant(move):
        victim = square(move.to_square + (-8 if board.turn == chess.WHITE else 8))
    elif board.is_capture(move):
        victim = square(move.to_square)
    own = ["lift " + square(move.from_square), "place " + square(move.to_square)]
    if victim is None:
        return events + own
    if board.is_en_passant(move) and draw(st.booleans()):
        return events + own + ["lift " + victim]  # the captured pawn taken after
    if draw(st.booleans()):
        return events + ["lift " + victim] + own  # the captured piece first
    return events + ["lift " + square(move.from_square), "lift " + victim,
                     "place " + square(move.to_square)]


def occupancy_text(board):
    """The board's occupancy as a snapshot line takes it: a FEN board field."""
    return "snapshot " + board.board_fen()


def noise(board, draw):
    """Events that leave the pieces as they stand."""
    occupied = [square(sq) for sq in chess.SQUARES if board.piece_at(sq)]
    empty = [square(sq) for sq in chess.SQUARES if not board.piece_at(sq)]
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a bounce, or a piece lifted and thought better of
        sq = draw(st.sampled_from(occupied))
        return ["lift " + sq, "place " + sq]
    if kind == 1 and empty:  # a stray piece put down and taken away
        sq = draw(st.sampled_from(empty))
        return ["place " + sq, "lift " + sq]
    colour = draw(st.booleans())
    own = [sq for sq in occupied if board.piece_at(chess.parse_square(sq)).color == colour
           and board.piece_at(chess.parse_square(sq)).piece_type != chess.KING]
    if kind == 2 and len(own) > 1:
        # Two pieces of one colour knocked over and put back in the order
        # they fell. Of two colours, or back the other way round, the board
        # shows a capture's gesture; with a king, the castling where king and
        # rook swap squares (README).
        a, b = draw(st.lists(st.sampled_from(own), min_size=2, max_size=2, unique=True))
        return ["lift " + a, "lift " + b, "place " + a, "place " + b]
    if kind == 3:  # a wrong snapshot, then the right one
        wrong = draw(st.integers(0, 2 ** 64 - 1))
        return ["snapshot 0x%x" % wrong, occupancy_text(board)]
    if kind == 4:
        return [draw(st.sampled_from(MALFORMED))]
    return ["wait"]


@st.composite
def scripts(draw):
    """(sim arguments, event lines, final FEN, number of moves)."""
    start, moves = random_game("chess960", draw(st.integers(0, 10 ** 9)), draw(st.integers(0, 60)))
    sp = chess.Board(start.fen(), chess960=True).chess960_pos()
    board = start.copy()
    lines = []
    for move in moves:
        if draw(st.integers(0, 2)) == 0:
            lines += noise(board, draw)
        lines += move_events(board, move, draw)
        lines.append("wait")  # a step that may begin castling is a move once the board is still
        board.push(move)
    if draw(st.booleans()):
        lines += noise(board, draw)
    return ["--sp", str(sp)], lines, board.fen(), len(moves)


def run(runtime, args, lines):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--runtime", runtime] + args,
        cwd=REPO, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)


def check(result, fen, moves):
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "Traceback" not in out, out
    said = result.stdout.splitlines()
    assert len([line for line in said if line.startswith("move ")]) == moves, out
    assert said[-1] == "fen " + fen, out


def fuzz(runtime):
    @fuzz_settings()
    @given(script=scripts())
    def case(script):
        args, lines, fen, moves = script
        with tally("eboard", runtime):
            check(run(runtime, args, lines), fen, moves)
    case()


def test_eboard_fuzz_on_cpython():
    fuzz("cpython")


def test_eboard_fuzz_on_micropython():
    fuzz("micropython")

"""FEN fuzzing: random positions from random games in every rule set, and
their mutations, read by micro960 on CPython and on the MicroPython unix port.

Either python-chess (chess960 mode) calls the FEN valid and micro960's perft
to depth 2 agrees with python-chess's, or micro960 refuses it with a message;
never a traceback, and never a position python-chess calls invalid.
"""
import chess
import pytest
from hypothesis import given, strategies as st

from fuzzing import (RULES, LineProcess, fuzz_settings, micropython_command, python_chess_perft,
                     random_game, tally)
from micro960 import movegen
from micro960.position import Position

PIECES = "PNBRQKpnbrqk"
# Odd characters a FEN may come with: no line ends or tabs (they end a batch line).
ODD = "\x00\x01\x1b\x7f\xe9\u2658\u265a\x0b\x0c /-0123456789abcdefghKQkqwxyz!?*"


FIELD_VALUES = {
    1: ["w", "b", "W", "x", ""],  # side to move
    2: ["-", "KQkq", "Qk", "HAha", "AH", "BGbg", "kK", "KKk", "Q", "q", "C", "Hh"],  # castling
    3: ["-"] + [f + r for f in "abcdeh" for r in "3456"] + ["e9", "z3"],  # en passant
    4: ["0", "1", "49", "100", "-1", "9999", "10000", "x"],  # halfmove clock
    5: ["0", "1", "2", "-3", "x"],  # move number
}


def mutate(board, draw):
    """A FEN of `board` with one random change."""
    fen = board.fen() if draw(st.booleans()) else board.shredder_fen()
    kind = draw(st.integers(0, 8))
    if kind <= 2:  # a piece added, removed or moved
        changed = board.copy(stack=False)
        square = draw(st.integers(0, 63))
        if kind == 0:
            changed.set_piece_at(square, chess.Piece.from_symbol(draw(st.sampled_from(PIECES))))
        else:
            piece = changed.remove_piece_at(square)
            if kind == 2 and piece:
                changed.set_piece_at(draw(st.integers(0, 63)), piece)
        return changed.board_fen() + fen[fen.index(" "):]
    if kind <= 5:  # a field changed
        fields = fen.split(" ")
        index = draw(st.integers(1, 5))
        fields[index] = draw(st.sampled_from(FIELD_VALUES[index]))
        return " ".join(fields)
    if kind == 6:  # cut short
        return fen[:draw(st.integers(0, len(fen) - 1))]
    # odd characters put in (7) or over (8) others
    at = draw(st.integers(0, len(fen)))
    odd = draw(st.text(alphabet=ODD, min_size=1, max_size=3))
    return fen[:at] + odd + fen[at + (kind == 8):]


@st.composite
def fens(draw):
    start, moves = random_game(draw(st.sampled_from(RULES)), draw(st.integers(0, 10 ** 9)),
                               draw(st.integers(0, 120)))
    board = start
    for move in moves:
        board.push(move)
    if draw(st.integers(0, 3)) == 0:
        return board.fen()
    return mutate(board, draw)


def python_chess_verdict(fen):
    """python-chess's perft to depth 2, or None when it calls the FEN invalid."""
    try:
        board = chess.Board(fen, chess960=True)
    except ValueError:
        return None
    if board.status() != chess.STATUS_VALID:
        return None
    return python_chess_perft(board, 2)


def check(fen, answer):
    """micro960's answer (a count, or `error REASON`) against python-chess."""
    expected = python_chess_verdict(fen)
    if answer.startswith("error "):
        assert len(answer) > 8, (fen, answer)  # a reason, not just "error"
        return
    assert expected is not None, "accepted a FEN python-chess calls invalid: %r" % fen
    assert int(answer) == expected, (fen, answer, expected)


POS = Position()
BUF = movegen.move_buffer(movegen.MAX_MOVES * 3)


@fuzz_settings()
@given(fen=fens())
def test_fen_fuzz_on_cpython(fen):
    with tally("fen", "cpython"):
        try:
            POS.set_fen(fen)
            answer = str(movegen.perft(POS, 2, BUF))
        except ValueError as e:
            answer = "error %s" % e
        check(fen, answer)


@pytest.fixture(scope="module")
def batch():
    process = LineProcess(micropython_command("perft", "--batch"))
    yield process
    process.stop()


def test_fen_fuzz_on_micropython(batch):
    @fuzz_settings()
    @given(fen=fens())
    def case(fen):
        with tally("fen", "micropython"):
            batch.send("%s\t2" % fen)
            answer = batch.read_until(lambda line: True, timeout=20)[-1]
            check(fen, answer)
    case()

"""FEN fuzzing: random positions from random games in every rule set, and
their mutations, read by micro960 on CPython and on the MicroPython unix port.

Either python-chess (chess960 mode) calls the FEN valid and micro960's perft
to depth 2 agrees with python-chess's, or micro960 refuses it with a message;
never a traceback, and never a position python-chess calls invalid.
"""
import chess
import pytest
from hypothesis import given, strategies as st

from fuzzing import (RULES, LineProcess, fuzz_settings, micropython_command, mutate,
                     random_game, tally)
from host_tools.bench import chess_perft
from micro960.rules import movegen
from micro960.rules.position import Position

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
    return chess_perft(board, 2)


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

"""Perft of every rule set python-chess can play, against python-chess.

Positions: a random set-up of the rule set (micro960's own numbering) and
0-12 random moves after it; micro960 counts them with `perft --rules NAME
--batch` on CPython and on the MicroPython unix port. Chess960, classical,
double960 and shuffle are Chess960 boards to python-chess; transcendental is
one with no castling rights. (Chess480 and LRS, which python-chess does not
play, are checked by hand in tests/firmware/rules/test_rules.py and test_lrs.py;
LRS also against a generator built here on python-chess's pseudo-legal moves.)

The same positions are counted by Stockfish's `go perft` (UCI_Chess960) too,
where Stockfish is installed. MICRO960_RULES_PERFT=N sets the positions per
rule set (default 6).
"""
import io
import os
import random

import chess
import pytest

from fuzzing import LineProcess, micropython_command
from host_tools.bench import chess_perft
from micro960.text.commands import perft_batch
from micro960.rules.position import Position
from micro960.rules.variants import Rules
from micro960.rules.startpos import setup_fen

RULE_SETS = ("chess960", "classical", "double960", "shuffle", "transcendental")
POSITIONS = int(os.getenv("MICRO960_RULES_PERFT") or 6)
DEPTH = 3


def positions(name, count, seed=2026):
    """(FEN, python-chess perft) for `count` positions of the rule set."""
    rng = random.Random(seed + len(name))
    rules = Rules(name)
    cases = []
    for _ in range(count):
        numbers = [rng.randrange(rules.setups)] if name != "classical" else [518]
        if rules.two_ranks:
            numbers.append(rng.randrange(rules.setups))
        board = chess.Board(setup_fen(rules, *numbers), chess960=True)
        for _ in range(rng.randrange(13)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        cases.append((board.fen(), chess_perft(board, DEPTH)))
    return cases


@pytest.mark.parametrize("name", RULE_SETS)
def test_perft_agrees_with_python_chess_on_cpython(name):
    cases = positions(name, POSITIONS)
    pos = Position()
    Rules(name).apply(pos)
    out = io.StringIO()
    perft_batch(io.StringIO("".join("%s\t%d\n" % (fen, DEPTH) for fen, _ in cases)), out, pos)
    assert [int(n) for n in out.getvalue().split()] == [count for _, count in cases], name


@pytest.mark.parametrize("name", RULE_SETS)
def test_perft_agrees_with_python_chess_on_micropython(name):
    cases = positions(name, POSITIONS)
    process = LineProcess(micropython_command("perft", "--rules", name, "--batch"))
    process.start()
    try:
        for fen, count in cases:
            process.send("%s\t%d\n" % (fen, DEPTH))
            answer = process.read_until(lambda line: True, timeout=60)[-1]
            assert answer.strip() == str(count), (name, fen, answer)
    finally:
        process.stop()


def test_the_rules_change_the_count():
    """The same FEN under two rule sets: castling (Chess480's elsewhere, none
    in transcendental) and en passant (none in LRS) change what perft counts."""
    counts = {}
    for name in ("chess960", "chess480", "transcendental", "lrs"):
        pos = Position()
        Rules(name).apply(pos)
        out = io.StringIO()
        perft_batch(io.StringIO("r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1\t1\n"), out, pos)
        counts[name] = int(out.getvalue())
    # Black: two castlings and d4xe3 e.p. in Chess960 and Chess480 (whose
    # castling here, king on e, lands where Chess960's does); transcendental
    # drops the castlings, LRS the castlings and the capture en passant.
    assert counts["chess960"] == counts["chess480"] == counts["transcendental"] + 2 == \
        counts["lrs"] + 3, counts


@pytest.mark.parametrize("name", RULE_SETS)
def test_perft_agrees_with_stockfish(name):
    """The same positions counted by Stockfish's `go perft` with UCI_Chess960,
    a second reference we did not write."""
    from conftest import need_tool
    path = need_tool("stockfish")
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "data"))
    from make_reference_data import Stockfish
    stockfish = Stockfish(path)
    pos = Position()
    Rules(name).apply(pos)
    try:
        for fen, _ in positions(name, POSITIONS):
            out = io.StringIO()
            perft_batch(io.StringIO("%s\t%d\n" % (fen, DEPTH)), out, pos)
            assert int(out.getvalue()) == stockfish.perft(fen, DEPTH, True), (name, fen)
    finally:
        stockfish.close()


# ------------------------------------------------------------------- LRS

def lrs_perft(board, depth):
    """LRS perft from python-chess's pseudo-legal moves: every one is legal
    but castling, en passant and promotions other than to a queen, and a
    position whose king has been taken has ended the game: no moves."""
    if depth == 0:
        return 1
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return 0
    total = 0
    for move in board.generate_pseudo_legal_moves():
        if move.promotion not in (None, chess.QUEEN) or board.is_en_passant(move):
            continue
        after = board.copy(stack=False)
        after.push(move)
        after.ep_square = None
        total += lrs_perft(after, depth - 1)
    return total


def lrs_positions(count, seed=4398):
    """Kingless, king-taking and ordinary LRS positions: random set-ups with
    pieces taken off, then random moves that prefer captures (kings too)."""
    rng = random.Random(seed)
    cases = [chess.Board("4k3/8/8/8/8/8/8/R7 b - - 0 1"),  # White's king is gone
             chess.Board("4k3/8/8/8/8/8/8/R3K2r b - - 0 1")]  # Rxe1 takes it
    while len(cases) < count:
        board = chess.Board(setup_fen(Rules("lrs"), rng.randrange(5040)))
        for sq in list(board.piece_map()):
            if board.piece_type_at(sq) != chess.KING and rng.random() < 0.6:
                board.remove_piece_at(sq)
        for _ in range(rng.randrange(16)):
            moves = [m for m in board.generate_pseudo_legal_moves()
                     if m.promotion in (None, chess.QUEEN) and not board.is_en_passant(m)]
            if not moves or board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
            board.ep_square = None
        cases.append(board.copy(stack=False))
    return cases


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_lrs_perft_agrees_with_a_king_capture_reference(runtime):
    """A taken king ends the game: perft once counted the moves after it
    (5/70/476 from a position whose White king is gone)."""
    cases = [(board.fen(), lrs_perft(board, DEPTH)) for board in lrs_positions(8)]
    assert cases[0][1] == 0 and cases[1][1] > 0
    assert sum(1 for fen, count in cases if count == 0) < len(cases) // 2  # most play on
    if runtime == "cpython":
        pos = Position()
        Rules("lrs").apply(pos)
        out = io.StringIO()
        perft_batch(io.StringIO("".join("%s\t%d\n" % (fen, DEPTH) for fen, _ in cases)), out, pos)
        assert [int(n) for n in out.getvalue().split()] == [count for _, count in cases], cases
        return
    process = LineProcess(micropython_command("perft", "--rules", "lrs", "--batch"))
    process.start()
    try:
        for fen, count in cases:
            process.send("%s\t%d\n" % (fen, DEPTH))
            answer = process.read_until(lambda line: True, timeout=60)[-1]
            assert answer.strip() == str(count), (fen, answer)
    finally:
        process.stop()

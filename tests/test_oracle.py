"""Differential tests: our rules against python-chess on random playouts.

Each playout starts from a random set-up of a rule set python-chess knows
(Chess960, classical, double960 and shuffle as Chess960 boards, transcendental
as one without castling rights) and compares,
at every position: the legal moves, SAN both ways, X-FEN and Shredder-FEN both
ways, check, and the game result.
"""
import random

import chess
import pytest

from micro960.rules.game import Game
from micro960.rules.notation import parse_move, san, uci_text
from micro960.rules.position import Position

RULE_SETS = ("chess960", "classical", "double960", "shuffle", "transcendental")


def playout(rules, seed, plies=160):
    rng = random.Random(seed)
    game = Game(rules, rules_start_fen(rules, rng))
    board = chess.Board(game.start_fen, chess960=True)
    yield game, board
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome():
            return
        # Prefer captures so playouts reach endgames, mates and dead positions.
        captures = [m for m in moves if game.pos.board[_to(m)]]
        move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        board.push(chess.Move.from_uci(uci_text(game.pos, move)))
        game.push(move)
        yield game, board


def rules_start_fen(rules, rng):
    from micro960.rules.variants import Rules
    from micro960.rules.startpos import setup_fen
    r = Rules(rules)
    if r.two_ranks:
        return setup_fen(r, rng.randrange(r.setups), rng.randrange(r.setups))
    if rules == "shuffle":
        return setup_fen(r, rng.randrange(18))
    if rules == "classical":
        return setup_fen(r)
    return setup_fen(r, rng.randrange(960))


def _to(move):
    from micro960.rules.notation import move_to
    return move_to(move)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("seed", range(12))
def test_playouts_agree_with_python_chess(rules, seed):
    for game, board in playout(rules, seed * 7919 + len(rules)):
        pos = game.pos
        ours = {uci_text(pos, m): m for m in game.legal_moves()}
        theirs = {m.uci() for m in board.legal_moves}
        assert set(ours) == theirs, board.fen()
        for text, move in ours.items():
            theirs_san = board.san(chess.Move.from_uci(text))
            assert san(pos, move) == theirs_san, (board.fen(), text)
            assert parse_move(pos, theirs_san) == move
        assert pos.fen() == board.fen(), "X-FEN"
        assert pos.fen(shredder=True) == board.shredder_fen()
        assert Position(board.fen()).fen() == board.fen()
        assert Position(board.shredder_fen()).fen(shredder=True) == board.shredder_fen()
        assert pos.in_check() == board.is_check()
        outcome = board.outcome()
        assert game.result() == (outcome.result() if outcome else "*"), board.fen()
        if not outcome:
            assert bool(game.claimable_draw()) == bool(
                board.is_fifty_moves() or board.is_repetition(3)), board.fen()

"""Every limit python-chess sends, to `micro960 uci` and `micro960 xboard`.

python-chess's engine API (chess.engine) is a client we did not write: each
form of chess.engine.Limit it offers (a time with a fraction, depth, nodes,
mate, clocks with increments and moves to go, pondering) is played through
it, over UCI and over XBoard, on CPython and on the MicroPython unix port,
from a Chess960 start position and the classical one. Each answer must be a
legal move and come in time: within three times what the limit allows, plus
a second and a half for a loaded machine.

What python-chess sends is its own business; some of it is worth knowing:
over XBoard, Limit(time=0.5) is `st 0.5`, Limit(nodes=N) is `nps 1` and
`st N`, and a mate limit is not sent at all (CECP has no such command).
Within one game it sends only what each Limit asks for and takes nothing
back: `nps 1` and `sd` once stayed for the rest of the game, and every
later limit was answered in a few milliseconds (test_limits_in_any_order).
"""
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from host_tools.match import PatientXBoard

REPO = Path(__file__).resolve().parent.parent
SLACK = 1.5  # seconds over three times the limit's own time: a loaded machine
SP = 314  # QNBRKBRN: the king and both rooks off their classical squares
STARTS = {"chess960": lambda: chess.Board.from_chess960_pos(SP),
          "classical": chess.Board}


def command(runtime, protocol):
    return [sys.executable, "-m", "host_tools", protocol, "--runtime", runtime]


@pytest.fixture(scope="module", params=[(runtime, protocol)
                                        for runtime in ("cpython", "micropython")
                                        for protocol in ("uci", "xboard")],
                ids=lambda param: "-".join(param))
def engine(request):
    """One engine per runtime and protocol for the whole module. XBoard
    engines start through the match's PatientXBoard: python-chess alone gives
    them 2 s to list their features, too little for MicroPython under load."""
    runtime, protocol = request.param
    kind = chess.engine.UciProtocol if protocol == "uci" else PatientXBoard
    client = chess.engine.SimpleEngine.popen(kind, command(runtime, protocol), cwd=REPO,
                                             timeout=60)
    client.protocol_name = protocol
    yield client
    client.quit()


@pytest.fixture(params=sorted(STARTS))
def board(request):
    return STARTS[request.param]()


def play(engine, board, limit, allowed, **kwargs):
    """engine.play in a new game; the result, checked legal and within 3 x
    `allowed` seconds (plus SLACK)."""
    started = time.monotonic()
    result = engine.play(board, limit, game=object(), **kwargs)
    took = time.monotonic() - started
    assert result.move in board.legal_moves, (result.move, board.fen(), limit)
    assert took < 3 * allowed + SLACK, (took, limit)
    return result


def test_time_with_a_fraction(engine, board):
    play(engine, board, chess.engine.Limit(time=0.5), 0.5)
    play(engine, board, chess.engine.Limit(time=0.05), 0.05)


def test_depth(engine, board):
    play(engine, board, chess.engine.Limit(depth=3), 0.5)


def test_nodes(engine, board):
    play(engine, board, chess.engine.Limit(nodes=500), 0.5)


def test_mate(engine, board):
    limit = chess.engine.Limit(mate=2)
    if engine.protocol_name == "xboard":
        limit.time = 0.5  # XBoard has no mate limit: only the time bounds the search
    play(engine, board, limit, 0.5)


@pytest.mark.parametrize("fen, mate", [
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nf6+"),
    # Chess960: castling a-side (Kc1, Rd1) is the only mate.
    ("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", "O-O-O#")], ids=("classical", "chess960"))
def test_mate_found(engine, fen, mate):
    board = chess.Board(fen, chess960="A" in fen)
    limit = chess.engine.Limit(mate=2, time=2 if engine.protocol_name == "xboard" else None)
    result = play(engine, board, limit, 2)
    assert board.san(result.move) == mate


@pytest.mark.parametrize("clocks", [
    dict(white_clock=2.0, black_clock=2.0, white_inc=0.1, black_inc=0.1, remaining_moves=20),
    dict(white_clock=1.5, black_clock=3.0),  # sudden death: a thirtieth of the clock
    dict(white_clock=3.0, black_clock=1.0, white_inc=0.5, black_inc=0.05),
    dict(white_clock=1.0, black_clock=1.0, remaining_moves=1)],  # the last move before the control
    ids=("increments-and-moves-to-go", "sudden-death", "increments", "one-move-to-go"))
def test_clocks(engine, board, clocks):
    limit = chess.engine.Limit(**clocks)
    own = limit.white_clock if board.turn == chess.WHITE else limit.black_clock
    increment = (limit.white_inc if board.turn == chess.WHITE else limit.black_inc) or 0
    share = own / (limit.remaining_moves or 30) + increment
    play(engine, board, limit, min(share, own / 3))


def test_ponder_hit_and_miss(engine, board):
    """Pondering on: after each move the engine thinks on the reply it
    expects; the next play is a hit when that reply came, else a miss, and
    either way the answer is legal and in time. Then pondering off again."""
    game = object()
    limit = chess.engine.Limit(time=0.3)
    for turn in range(4):
        started = time.monotonic()
        result = engine.play(board, limit, game=game, ponder=True)
        took = time.monotonic() - started
        assert result.move in board.legal_moves, (result.move, board.fen())
        assert took < 3 * 0.3 + SLACK, took
        board.push(result.move)
        expected = result.ponder
        if expected is not None:
            assert expected in board.legal_moves
        replies = sorted(board.legal_moves, key=lambda move: move.uci())
        others = [move for move in replies if move != expected]
        if (turn % 2 == 0 and expected is not None) or not others:
            board.push(expected)  # a hit (also where it is the only reply)
        else:
            board.push(others[0])  # a miss
    play(engine, board, chess.engine.Limit(time=0.1), 0.1)


def test_searchmoves(engine, board):
    """python-chess's root_moves (UCI's go searchmoves): the answer is one of them."""
    if engine.protocol_name == "xboard":
        pytest.skip("python-chess plays with root_moves over UCI only")
    moves = sorted(board.legal_moves, key=lambda move: move.uci())
    for listed in (moves[:1], moves[-3:], moves[2:4]):
        result = play(engine, board, chess.engine.Limit(depth=3), 0.5, root_moves=listed)
        assert result.move in listed, (result.move, listed)


# Every kind of Limit, alone and combined; what each must do is in sane().
LIMITS = (chess.engine.Limit(nodes=3000),
          chess.engine.Limit(time=0.3),
          chess.engine.Limit(depth=4),
          chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.1, black_inc=0.1),
          chess.engine.Limit(nodes=1500, depth=3),
          chess.engine.Limit(time=0.15, depth=2),
          chess.engine.Limit(white_clock=2, black_clock=2, remaining_moves=2),
          chess.engine.Limit(depth=5),
          chess.engine.Limit(white_clock=1.5, black_clock=4),
          chess.engine.Limit(remaining_moves=20))  # no time at all: one second


def sane(limit, board, took, info):
    """Why the move played under `limit` in `took` seconds, with the last
    thinking line `info`, is not what the limit asks for; None if it is."""
    depth, nodes = info.get("depth", 0), info.get("nodes", 0)
    if limit.nodes:
        if nodes > limit.nodes + 16 or depth < min(3, limit.depth or 3):
            return "%d nodes at depth %d" % (nodes, depth)
    elif limit.time:
        # The time, unless the depth asked for came first.
        if took < limit.time / 2 and depth != limit.depth or took > 3 * limit.time + SLACK:
            return "%.3f s" % took
    elif limit.white_clock:
        own = limit.white_clock if board.turn == chess.WHITE else limit.black_clock
        increment = (limit.white_inc if board.turn == chess.WHITE else limit.black_inc) or 0
        share = min(own / (limit.remaining_moves or 30) + increment, own / 2)
        if not share / 4 < took < 3 * share + SLACK:
            return "%.3f s for a share of %.3f s" % (took, share)
    elif limit.depth:
        if depth != limit.depth:
            return "depth %d" % depth
    elif not 0.5 < took < 3 + SLACK:  # remaining_moves alone: no limit, one second
        return "%.3f s" % took
    if limit.depth and depth > limit.depth:
        return "depth %d" % depth
    return None


def play_in_one_game(engine, board, limits):
    """Each limit in turn, one move each, in one game (python-chess sends
    only what each limit asks for); what was not sane."""
    game = object()
    wrong = []
    for limit in limits:
        started = time.monotonic()
        result = engine.play(board, limit, game=game, info=chess.engine.INFO_ALL)
        took = time.monotonic() - started
        assert result.move in board.legal_moves, (result.move, board.fen(), limit)
        why = sane(limit, board, took, result.info)
        if why:
            wrong.append("%r: %s" % (limit, why))
        board.push(result.move)
    return wrong


def test_limits_in_any_order_in_one_game(engine):
    """Every kind of Limit one after another in one game, in the order
    that once broke XBoard (a node limit first: `nps 1` stayed, and every
    time after it was a node or two), then in a random order: each move is
    played as its own limit asks, whatever came before."""
    wrong = play_in_one_game(engine, STARTS["chess960"](), LIMITS)
    seed = random.randrange(10 ** 6)
    shuffled = random.Random(seed).sample(LIMITS, len(LIMITS))
    wrong += play_in_one_game(engine, STARTS["classical"](), shuffled)
    assert not wrong, (seed, wrong)

"""`micro960 bench --ponder`: what thinking on the person's time buys.

The console plays Black against a "person", Stockfish (Debian's, a fixed
few thousand nodes a move, so it plays like a club player, not like us),
in Chess960 games from seeded start positions, twice over: with pondering
and without. Time is counted in nodes, at the rate of a Pico:

- the person thinks PERSON_NODES a move (20 s at 1,150 nodes/s, what
  `micro960 bench --pico` measured when this was written; it is 1,650 since
  the tree search became viper code, but the figures of the README and the
  notes are at 1,150, so the budgets stay), and the console's input gives the
  move after that many nodes of pondering (the search polls every 16);
- the engine's own time is OWN_NODES a move (5 s).

Without pondering the engine searches OWN_NODES for each move. With it,
on a hit it answers from the ponder search, PERSON_NODES plus its own
OWN_NODES; on a miss it searches OWN_NODES again, with what the ponder
search left in its table. The report: the hit rate and the average nodes
per engine move each way. It runs on CPython, so the node counts are the
Pico's and the wall time is this machine's.
"""
import random
import shutil
import sys

import chess
import chess.engine

from . import runtime

PERSON_NODES = 23000
OWN_NODES = 5750
STOCKFISH_NODES = 3000
MOVES = 30  # each game is cut off after this many moves of each side


class Person:
    """The console's input: the person's move comes after `polls` polls."""

    def __init__(self, line, polls):
        self.line = line
        self.polls = polls

    def poll(self):
        self.polls -= 1
        if self.polls < 0 and self.line is not None:
            line, self.line = self.line, None
            return line
        return None

    def readline(self):
        line, self.line = self.line, None
        return line


def play_game(sp, pondering, stockfish, person_nodes, own_nodes, moves=MOVES):
    """One game; [(nodes, hit)] for each engine move."""
    if str(runtime.FIRMWARE) not in sys.path:
        sys.path.insert(0, str(runtime.FIRMWARE))
    from micro960.text.console import Console
    from micro960.text.pondering import ponder
    from micro960.engine.search import Limits
    from micro960.rules.ucimove import uci_text
    console = Console("chess960", sp, engine_side=16, hash_kb=16, out=lambda text: None)
    console.limits = Limits(nodes=own_nodes)
    console.pondering = pondering
    console.engine.on_info = None
    searched = []  # the nodes of the search each engine move came from
    answer = console.answer

    def answered(move):
        searched.append(console.engine.nodes)
        answer(move)
    console.answer = answered
    record = []
    while console.game.result() == "*" and len(console.game.moves) < 2 * moves:
        board = chess.Board(console.game.start_fen, chess960=True)
        for pos, move in console.game.replay():  # Chess960's UCI: king takes rook
            board.push(board.parse_uci(uci_text(pos, move, True)))
        text = board.san(stockfish.play(board, chess.engine.Limit(nodes=STOCKFISH_NODES)).move)
        before = len(searched)
        console.input = Person(text, person_nodes // 16)
        # One ponder a person's move (next_line() would ponder on after a hit,
        # waiting for the person's next move, which this script gives only later).
        line = ponder(console) if console.may_ponder() else text
        if line is not None:  # a miss (or no pondering): the move as it is typed
            console.handle(line)
        if len(searched) > before:  # the engine answered (the person did not mate)
            record.append((searched[-1], line is None))
    return record


def run(games=20, person_nodes=PERSON_NODES, own_nodes=OWN_NODES, out=print):
    path = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if not path:
        out("micro960 bench --ponder: Debian's stockfish is not installed")
        return 1
    out("Pondering against Stockfish (%d nodes a move) in %d Chess960 games of up to %d "
        "moves: the person thinks %d nodes a move, the engine %d of its own "
        "(20 s and 5 s at a Pico's 1,150 nodes/s)."
        % (STOCKFISH_NODES, games, MOVES, person_nodes, own_nodes))
    rng = random.Random(960)
    sps = [rng.randrange(960) for _ in range(games)]
    with chess.engine.SimpleEngine.popen_uci(path) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 16})
        totals = {}
        for pondering in (False, True):
            moves = []
            for sp in sps:
                moves += play_game(sp, pondering, stockfish, person_nodes, own_nodes)
            totals[pondering] = moves
            hits = sum(1 for nodes, hit in moves if hit)
            out("%s: %d engine moves, %d hits (%d%%), %d nodes a move on average"
                % ("with pondering" if pondering else "without pondering", len(moves), hits,
                   100 * hits // max(1, len(moves)),
                   sum(nodes for nodes, hit in moves) // max(1, len(moves))))
    return 0

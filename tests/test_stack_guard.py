"""Running out of stack mid-search loses nothing: the engine keeps its last
finished iteration's move and the game's position is intact.

On a Pico the C stack is 8 KB; here CPython's recursion limit stands in for it
(RecursionError is a RuntimeError, like MicroPython's stack overflow)."""
import sys

from micro960.game import Game
from micro960.search import Limits, Search

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_stack_overflow_keeps_the_position_and_a_legal_move():
    game = Game("chess960", KIWIPETE)
    game.play("a3")
    fen = game.pos.fen()
    search = Search(4)
    rebuilt = []
    rebuild = game.rebuild
    game.rebuild = lambda: rebuilt.append(1) or rebuild()
    depth = len(__import__("inspect").stack())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 16)  # enough for a few plies, not for depth 6
    try:
        move, _ = search.think(game, Limits(depth=6))
    finally:
        sys.setrecursionlimit(limit)
    assert rebuilt, "the stack limit was not reached; lower it"
    assert game.pos.fen() == fen
    assert move in game.legal_moves()

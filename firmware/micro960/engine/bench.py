"""The search benchmark: fixed positions searched to a fixed depth.

The total node count is a signature of the search's behaviour: it changes
only when the search or evaluation changes, and both runtimes give the same.
"""
import gc

from micro960.compat import ticks_diff, ticks_ms
from micro960.rules.game import Game
from micro960.engine.search import Limits, Search

POSITIONS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
    "nrbkqbrn/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/NRBKQB1R b KQkq - 1 2",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/2k5/8/8/8/3QK3 w - - 0 1",
)


def run(depth=5, hash_kb=16, out=print):
    """Search every position to `depth`; print a line each and the totals."""
    search = Search(hash_kb)
    total_nodes = 0
    total_ms = 0
    peak = 0
    deepest = 0
    for i, fen in enumerate(POSITIONS):
        game = Game("chess960", fen)
        search.tt.clear()
        gc.collect()
        start = ticks_ms()
        move, score = search.think(game, Limits(depth=depth))
        ms = ticks_diff(ticks_ms(), start)
        total_nodes += search.nodes
        total_ms += ms
        deepest = max(deepest, search.stack_peak)
        if hasattr(gc, "mem_alloc"):
            peak = max(peak, gc.mem_alloc())
        out("position %d depth %d nodes %d ms %d" % (i + 1, depth, search.nodes, ms))
    out("total nodes %d ms %d nps %d heap %d stack %d" % (
        total_nodes, total_ms, total_nodes * 1000 // max(1, total_ms), peak, deepest))
    return total_nodes

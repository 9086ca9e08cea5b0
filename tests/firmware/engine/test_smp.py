"""Two searches at once (engine/smp.py, UCI Threads 2) on both runtimes: the
helper searches beside the main search in the same table, on its own copy
of the game, and ends with it; `go nodes` counts both; what the main
search answers is as sound as alone.
"""
import gc
import sys

from micro960.rules.game import Game
from micro960.rules.notation import san
from micro960.engine.search import MATE, Limits, Search
from micro960.engine.tt import GAME_KB
from micro960.text.uci import RootMoves
from micro960.rules.ucimove import uci_text

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun skips on any exception of this name
    class SkipTest(Exception):
        pass

try:
    import _thread  # noqa: F401
except ImportError:
    _thread = None

HASH_KB = 4  # small, so that this module fits a small MicroPython heap


def two_searches():
    if _thread is None:
        raise SkipTest("this runtime has no _thread")
    search = Search(HASH_KB)
    search.set_threads(2)
    return search


def test_two_searches_find_a_mate_in_two():
    search = two_searches()
    # Nf6+ gxf6 Bxf7#; the king stays on c1 and the rook goes b1-d1, Rd8# next.
    for rules, fen, solution in (
            ("classical", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
             "Nf6+"),
            ("chess960", "2k5/1p6/1B6/1P2p3/8/8/8/1RK5 w Q - 0 1", "O-O-O")):
        game = Game(rules, fen)
        move, score = search.think(game, Limits(depth=4))
        assert (score, san(game.pos, move)) == (MATE - 3, solution), (fen, score)
        assert search.helping is search.helper, "the helper was started beside it"


def test_the_helper_searches_a_copy_of_the_game_and_ends_with_the_search():
    search = two_searches()
    game = Game("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    for _ in range(4):  # a few moves of a game, each searched by both
        fen, plies = game.pos.fen(), len(game.moves)
        move, _ = search.think(game, Limits(nodes=3000))
        helper = search.helping
        assert not helper.running.locked(), "the helper's thread has ended"
        assert helper.game.pos.fen() == fen and list(helper.game.moves) == list(game.moves)
        assert (game.pos.fen(), len(game.moves)) == (fen, plies), "the game is as it was"
        # The limit is both searches' nodes: the main search stopped short of
        # 3000 of its own (the helper goes on for a few after).
        assert 0 < search.nodes < 3000 <= search.all_nodes(), (search.nodes, search.all_nodes())
        assert search.all_nodes() == search.nodes + helper.search.nodes
        assert move in list(game.legal_moves())
        game.push(move)
    assert search.helper is helper, "one helper, made once"


def test_a_stop_stops_both_searches():
    search = two_searches()
    game = Game("chess960", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    polls = [0]

    def poll():  # as UCI's `stop` after the 50th look at the input
        polls[0] += 1
        return polls[0] > 50

    search.poll = poll
    move, _ = search.think(game, Limits(infinite=True))
    assert move in list(game.legal_moves())
    assert not search.helping.running.locked()
    assert search.helping.search.nodes > 0


def test_the_helper_keeps_to_searchmoves():
    # Ra8 mates, but not listed: neither search may make the main one play it.
    search = two_searches()
    game = Game("classical", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    listed = [move for move in game.legal_moves() if uci_text(game.pos, move, True) in ("a1a2", "g1f1")]
    for depth in (1, 4):
        limits = Limits(depth=depth)
        limits.generate = RootMoves(listed)
        move, score = search.think(game, limits)
        assert move in listed and score < MATE - 1, uci_text(game.pos, move, True)


def test_a_level_plays_with_one_search():
    # The levels' ratings were measured with one search: no helper at a level.
    search = two_searches()
    search.level = 10
    game = Game("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    search.think(game, Limits(depth=3))
    assert search.helping is None and search.helper.search.nodes == 0


def _table_sizes(game):
    """A table sized from the free heap: its KB alone, beside a helper, and
    alone again, and the heap free beside the helper. (Nothing here holds
    the helper but the search: MicroPython's collector would keep what a
    stale word of this frame points to.)"""
    search = Search()
    search.think(game, Limits(depth=2))
    search.tt.resize()  # as it is once a search holds its game
    alone = search.tt.kb
    search.set_threads(2)
    gc.collect()
    free, two = getattr(gc, "mem_free", lambda: 0)(), search.tt.kb  # (CPython: no heap)
    search.think(game, Limits(depth=2))
    search.set_threads(1)  # the helper's heap goes back to the table
    return alone, two, search.tt.kb, free


def test_a_table_sized_from_the_heap_is_sized_again_around_the_helper():
    # The helper's heap comes out of the table, not out of the game's room
    # (engine/tt.py's GAME_KB); a table of a size asked for keeps its size.
    if _thread is None:
        raise SkipTest("this runtime has no _thread")
    game = Game("classical", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    alone, two, again, free = _table_sizes(game)
    if sys.implementation.name == "micropython":
        assert two < alone, (two, alone)
        # (where the heap had that room: a table of 1 KB is the least it makes)
        assert two == 1 or free >= GAME_KB * 1024, free
    assert again >= alone - 1, (again, alone)
    search = Search(HASH_KB)
    search.set_threads(2)
    assert search.tt.kb == HASH_KB and search.tt.asked == HASH_KB
    assert search.helper.search.tt is search.tt
    search.set_threads(1)
    assert search.helper is None and search.helping is None

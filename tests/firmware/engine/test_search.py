"""The search on both runtimes: it finds a mate in two, it allocates
nothing per node (the heap use of a search does not grow with its size), it
looks at the clock and the input every 16 nodes, and its C stack does not
grow with its depth.
"""
import gc
from array import array

from micro960.rules.game import Game
from micro960.rules.notation import san
from micro960.engine.search import MATE, Limits, Search
from micro960.text.uci import RootMoves
from micro960.rules.position import PAWN, TO64
from micro960.rules.ucimove import move_to, parse_uci, uci_text

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun skips on any exception of this name
    class SkipTest(Exception):
        pass

HASH_KB = 4  # small, so that this module fits a small MicroPython heap


def mate_in_two(rules, fen, solution):
    game = Game(rules, fen)
    search = Search(HASH_KB)
    move, score = search.think(game, Limits(depth=4))
    assert score == MATE - 3, (fen, score)
    assert san(game.pos, move) == solution, (fen, san(game.pos, move))
    # Play it out: whatever the defender answers, the next move mates.
    game.push(move)
    reply, _ = search.think(game, Limits(depth=2))
    game.push(reply)
    mate, score = search.think(game, Limits(depth=2))
    assert score == MATE - 1
    game.push(mate)
    assert game.reason() == "checkmate", game.pos.fen()


def test_mate_in_two():
    # Nf6+ gxf6 Bxf7#
    mate_in_two("classical", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
                "Nf6+")


def test_mate_in_two_by_castling_chess960():
    # The king on c1 stays where it is and the rook goes b1-d1; Rd8# follows.
    mate_in_two("chess960", "2k5/1p6/1B6/1P2p3/8/8/8/1RK5 w Q - 0 1", "O-O-O")


# What a search allocates besides its nodes: a few small objects per call.
FIXED_BYTES = 1024
# Positions with checks, captures, castling and promotions in their trees.
POSITIONS = (
    ("chess960", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    ("classical", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("chess960", "1r2k2r/P5P1/8/8/8/8/p5p1/1R2K2R w BHbh - 0 1"),
    ("lrs", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
)


def allocated_by(search, game, depth, searchmoves=None):
    """(bytes allocated, nodes) by one search to `depth` with the collector off."""
    limits = Limits(depth=depth)
    if searchmoves is not None:
        limits.generate = RootMoves(searchmoves)
    search.tt.clear()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        search.think(game, limits)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    return after - before, search.nodes


def test_the_search_allocates_nothing_per_node():
    if not hasattr(gc, "mem_alloc"):
        raise SkipTest("gc.mem_alloc is MicroPython's")
    search = Search(HASH_KB)
    assert search.on_info is None
    for rules, fen in POSITIONS:
        game = Game(rules, fen)
        search.think(game, Limits(depth=1))  # anything made once, made now
        small, few = allocated_by(search, game, 3)
        # (depth 6: some positions' trees grow less than 4 times from 3 to 5 plies)
        large, many = allocated_by(search, game, 6)
        assert many >= 4 * few, (fen, few, many)
        assert large <= FIXED_BYTES, (fen, large, many)
        # Not one more object for thousands more nodes (a 16-byte object
        # every 100 nodes would be 160 bytes per 1000).
        assert large - small <= 128, (fen, small, few, large, many)


def moves_named(game, names):
    """The legal moves of the game with these UCI names, as `go searchmoves`
    has them for its RootMoves."""
    return array("H", [move for move in game.legal_moves()
                       if uci_text(game.pos, move, True) in names])


def test_searchmoves_keeps_the_root_to_the_moves_listed():
    # Ra8 mates; listed without it, the root may not play it, at any depth.
    # (Stopped before it has searched a move, the search's answer is not
    # its to choose: uci.py then plays the first listed.)
    game = Game("classical", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    search = Search(HASH_KB)
    assert uci_text(game.pos, search.think(game, Limits(depth=3))[0], True) == "a1a8"
    listed = moves_named(game, ("a1a2", "g1f1", "h2h3"))
    assert len(listed) == 2  # h2h3 is no move here
    for limits in (Limits(depth=1), Limits(depth=4), Limits(nodes=1), Limits(mate=1)):
        limits.generate = RootMoves(listed)
        move, score = search.think(game, limits)
        assert move in list(listed), uci_text(game.pos, move, True)
        assert score < MATE - 1
    # One move listed: that move, however bad.
    only_rook = moves_named(game, ("a1a2",))
    limits = Limits(depth=4)
    limits.generate = RootMoves(only_rook)
    assert search.think(game, limits)[0] == only_rook[0]


def test_searchmoves_allocates_nothing_per_node():
    if not hasattr(gc, "mem_alloc"):
        raise SkipTest("gc.mem_alloc is MicroPython's")
    search = Search(HASH_KB)
    game = Game(*POSITIONS[0])
    listed = moves_named(game, ("e2a6", "d5e6", "e1h1", "a2a3"))
    assert len(listed) == 4
    search.think(game, Limits(depth=1))  # anything made once, made now
    small, few = allocated_by(search, game, 3, listed)
    large, many = allocated_by(search, game, 6, listed)
    assert many >= 4 * few and large <= FIXED_BYTES and large - small <= 128, \
        (small, few, large, many)


def test_the_clock_and_the_input_are_looked_at_every_16_nodes():
    # At a Pico's 1,650 nodes a second, 16 nodes are some 10 ms: what a
    # `stop` or the end of the time waits at most.
    search = Search(HASH_KB)
    looked = []
    check_limits = search.check_limits

    def check():
        looked.append(search.nodes)
        check_limits()

    search.check_limits = check  # quiescence and the tree both call it so
    search.think(Game(*POSITIONS[0]), Limits(depth=4))
    assert search.nodes > 1000
    assert looked == list(range(16, search.nodes + 1, 16)), looked[:20]


def test_the_c_stack_is_the_same_at_any_depth():
    # Neither the tree nor quiescence recurses: a Pico's 7,936 bytes of C
    # stack cannot run out however deep a line goes.
    search = Search(HASH_KB)
    peaks = []
    for depth in (2, 6):
        search.think(Game(*POSITIONS[0]), Limits(depth=depth))
        peaks.append(search.stack_peak)
    if not peaks[0]:
        raise SkipTest("stack_use is MicroPython's")
    assert search.seldepth > 12, search.seldepth
    assert peaks[1] == peaks[0], peaks


def test_the_expected_reply_outlives_its_table_entry():
    # The second move of the line (what a front end ponders on, UCI's
    # `bestmove ... ponder`) is the answer the root's search of the chosen
    # move found: the same as the table's while the table keeps it, and
    # still there once the table has given that entry to another position.
    search = Search(HASH_KB)
    for rules, fen in POSITIONS:
        game = Game(rules, fen)
        move, _ = search.think(game, Limits(depth=5))
        line = search.pv(move, 2)
        search.tt.clear()
        assert search.pv(move, 2) == line and len(line) == 2, (fen, line)
    # A table of one entry, the root's last: it never holds the answer.
    search.tt.resize(1)
    search.tt.size = 1
    game = Game(*POSITIONS[0])
    move, _ = search.think(game, Limits(depth=4))
    line = search.pv(move, 2)
    assert len(line) == 2 and line[1] == search.replies[3], line  # search.py's _REPLY


def test_a_quiet_move_that_refutes_a_move_is_kept_as_its_counter():
    # Black threatens Re1 mate; 1. a3 does nothing against it, and the
    # search below it finds the mate, a quiet move, and remembers it as the
    # counter to a pawn's move to a3 (by the moving piece and destination).
    game = Game("classical", "4r1k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1")
    search = Search(HASH_KB)
    search.think(game, Limits(depth=3))
    pos = game.pos
    a3 = parse_uci(pos, "a2a3")
    game.push(a3)
    mate = parse_uci(pos, "e8e1")
    assert search.counters[1 + ((PAWN << 6) | TO64[move_to(a3)])] == mate

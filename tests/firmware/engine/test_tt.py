"""The transposition table (tt.py) on both runtimes: what a store keeps,
what a probe finds, which entry gives way, and mate scores stored relative
to the node.
"""
from micro960.rules.game import Game
from micro960.engine.search import MATE, Limits, Search
from micro960.engine.tt import ENTRY_BYTES, EXACT, LOWER, UPPER, TranspositionTable

KB = 1
SIZE = KB * 1024 // ENTRY_BYTES  # entries


def entry(tt, key):
    """(depth, bound, score, move) stored for `key`, or None. (The search
    reads depth and bound from the info byte in its viper code, as here.)"""
    i = tt.probe(key)
    if i < 0:
        return None
    info = tt.info[i]  # depth + 1 in bits 0-5, the bound in bits 6-7
    return (info & 63) - 1, info >> 6, tt.scores[i], tt.moves[i]


def test_the_size_in_kb_sets_the_buffers():
    for kb in (1, 2, 4):
        tt = None  # the old table goes before the new one is made, as in resize()
        tt = TranspositionTable(kb)
        assert tt.size == kb * 1024 // ENTRY_BYTES
        assert len(tt.keys) == len(tt.moves) == len(tt.scores) == len(tt.info) == tt.size
    tt.resize(3)
    assert tt.size == 3072 // ENTRY_BYTES and len(tt.keys) == tt.size


def test_a_store_is_found_with_its_depth_bound_score_and_move():
    tt = TranspositionTable(KB)
    # Keys are the position's Zobrist keys, of 30 bits (position.py).
    for key, score in ((12345, 57), (987654321, -29990), (2 ** 30 - 1, 0), (0, -1)):
        tt.store(key, 5, LOWER, score, 0x1234)
        assert entry(tt, key) == (5, LOWER, score, 0x1234)
    assert entry(tt, 12345 + SIZE) is None  # same slot, another position
    assert entry(tt, 54321) is None


def test_depths_beyond_the_field_are_kept_as_the_deepest():
    tt = TranspositionTable(KB)
    tt.store(7, 0, UPPER, 1, 2)
    assert entry(tt, 7)[0] == 0
    tt.store(7, 80, EXACT, 1, 2)
    assert entry(tt, 7)[0] == 62


def test_a_store_without_a_move_keeps_the_move_known_for_the_position():
    tt = TranspositionTable(KB)
    tt.store(99, 4, LOWER, 30, 0x0ABC)
    tt.store(99, 6, UPPER, -10, 0)
    assert entry(tt, 99) == (6, UPPER, -10, 0x0ABC)
    tt.store(99 + SIZE, 9, UPPER, -10, 0)  # another position: no move to keep
    assert entry(tt, 99 + SIZE) == (9, UPPER, -10, 0)


def test_a_deeper_entry_of_this_search_stays_unless_the_new_one_is_exact():
    tt = TranspositionTable(KB)
    tt.new_search()
    tt.store(5, 8, LOWER, 100, 1)
    tt.store(5 + SIZE, 3, LOWER, 50, 2)
    tt.store(5 + SIZE, 3, UPPER, 50, 2)
    assert entry(tt, 5) == (8, LOWER, 100, 1) and entry(tt, 5 + SIZE) is None
    tt.store(5, 2, UPPER, 90, 3)  # the same position, shallower: newer wins
    assert entry(tt, 5) == (2, UPPER, 90, 3)
    tt.store(5, 8, LOWER, 100, 1)
    tt.store(5 + SIZE, 3, EXACT, 50, 2)
    assert entry(tt, 5 + SIZE) == (3, EXACT, 50, 2) and entry(tt, 5) is None


def test_an_entry_of_an_earlier_search_gives_way():
    tt = TranspositionTable(KB)
    tt.new_search()
    tt.store(5, 8, LOWER, 100, 1)
    tt.new_search()
    tt.store(5 + SIZE, 1, UPPER, 50, 2)
    assert entry(tt, 5 + SIZE) == (1, UPPER, 50, 2) and entry(tt, 5) is None


def test_clear_and_hashfull():
    tt = TranspositionTable(KB)
    assert tt.hashfull() == 0
    for key in range(0, SIZE, 2):
        tt.store(key, 1, EXACT, 0, 0)
    assert 490 <= tt.hashfull() <= 510  # permille
    tt.clear()
    assert tt.hashfull() == 0 and entry(tt, 0) is None


def test_mate_scores_are_stored_as_distances_from_the_node():
    # Nf6+ gxf6 Bxf7#: mate in 3 plies from the root.
    game = Game("classical", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    search = Search(4)
    move, score = search.think(game, Limits(depth=4))
    assert score == MATE - 3
    root = entry(search.tt, game.pos.key)
    assert root[1] == EXACT and root[2] == MATE - 3, root
    # One ply down the defender is mated in 2 plies from there, not 3;
    # two plies down White mates in 1.
    for ply, mate_in in ((1, -(MATE - 2)), (2, MATE - 1)):
        game.play(("Nf6+", "gxf6")[ply - 1])
        stored = entry(search.tt, game.pos.key)
        assert stored is not None and stored[2] == mate_in, (ply, stored)

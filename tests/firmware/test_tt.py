"""The transposition table (tt.py) on both runtimes: what a store keeps,
what a probe finds, which entry gives way, and mate scores stored relative
to the node.
"""
from micro960.search import MATE, _score_from_tt, _score_to_tt
from micro960.tt import ENTRY_BYTES, EXACT, LOWER, UPPER, TranspositionTable

KB = 1
SIZE = KB * 1024 // ENTRY_BYTES  # entries


def entry(tt, key):
    """(depth, bound, score, move) stored for `key`, or None."""
    i = tt.probe(key)
    if i < 0:
        return None
    return tt.depth(i), tt.bound(i), tt.scores[i], tt.moves[i]


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
    # A mate in 5 plies from the root, found 2 plies down: 3 plies from there.
    assert _score_to_tt(MATE - 5, 2) == MATE - 3
    # The same position reached 4 plies down is mate 7 plies from the root.
    assert _score_from_tt(MATE - 3, 4) == MATE - 7
    assert _score_to_tt(-MATE + 6, 2) == -MATE + 4
    assert _score_from_tt(-MATE + 4, 1) == -MATE + 5
    for score in (0, 250, -250, 28999, -28999):
        assert _score_to_tt(score, 7) == score == _score_from_tt(score, 7)

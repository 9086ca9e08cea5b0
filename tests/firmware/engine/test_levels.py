"""Levels below full strength on both runtimes: the table of ratings and
their knobs, what each knob does to a search, and that the noise never
gives away what the search saw.
"""
import sys

from micro960.compat import IS_MICROPYTHON, release
from micro960.rules.game import Game
from micro960.rules.ucimove import uci_text
from micro960.engine.search import Limits, Search
from micro960.engine.levels import HIGHEST, LEVELS, LOWEST, check, knobs, ponders, rating

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun skips on any exception of this name
    class SkipTest(Exception):
        pass

HASH_KB = 4
MIDDLEGAME = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 5"


class Seeded:
    """A repeatable random source: only getrandbits is used."""

    def __init__(self, seed):
        self.state = seed * 2654435761 % 4294967296 or 1

    def getrandbits(self, bits):
        # xorshift32
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x & ((1 << bits) - 1)


def test_the_table_weakens_evenly_from_the_highest_rating_down():
    assert LOWEST == LEVELS[0][0] and HIGHEST == LEVELS[-1][0]
    previous = None
    for row in LEVELS:
        elo, nodes, depth, noise = row
        # The noise (the bonus stays below it): never a piece; from 1250 up, never a pawn.
        assert nodes > 0 and depth > 0 and 0 <= noise <= (100 if elo >= 1250 else 300), row
        if previous:
            assert elo > previous[0] and nodes >= previous[1] and depth >= previous[2] and \
                noise <= previous[3], (previous, row)
        previous = row
    # Between two rows, knobs between theirs.
    for elo in range(LOWEST, HIGHEST + 1, 25):
        nodes, depth, noise = knobs(elo)
        below = [row for row in LEVELS if row[0] <= elo][-1]
        above = [row for row in LEVELS if row[0] >= elo][0]
        assert below[1] <= nodes <= above[1] and below[2] <= depth <= above[2] and \
            above[3] <= noise <= below[3], (elo, nodes, depth, noise)
    assert knobs(LOWEST) == LEVELS[0][1:] and knobs(HIGHEST) == LEVELS[-1][1:]


def test_skill_levels_0_to_19_are_ratings_of_the_table_and_20_is_full_strength():
    assert rating(0) == LOWEST and rating(1500) == 1500
    ratings = [rating(skill) for skill in range(20)]
    assert ratings == sorted(ratings) and len(set(ratings)) == 20
    assert LOWEST <= ratings[-1] < HIGHEST
    assert knobs(7) == knobs(rating(7))
    assert ponders(20) and ponders(10) and ponders(rating(10)) and not ponders(9)
    assert not ponders(rating(9)) and ponders(HIGHEST)


def test_levels_outside_the_table_are_refused_with_the_range():
    for good in (0, 7, 20, LOWEST, 1500, HIGHEST):
        assert check(good) == good
    for bad in (-1, 21, LOWEST - 1, HIGHEST + 1, 99999):
        try:
            check(bad)
        except ValueError as e:
            assert str(e) == "levels are 0-20 (20 = full strength) or a rating %d-%d" \
                % (LOWEST, HIGHEST), e
        else:
            assert False, bad


def searched(level, fen=MIDDLEGAME, seed=1, limits=None, nodes=None):
    search = Search(HASH_KB)
    search.level = level
    search.rng = Seeded(seed)
    depths = []

    def told(depth, seldepth, score, count, ms, pv):
        depths.append(depth)
        if nodes is not None:
            nodes.append(count)
    search.on_info = told
    move, _ = search.think(Game("chess960", fen), limits or Limits(nodes=10 ** 6))
    return search, move, depths


def test_a_level_searches_no_more_than_its_nodes_and_depth():
    """...but its first iteration runs whole: every move is weighed."""
    for level in (LOWEST, 1500, HIGHEST - 1, 3):
        budget, depth, _ = knobs(level)
        counts = []
        search, move, depths = searched(level, nodes=counts)
        assert move and depths and max(depths) <= depth, (level, depths)
        # The limit is checked every 16 nodes.
        assert search.nodes <= max(budget, counts[0]) + 16, (level, search.nodes, counts)
    # Even 20 nodes: the first iteration weighs every move.
    counts = []
    search, _, depths = searched(LOWEST, limits=Limits(nodes=20), nodes=counts)
    legal = len(Game("chess960", MIDDLEGAME).legal_moves())
    assert depths == [1] and counts[0] > 20 and search.root_count == legal, (counts, legal)
    # Full strength has neither cap (only the limits given).
    search, _, depths = searched(20, limits=Limits(depth=5))
    assert max(depths) == 5 and search.root_scores is None


def test_the_noise_picks_only_moves_within_it_of_the_best_score():
    """Each root move's score from the last whole iteration is kept at 256
    on; the move played is never more than `noise` below the best of them."""
    chosen = set()
    for seed in range(1, 13):
        search, move, _ = searched(LOWEST, seed=seed)
        noise = knobs(LOWEST)[2]
        count = search.root_count
        scores = [search.root_scores[256 + i] for i in range(count)]
        moves = [search.root_moves[256 + i] for i in range(count)]
        assert count > 20 and move in moves, count
        assert scores[moves.index(move)] >= max(scores) - noise, (seed, scores)
        chosen.add(move)
    assert len(chosen) > 1, chosen  # the noise does vary the play


def test_no_level_leaves_its_queen_to_a_pawn():
    """A weaker player, not one who gives pieces away: the queen attacked
    by a pawn is moved (or takes it) at the lowest level, whatever the noise."""
    fen = "4k3/8/2n5/4p3/3Q4/8/8/4K3 w - - 0 1"
    for seed in range(1, 9):
        _, move, _ = searched(LOWEST, fen, seed)
        assert uci_text(Game("chess960", fen).pos, move).startswith("d4"), (seed, uci_text(Game("chess960", fen).pos, move))


def test_full_strength_loads_no_level_code():
    if not IS_MICROPYTHON:
        raise SkipTest("CPython keeps the modules it loads")
    release("engine.levels")
    searched(20, limits=Limits(depth=2))
    assert "micro960.engine.levels" not in sys.modules
    searched(1500)
    assert "micro960.engine.levels" in sys.modules

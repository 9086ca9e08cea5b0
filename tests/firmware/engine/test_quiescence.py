"""Quiescence search (quiescence.py) on both runtimes: it stands pat on a
quiet position, takes what hangs, promotes, leaves alone a capture that
loses material, prunes a capture that cannot reach alpha, and at its first
ply answers a check with every evasion, so a mate on the horizon is seen.
Scores are compared with the evaluation of the position the search should
end in.
"""
from micro960.engine import network
from micro960.rules.game import Game
from micro960.engine.quiescence import quiesce
from micro960.engine.search import INFINITE, MATE, Limits, Search

HASH_KB = 1


def qsearch(fen, alpha=-INFINITE, beta=INFINITE, rules="chess960"):
    """(score for the side to move, nodes) of a quiescence search of `fen`."""
    search = Search(HASH_KB)
    search.at(Game(rules, fen))  # as the search does at its root
    return quiesce(search, alpha, beta, 0, 0), search.tally[0]


def static(fen):
    """The evaluation (the network's), for the side to move."""
    return network.evaluate(Game("chess960", fen).pos)


def test_a_quiet_position_stands_pat():
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert qsearch(fen) == (static(fen), 1)


def test_standing_pat_at_or_above_beta_cuts_before_any_capture():
    fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1"  # exd5 would win a knight
    assert qsearch(fen, -INFINITE, static(fen)) == (static(fen), 1)


def test_it_takes_a_hanging_piece():
    # The knight on d5 hangs to the e4 pawn: exd5, and Black has nothing.
    fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1"
    assert qsearch(fen) == (-static("4k3/8/8/3P4/8/8/8/4K3 b - - 0 1"), 2)


def test_a_pawn_on_the_seventh_promotes():
    # Against a rook, so the new queen counts (against a bare king the
    # network scores the pawn on the seventh as much as the queen).
    fen = "8/1P6/6k1/7r/8/8/8/4K3 w - - 0 1"
    score, _ = qsearch(fen)
    assert score == -static("1Q6/8/6k1/7r/8/8/8/4K3 b - - 0 1") > static(fen) + 300


def test_the_queen_does_not_take_a_pawn_the_other_side_guards():
    # Qxd5 exd5 would lose the queen for a pawn: not searched at all. (Each
    # side has a queen: a queen up, the network scores a pawn more at little,
    # the game being won either way.)
    fen = "4k2q/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1"
    assert qsearch(fen) == (static(fen), 1)
    # Unguarded, the same pawn is taken.
    fen = "4k2q/8/8/3p4/8/8/3Q4/4K3 w - - 0 1"
    score, nodes = qsearch(fen)
    assert nodes >= 2 and score > static(fen) + 20


def test_a_capture_that_cannot_reach_alpha_is_pruned():
    # Taking the pawn gains about 50: with alpha 400 above standing pat, no
    # capture is tried; with alpha just above it, the pawn is taken.
    fen = "4k2q/8/8/3p4/8/8/3Q4/4K3 w - - 0 1"
    base = static(fen)
    assert qsearch(fen, base + 400, base + 500) == (base, 1)
    score, nodes = qsearch(fen, base + 10, base + 500)
    assert nodes >= 2 and score > base + 10


def test_in_check_at_the_first_ply_every_evasion_is_searched():
    # Black is in check and may not stand pat, though no capture helps: its
    # score is that of the best king move, each of which then stands pat.
    score, nodes = qsearch("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1")
    after = [-static("%s/8/8/8/8/4R3/4K3 w - - 1 2" % rank)
             for rank in ("3k4/8", "5k2/8", "8/3k4", "8/5k2")]
    assert (score, nodes) == (max(after), 5)
    # Here standing pat would not see the queen lost to the fork.
    fen = "q3k3/2N5/8/8/8/8/8/4K3 b - - 0 1"
    assert qsearch(fen)[0] < static(fen) - 500


def test_below_the_first_ply_a_check_is_not_answered_but_stood_pat():
    # Rxa8 mates, but quiescence lets Black stand pat after it (the cost of
    # evasions at every ply); the search's check extension sees the mate.
    fen = "r5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    assert qsearch(fen) == (-static("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), 2)
    search = Search(HASH_KB)
    assert search.think(Game("chess960", fen), Limits(depth=1))[1] == MATE - 1


def test_a_mate_on_the_horizon_is_seen():
    # Back-rank mate: Black to move, checkmated.
    fen = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"
    assert qsearch(fen)[0] == -MATE
    # A stalemate is not a mate (and quiescence does not claim to see it).
    fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    assert qsearch(fen)[0] > -MATE + 100


def test_lrs_a_king_left_to_be_taken_is_taken():
    assert qsearch("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", rules="lrs") == (MATE - 1, 2)

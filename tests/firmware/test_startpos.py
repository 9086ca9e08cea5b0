"""Start positions: the SP table, die rolls, random set-ups and rule sets."""
from micro960.position import Position
from micro960.rules import Rules
from micro960.startpos import (
    backrank, lrs_rank, random_sp, shuffle_rank, sp_from_dice, sp_number, start_fen,
)

from support import raises, tsv_rows


def test_all_960_rows_of_the_reference_table():
    count = 0
    for sp, rank, xfen, shredder in tsv_rows("sp960.tsv"):
        sp = int(sp)
        assert backrank(sp) == rank
        assert sp_number(rank) == sp
        assert start_fen(rank) == xfen
        assert Position(xfen).fen(shredder=True) == shredder
        count += 1
    assert count == 960


def test_die_rolls_with_rerolls():
    # dark bishop 1 (a1), light bishop 2 (d1) after re-rolling 6, queen 3,
    # knight 4 after re-rolling 6, knight 1 after re-rolling 5.
    assert backrank(sp_from_dice([5, 1, 6, 2, 3, 6, 4, 5, 1])) == "BNRBQKNR"
    assert raises(ValueError, sp_from_dice, [1, 2, 3])
    assert raises(ValueError, sp_from_dice, [1, 2, 7, 1, 1])


def test_random_sp_covers_the_range():
    seen = set(random_sp() for _ in range(400))
    assert all(0 <= sp <= 959 for sp in seen)
    assert len(seen) > 300


def test_bad_back_ranks():
    for rank in ("RNBQKBNX", "RNBQKBN", "RKRQNNBBR", "RBNQKBNR", "KRRNNQBB"):
        assert raises(ValueError, sp_number, rank), rank
    assert raises(ValueError, backrank, 960)
    assert raises(ValueError, backrank, -1)


def test_rule_sets():
    assert Rules("classical").start_fen().startswith("rnbqkbnr/")
    assert raises(ValueError, Rules("classical").start_fen, 3)
    fen = Rules("double960").start_fen(0, 959)
    assert fen.split()[0] == "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
    Position(fen)  # each side castles with its own rooks
    ranks = set(shuffle_rank(i) for i in range(18))
    assert len(ranks) == 18
    for rank in ranks:
        assert rank[0] == "R" and rank[4] == "K" and rank[7] == "R"
        assert sp_number(rank) >= 0  # bishops on opposite colours
    assert len(set(lrs_rank(i) for i in range(0, 5040, 53))) == 96
    assert Rules("lrs").start_fen().split()[2] == "-"
    assert raises(ValueError, Rules, "atomic")

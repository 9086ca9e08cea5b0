"""Start positions: the SP table, die rolls, random set-ups and rule sets."""
from micro960.rules.position import Position
from micro960.rules.startpos import (
    backrank, random_sp, sp_from_dice, sp_number, start_fen,
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

"""The mop-up: how the search scores where a bare king can be mated.

The network (engine/network.py), trained on games, has scarcely seen a bare
king against a rook, a queen or two bishops, and wanders there. Where the
search's root has such a position (search.bare_king_to_mate), Search.think
scores by score() below instead of the network's: a position with a bare
king scores 1000 for the other side, plus 20 for each step the bare king
stands from the centre and 10 for each the kings come closer, what mates
it within fifty moves. Other positions of such a search (the bare king took
the last piece) are the network's.

The search loads this module only then: the rest of the time a board's heap
is spared its code.
"""
from micro960.compat import const, micropython, ptr8  # noqa: F401
from micro960.engine.network import score as net_score
from micro960.rules.position import TO64

_WHITE = const(8)  # rules/position.py's WHITE (viper code needs its own)


@micropython.viper
def score(acc, rows8, rows, shape, pending, ply: int, side: int, counts_obj, kings_obj) -> int:
    """The side to move's score in centipawns, as network.score takes and
    gives it: the mop-up's (above) where a side has a bare king, else the
    network's."""
    counts = ptr8(counts_obj)
    kings = ptr8(kings_obj)
    if (int(counts[0]) == 1 or int(counts[1]) == 1) and int(kings[0]) and int(kings[1]) and \
            int(counts[0]) + int(counts[1]) > 2:
        to64 = ptr8(TO64)
        white = int(to64[kings[0]])
        black = int(to64[kings[1]])
        weak = black if int(counts[1]) == 1 else white
        f = weak & 7
        r = weak >> 3
        edge = (3 - f if f < 4 else f - 4) + (3 - r if r < 4 else r - 4)
        df = (white & 7) - (black & 7)
        dr = (white >> 3) - (black >> 3)
        near = (df if df > 0 else -df) + (dr if dr > 0 else -dr)
        bonus = 1000 + 20 * edge + 10 * (14 - near)
        if weak == black:  # White drives
            return bonus if side == _WHITE else -bonus
        return -bonus if side == _WHITE else bonus
    return int(net_score(acc, rows8, rows, shape, pending, ply, side, counts_obj, kings_obj))

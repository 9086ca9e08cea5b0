"""Static exchange evaluation: does a move win at least `threshold` on its
destination square, when both sides then capture there in turn, each with
its least valuable piece, and either may stop when going on would lose?

The search asks it to put captures that lose material after the others, to
skip them in quiescence, and to skip quiet moves near the leaves that put a
piece where it is simply lost. Pieces that have captured are lifted off the
board while it counts, so a rook behind a rook joins in (x-rays), and are put
back before it returns.
"""
from micro960.compat import const, micropython, ptr8, ptr16, zeros  # noqa: F401
from micro960.rules.position import STEPS, TO120

_CASTLE = const(3)  # rules/position.py's move flags, as constants for viper code
_EN_PASSANT = const(2)
_PROMOTE_N = const(4)
_WHITE = const(8)  # rules/position.py's WHITE and BOTH
_BOTH = const(24)

# Piece values (pawn .. king), for SEE, capture order and pruning in
# quiescence. The king's is so high that SEE never lets it capture onto a
# guarded square; in LRS, where it can be captured, it is what it is worth.
VALUES = zeros("H", 8)
for _kind, _value in enumerate((0, 100, 320, 330, 500, 950, 4000)):
    VALUES[_kind] = _value


@micropython.viper
def see_ge(board_obj, move: int, threshold: int, lifted_obj) -> bool:
    """Does `move` (by the side whose piece stands on its from-square) win
    at least `threshold` centipawns by static exchange? Castling counts as
    winning nothing, a promotion as winning at least anything. `lifted_obj`
    is the position's Position.lifted: the squares lifted off the board
    during the exchange, to put back (each search thread its own)."""
    flag = move >> 12
    if flag == _CASTLE:
        return threshold <= 0
    if flag >= _PROMOTE_N:
        return True
    board = ptr8(board_obj)
    to120 = ptr8(TO120)
    value = ptr16(VALUES)
    fr = int(to120[move & 63])
    to = int(to120[(move >> 6) & 63])
    victim = 1 if flag == _EN_PASSANT else int(board[to]) & 7
    swap = int(value[victim]) - threshold
    if swap < 0:
        return False  # even keeping the victim falls short
    mover = int(board[fr])
    swap = int(value[mover & 7]) - swap
    if swap <= 0:
        return True  # even losing the mover still reaches the threshold
    lifted = ptr8(lifted_obj)
    lifted[0] = fr
    lifted[1] = mover
    count = 1
    board[fr] = 0
    side = (mover & _BOTH) ^ _BOTH  # whose turn it is to capture on `to`
    result = 1  # 1: the threshold is met if the side to capture now stops
    while True:
        sq = int(_least_attacker(board_obj, to, side))
        if not sq:
            break
        piece = int(board[sq])
        result ^= 1
        swap = int(value[piece & 7]) - swap
        if swap < result:
            break
        lifted[2 * count] = sq
        lifted[2 * count + 1] = piece
        count += 1
        board[sq] = 0
        side ^= 24
    while count:
        count -= 1
        board[int(lifted[2 * count])] = lifted[2 * count + 1]
    return bool(result)


@micropython.viper
def _least_attacker(board_obj, sq: int, by: int) -> int:
    """The square of side `by`'s least valuable piece attacking `sq`, or 0."""
    b = ptr8(board_obj)
    if by == _WHITE:
        if b[sq - 9] == 9:
            return sq - 9
        if b[sq - 11] == 9:
            return sq - 11
    else:
        if b[sq + 9] == 17:
            return sq + 9
        if b[sq + 11] == 17:
            return sq + 11
    steps = ptr8(STEPS)
    knight = by | 2
    for i in range(8):
        s = sq + int(steps[i]) - 32
        if b[s] == knight:
            return s
    queen = 0
    king = 0
    rook = 0
    for i in range(8, 16):
        d = int(steps[i]) - 32
        s = sq + d
        t = int(b[s])
        if t == by | 6:
            king = s
        while t == 0:
            s += d
            t = int(b[s])
        if t == by | 5:
            queen = s
        elif i < 12 and t == by | 3:
            return s  # a bishop: nothing cheaper is left
        elif i >= 12 and t == by | 4:
            rook = s
    if rook:
        return rook
    if queen:
        return queen
    return king

"""The hand-written evaluation, which the engine used before engine/network.py:
host_tools/nnue/validate.py compares it with the network against Stockfish.
(It runs on the firmware's rules and compat on CPython; no board has it.)

Static evaluation: tapered material and piece-square values, mobility,
bishop pair, pawn structure (passed pawns by the kings' distance to the
square in front in the endgame), rooks on open files, king safety (pieces
bearing on the squares round the king, shelter pawns, open files beside
it), castling rights, mop-up.

Nothing assumes a start position: the piece-square values reward central
pieces, advanced pawns and a sheltered king wherever the pieces began.
The scoring loop is one viper function over the piece lists; on CPython the
same source runs as plain Python.
"""
from micro960.compat import const, micropython, ptr8, ptr16, zeros  # noqa: F401
from micro960.rules.position import RIGHTS, SIDE, STEPS, TO64, WHITE

_BIAS = const(4096)  # table values are stored + _BIAS as unsigned 16-bit
_EG = const(384)  # endgame values follow the 6 x 64 middlegame values



def _value(kind, file, rank):
    """(middlegame, endgame) value of a white piece on a square."""
    centre = min(file, 7 - file) + min(rank, 7 - rank)  # 0 at the corners, 6 in the middle
    if kind == 1:
        advance = (0, 0, 2, 6, 12, 20, 40, 0)[rank]
        mg = 85 + advance + (10 if file in (3, 4) and 2 <= rank <= 4 else 0)
        return mg, 110 + (0, 0, 5, 12, 22, 38, 60, 0)[rank]
    if kind == 2:
        return 300 + 8 * centre, 285 + 6 * centre
    if kind == 3:
        return 320 + 5 * centre, 300 + 4 * centre
    if kind == 4:
        return 470 + (15 if rank == 6 else 0) + (4 if file in (3, 4) else 0), \
            510 + (8 if rank == 6 else 0)
    if kind == 5:
        return 960 + 2 * centre, 950 + 5 * centre
    # King: sheltered on its back rank away from the centre in the middlegame,
    # active in the centre in the endgame.
    mg = (0, -15, -30, -45, -55, -60, -60, -60)[rank] - (15 if file in (3, 4) else 0)
    return mg, 12 * centre - 30


def _tables(value):
    """TABLE from value(kind, file, rank), by (kind - 1, square): a black
    piece looks up its square mirrored (square ^ 56)."""
    table = zeros("H", 2 * _EG)
    for kind in range(1, 7):
        for sq in range(64):
            mg, eg = value(kind, sq & 7, sq >> 3)
            table[((kind - 1) << 6) | sq] = mg + _BIAS
            table[_EG + (((kind - 1) << 6) | sq)] = eg + _BIAS
    return table


TABLE = _tables(_value)
del _tables, _value  # run once: their code need not stay in the heap
# King safety: ZONE[to - king + 80] is 1 when square `to` is the king's square
# or one of its eight neighbours (every difference of two squares, or of a
# square and 0 for a missing LRS king, falls inside it).
ZONE = bytes(1 if -11 <= d <= 11 and d % 10 in (0, 1, 9) else 0 for d in range(-80, 120))
# The scoring loop's constants and work space, in one buffer it reaches as a
# pointer (a bytes global would cost a lookup at each use). At these offsets:
_PHASE = const(0)  # the game-phase weight by piece type (24: all pieces on)
_PAWNS = const(8)  # per file White's pawn count, then Black's
_HINDMOST = const(24)  # per file the rank of White's hindmost pawn, then Black's
#                       (counted from Black's side); 8: no pawn
_PASSED_MG = const(40)  # passed pawn bonus by rank from the pawn's side
_PASSED_EG = const(48)
_ATTACK_UNITS = const(56)  # by kind, for each square next to the enemy king it reaches
WORK = bytearray(b"\x00\x00\x01\x01\x02\x04\x00\x00" + bytes(32) +
                 b"\x00\x05\x0a\x0f\x1e\x32\x50\x00" +
                 b"\x00\x0a\x14\x23\x3c\x64\x96\x00" +
                 b"\x00\x00\x02\x02\x03\x05\x00\x00")


@micropython.viper
def white_score(board: ptr8, squares: ptr8, counts: ptr8, kings: ptr8, to64: ptr8,
           table: ptr16, work: ptr8, rights: int) -> int:
    """Score from White's point of view, in centipawns.

    Each side's terms are summed from its own side of the board (a black
    piece's square mirrored, ranks counted from Black's side) into ours_mg
    and ours_eg, which then count for White or against.
    """
    mg = 0
    eg = 0
    phase = 0
    for f in range(8):
        work[_PAWNS + f] = 0
        work[_PAWNS + 8 + f] = 0
        work[_HINDMOST + f] = 8
        work[_HINDMOST + 8 + f] = 8
    # Material and place, and where the pawns are.
    for c in range(2):
        mirror = 56 * c  # square ^ mirror: the square seen from this side
        pawns = _PAWNS + 8 * c
        hindmost = _HINDMOST + 8 * c
        ours_mg = 0
        ours_eg = 0
        bishops = 0
        for i in range(16 * c, 16 * c + int(counts[c])):
            sq = int(squares[i])
            kind = int(board[sq]) & 7
            s = int(to64[sq]) ^ mirror
            index = ((kind - 1) << 6) | s
            ours_mg += int(table[index]) - _BIAS
            ours_eg += int(table[_EG + index]) - _BIAS
            if kind == 1:
                work[pawns + (s & 7)] += 1
                if (s >> 3) < int(work[hindmost + (s & 7)]):
                    work[hindmost + (s & 7)] = s >> 3
            elif kind == 3:
                bishops += 1
            phase += int(work[_PHASE + kind])
        if bishops >= 2:
            ours_mg += 30
            ours_eg += 50
        mg += (1 - 2 * c) * ours_mg  # for White, against for Black
        eg += (1 - 2 * c) * ours_eg
    steps = ptr8(STEPS)
    zone = ptr8(ZONE)
    for c in range(2):
        own = 8 + 8 * c
        mirror = 56 * c
        pawns = _PAWNS + 8 * c
        their_pawns = _PAWNS + 8 - 8 * c
        their_hindmost = _HINDMOST + 8 - 8 * c
        king = int(kings[c])
        their_king = int(kings[1 - c])
        ahead = 8 - 16 * c  # the square in front, on the 64-square board
        ours_mg = 0
        ours_eg = 0
        units = 0  # attack units against their king
        attackers = 0
        for i in range(16 * c, 16 * c + int(counts[c])):
            sq = int(squares[i])
            kind = int(board[sq]) & 7
            if kind == 1:
                s = int(to64[sq])
                f = s & 7
                r = (s ^ mirror) >> 3
                passed = 1
                for g in range(f - 1, f + 2):
                    if g >= 0 and g <= 7 and int(work[their_hindmost + g]) < 7 - r:
                        passed = 0
                if passed:
                    ours_mg += int(work[_PASSED_MG + r])
                    ours_eg += int(work[_PASSED_EG + r])
                    if r >= 3 and their_king:
                        # The square in front: the enemy king far from it, ours near.
                        ours_eg += (5 * int(_distance(int(to64[their_king]), s + ahead)) -
                                    2 * int(_distance(int(to64[king]), s + ahead))) * (r - 2)
                continue
            if kind == 6:
                continue
            if kind == 4:  # a rook on a file without pawns of its side
                f = int(to64[sq]) & 7
                if not int(work[pawns + f]):
                    ours_mg += 10 if int(work[their_pawns + f]) else 20
                    ours_eg += 5 if int(work[their_pawns + f]) else 10
            # Mobility: the squares a knight, bishop, rook or queen reaches,
            # against a typical count, so the sum stays near zero in quiet
            # positions; those next to their king count towards an attack.
            count = 0
            hits = 0
            if kind == 2:
                for k in range(8):
                    to = sq + int(steps[k]) - 32
                    if not (int(board[to]) & own):
                        count += 1
                        if zone[to - their_king + 80]:
                            hits += 1
                gain_mg = 4 * (count - 4)
                gain_eg = gain_mg
            else:
                first = 12 if kind == 4 else 8
                last = 12 if kind == 3 else 16
                for k in range(first, last):
                    d = int(steps[k]) - 32
                    to = sq + d
                    t = int(board[to])
                    while t == 0:
                        count += 1
                        if zone[to - their_king + 80]:
                            hits += 1
                        to += d
                        t = int(board[to])
                    if not (t & own):
                        count += 1
                        if zone[to - their_king + 80]:
                            hits += 1
                if kind == 3:
                    gain_mg = 5 * (count - 7)
                    gain_eg = gain_mg
                elif kind == 4:
                    gain_mg = 2 * (count - 7)
                    gain_eg = 4 * (count - 7)
                else:
                    gain_mg = count - 14
                    gain_eg = 2 * (count - 14)
            ours_mg += gain_mg
            ours_eg += gain_eg
            if hits:
                attackers += 1
                units += hits * int(work[_ATTACK_UNITS + kind])
        # King safety: two or more pieces bearing on the squares around their
        # king are a danger that grows with the square of their weight.
        if attackers >= 2:
            danger = units * units // 6
            ours_mg += danger if danger < 400 else 400
        # Pawn structure: doubled and isolated pawns.
        for f in range(8):
            n = int(work[pawns + f])
            if n > 1:
                ours_mg -= 10 * (n - 1)
                ours_eg -= 20 * (n - 1)
            left = int(work[pawns - 1 + f]) if f > 0 else 0
            right = int(work[pawns + 1 + f]) if f < 7 else 0
            if n and not left and not right:
                ours_mg -= 10 * n
                ours_eg -= 12 * n
        # The king's shelter: no open file beside it, pawns in front of it.
        if king:
            f = int(to64[king]) & 7
            for g in range(f - 1, f + 2):
                if g >= 0 and g <= 7 and not int(work[pawns + g]):
                    ours_mg -= 10 if int(work[their_pawns + g]) else 20
            if (int(to64[king]) ^ mirror) < 16:  # on its first two ranks
                for d in range(9, 12):
                    if int(board[king + d - 20 * c]) == own | 1:
                        ours_mg += 10
        mg += (1 - 2 * c) * ours_mg  # for White, against for Black
        eg += (1 - 2 * c) * ours_eg
    white_count = int(counts[0])
    black_count = int(counts[1])
    wk = int(kings[0])
    bk = int(kings[1])
    # Castling rights are worth keeping while the king is still at home.
    if rights & 3:
        mg += 12
    if rights & 12:
        mg -= 12
    # Mop-up: drive a bare king to the edge and bring the other king close.
    if wk and bk and (white_count == 1 or black_count == 1):
        ws = int(to64[wk])
        bs = int(to64[bk])
        dist = (ws & 7) - (bs & 7)
        if dist < 0:
            dist = -dist
        rd = (ws >> 3) - (bs >> 3)
        if rd < 0:
            rd = -rd
        dist += rd
        if black_count == 1 and white_count > 1:
            weak = bs
            sign = 1
        elif white_count == 1 and black_count > 1:
            weak = ws
            sign = -1
        else:
            sign = 0
            weak = 0
        if sign:
            f = weak & 7
            r = weak >> 3
            edge = (3 - f if f < 4 else f - 4) + (3 - r if r < 4 else r - 4)
            eg += sign * (20 * edge + 10 * (14 - dist))
    if phase > 24:
        phase = 24
    # (mg * phase + eg * (24 - phase)) / 24, rounded down on both runtimes.
    return ((mg * phase + eg * (24 - phase)) * 2731) >> 16


@micropython.viper
def _distance(a: int, b: int) -> int:
    """King moves between two squares (0-63)."""
    df = (a & 7) - (b & 7)
    if df < 0:
        df = -df
    dr = (a >> 3) - (b >> 3)
    if dr < 0:
        dr = -dr
    return df if df > dr else dr


def evaluate(pos):
    """Score of the position for the side to move, in centipawns."""
    state = pos.state
    score = white_score(pos.board, pos.squares, pos.counts, pos.kings, TO64, TABLE, WORK,
                   state[RIGHTS])
    return score if state[SIDE] == WHITE else -score

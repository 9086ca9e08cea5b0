"""Static evaluation: tapered material and piece-square values, mobility,
bishop pair, pawn structure (passed pawns by the kings' distance to the
square in front in the endgame), rooks on open files, king safety (pieces
bearing on the squares round the king, shelter pawns, open files beside
it), castling rights, mop-up.

Nothing assumes a start position: the piece-square values reward central
pieces, advanced pawns and a sheltered king wherever the pieces began.
The scoring loop is one viper function over the piece lists; on CPython the
same source runs as plain Python.
"""
from .compat import const, micropython, ptr8, ptr16, zeros  # noqa: F401
from .position import RIGHTS, SIDE, STEPS, TO64, WHITE

BIAS = const(4096)  # table values are stored + BIAS as unsigned 16-bit
EG = const(384)  # endgame values follow the 6 x 64 middlegame values

PASSED_MG = b"\x00\x05\x0a\x0f\x1e\x32\x50\x00"  # by rank from the pawn's side
PASSED_EG = b"\x00\x0a\x14\x23\x3c\x64\x96\x00"


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
    table = zeros("H", 2 * EG)
    for kind in range(1, 7):
        for sq in range(64):
            mg, eg = value(kind, sq & 7, sq >> 3)
            table[((kind - 1) << 6) | sq] = mg + BIAS
            table[EG + (((kind - 1) << 6) | sq)] = eg + BIAS
    return table


TABLE = _tables(_value)
del _tables, _value  # run once: their code need not stay in the heap
# Work space for the scoring loop: the game-phase weight of each piece type
# (24 with all pieces on, 0 with only kings and pawns), then per file the
# white and black pawn counts, the lowest white and highest black pawn rank.
WORK = bytearray(b"\x00\x00\x01\x01\x02\x04\x00\x00" + bytes(32))
# King safety: ZONE[to - king + 80] is 1 when square `to` is the king's square
# or one of its eight neighbours (every difference of two squares, or of a
# square and 0 for a missing LRS king, falls inside it); an attacker earns
# ATTACK_UNITS[kind] per zone square it reaches.
ZONE = bytes(1 if -11 <= d <= 11 and d % 10 in (0, 1, 9) else 0 for d in range(-80, 120))
ATTACK_UNITS = b"\x00\x00\x02\x02\x03\x05\x00\x00"


@micropython.viper
def white_score(board: ptr8, squares: ptr8, counts: ptr8, kings: ptr8, to64: ptr8,
           table: ptr16, work: ptr8, rights: int) -> int:
    """Score from White's point of view, in centipawns."""
    mg = 0
    eg = 0
    phase = 0
    white_bishops = 0
    black_bishops = 0
    for f in range(8):
        work[8 + f] = 0  # white pawns on file f
        work[16 + f] = 0  # black pawns
        work[24 + f] = 8  # lowest white pawn rank, 8 = none
        work[32 + f] = 0  # highest black pawn rank + 1, 0 = none
    white_count = int(counts[0])
    black_count = int(counts[1])
    for i in range(white_count):
        sq = int(squares[i])
        p = int(board[sq])
        s = int(to64[sq])
        index = ((p - 9) << 6) | s
        mg += int(table[index]) - BIAS
        eg += int(table[EG + index]) - BIAS
        kind = p & 7
        if kind == 1:
            work[8 + (s & 7)] += 1
            if (s >> 3) < int(work[24 + (s & 7)]):
                work[24 + (s & 7)] = s >> 3
        elif kind == 3:
            white_bishops += 1
        phase += int(work[kind])
    for i in range(16, 16 + black_count):
        sq = int(squares[i])
        p = int(board[sq])
        s = int(to64[sq])
        index = ((p - 17) << 6) | (s ^ 56)  # as the white piece on the mirrored square
        mg -= int(table[index]) - BIAS
        eg -= int(table[EG + index]) - BIAS
        kind = p & 7
        if kind == 1:
            work[16 + (s & 7)] += 1
            if (s >> 3) + 1 > int(work[32 + (s & 7)]):
                work[32 + (s & 7)] = (s >> 3) + 1
        elif kind == 3:
            black_bishops += 1
        phase += int(work[kind])
    # Mobility: squares each knight, bishop, rook and queen reaches, against a
    # typical count, so the sum stays near zero in quiet positions.
    steps = ptr8(STEPS)
    zone = ptr8(ZONE)
    wk = int(kings[0])
    bk = int(kings[1])
    white_units = 0  # attack units against the black king
    black_units = 0
    white_attackers = 0
    black_attackers = 0
    for i in range(32):
        if i < 16:
            if i >= white_count:
                continue
            own = 8
            enemy_king = bk - 80
        elif i >= 16 + black_count:
            break
        else:
            own = 16
            enemy_king = wk - 80
        sq = int(squares[i])
        kind = int(board[sq]) & 7
        if kind < 2 or kind > 5:
            continue
        count = 0
        hits = 0
        if kind == 2:
            for k in range(8):
                to = sq + int(steps[k]) - 32
                if not (int(board[to]) & own):
                    count += 1
                    if zone[to - enemy_king]:
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
                    if zone[to - enemy_king]:
                        hits += 1
                    to += d
                    t = int(board[to])
                if not (t & own):
                    count += 1
                    if zone[to - enemy_king]:
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
        if own == 8:
            mg += gain_mg
            eg += gain_eg
            if hits:
                white_attackers += 1
                white_units += hits * int(ATTACK_UNITS[kind])
        else:
            mg -= gain_mg
            eg -= gain_eg
            if hits:
                black_attackers += 1
                black_units += hits * int(ATTACK_UNITS[kind])
    # King safety: two or more pieces bearing on the squares around a king
    # are a danger that grows with the square of their weight.
    if white_attackers >= 2:
        danger = white_units * white_units // 6
        mg += danger if danger < 400 else 400
    if black_attackers >= 2:
        danger = black_units * black_units // 6
        mg -= danger if danger < 400 else 400
    if white_bishops >= 2:
        mg += 30
        eg += 50
    if black_bishops >= 2:
        mg -= 30
        eg -= 50
    # Pawn structure, and rooks on open files.
    for f in range(8):
        w = int(work[8 + f])
        b = int(work[16 + f])
        if w > 1:
            mg -= 10 * (w - 1)
            eg -= 20 * (w - 1)
        if b > 1:
            mg += 10 * (b - 1)
            eg += 20 * (b - 1)
        left = int(work[7 + f]) if f > 0 else 0
        right = int(work[9 + f]) if f < 7 else 0
        if w and not left and not right:
            mg -= 10 * w
            eg -= 12 * w
        left = int(work[15 + f]) if f > 0 else 0
        right = int(work[17 + f]) if f < 7 else 0
        if b and not left and not right:
            mg += 10 * b
            eg += 12 * b
    for i in range(white_count):
        sq = int(squares[i])
        kind = int(board[sq]) & 7
        s = int(to64[sq])
        f = s & 7
        r = s >> 3
        if kind == 1:
            passed = 1
            for g in range(f - 1, f + 2):
                if g >= 0 and g <= 7 and int(work[32 + g]) > r + 1:
                    passed = 0
            if passed:
                mg += int(PASSED_MG[r])
                eg += int(PASSED_EG[r])
                if r >= 3 and bk:
                    # The square in front: the enemy king far from it, ours near.
                    eg += (5 * int(_distance(int(to64[bk]), s + 8)) -
                           2 * int(_distance(int(to64[wk]), s + 8))) * (r - 2)
        elif kind == 4:
            if not int(work[8 + f]):
                mg += 10 if int(work[16 + f]) else 20
                eg += 5 if int(work[16 + f]) else 10
    for i in range(16, 16 + black_count):
        sq = int(squares[i])
        kind = int(board[sq]) & 7
        s = int(to64[sq])
        f = s & 7
        r = s >> 3
        if kind == 1:
            passed = 1
            for g in range(f - 1, f + 2):
                if g >= 0 and g <= 7 and int(work[24 + g]) < r:
                    passed = 0
            if passed:
                mg -= int(PASSED_MG[7 - r])
                eg -= int(PASSED_EG[7 - r])
                if r <= 4 and wk:
                    eg -= (5 * int(_distance(int(to64[wk]), s - 8)) -
                           2 * int(_distance(int(to64[bk]), s - 8))) * (5 - r)
        elif kind == 4:
            if not int(work[16 + f]):
                mg -= 10 if int(work[8 + f]) else 20
                eg -= 5 if int(work[8 + f]) else 10
    # King shelter: own pawns on the three squares in front of a king at home,
    # and no open file beside it.
    if wk:
        f = int(to64[wk]) & 7
        for g in range(f - 1, f + 2):
            if g >= 0 and g <= 7 and not int(work[8 + g]):
                mg -= 10 if int(work[16 + g]) else 20
    if bk:
        f = int(to64[bk]) & 7
        for g in range(f - 1, f + 2):
            if g >= 0 and g <= 7 and not int(work[16 + g]):
                mg += 10 if int(work[8 + g]) else 20
    if wk and wk < 39:
        for d in range(9, 12):
            if int(board[wk + d]) == 9:
                mg += 10
    if bk and bk > 80:
        for d in range(9, 12):
            if int(board[bk - d]) == 17:
                mg -= 10
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

"""Move ordering: the order in which the search tries a node's moves.

The hash move first, then captures by most valuable victim and least valuable
attacker, queen promotions, the two killer moves of the ply, the counter move
(the quiet move that last refuted the opponent's move), and the quiet moves
by their history score; in the main search, a capture that loses
material by static exchange (engine/see.py) goes among the quiet moves of little
history. order_moves, a viper loop over the move buffer, scores every move
once; the search's loops (engine/search.py, engine/quiescence.py) take the best remaining
one when they need it, so a node cut off early sorts little.
"""
from micro960.compat import const, micropython, ptr8, ptr16  # noqa: F401
from micro960.rules.position import TO64, TO120
from micro960.engine.see import VALUES, see_ge

_HASH_MOVE = const(30000)
_CAPTURE = const(20000)
KILLER = const(15000)  # the second killer scores KILLER - 1, the counter move KILLER - 2
HISTORY_MAX = const(14000)  # quiet moves score their history, below the killers
_CASTLE = const(3)  # rules/position.py's move flags, as constants for viper code
_EN_PASSANT = const(2)
_PROMOTE_N = const(4)
_PROMOTE_Q = const(7)


@micropython.viper
def order_moves(board_obj, moves: ptr16, order: ptr16, start: int, end: int,
                hash_move: int, killer1: int, killer2: int, counter: int, history: ptr16,
                guarded: int, lifted):
    """Give each move an ordering score: hash move, captures by most valuable
    victim and then least valuable attacker, promotions, killers, the counter
    move, history.
    With `guarded`, a capture that loses material by static exchange goes
    after the killers and good quiet moves (`lifted`: see_ge's scratch)."""
    board = ptr8(board_obj)
    to120 = ptr8(TO120)
    to64 = ptr8(TO64)
    value = ptr16(VALUES)
    for i in range(start, end):
        move = int(moves[i])
        if move == hash_move:
            order[i] = _HASH_MOVE
            continue
        fr = int(to120[move & 63])
        to = int(to120[(move >> 6) & 63])
        flag = move >> 12
        victim = int(board[to]) & 7
        if flag == _CASTLE:
            victim = 0
        elif flag == _EN_PASSANT:
            victim = 1
        if victim:
            piece = int(board[fr])
            score = _CAPTURE + int(value[victim]) - (piece & 7)
            if flag == _PROMOTE_Q:
                score += 900
            elif guarded and int(value[piece & 7]) > int(value[victim]) and \
                    not see_ge(board_obj, move, 0, lifted):
                score = int(value[victim]) >> 3
            order[i] = score
        elif flag == _PROMOTE_Q:
            order[i] = _CAPTURE + 800
        elif move == killer1:
            order[i] = KILLER
        elif move == killer2:
            order[i] = KILLER - 1
        elif move == counter:
            order[i] = KILLER - 2
        else:
            piece = int(board[fr])
            order[i] = history[((piece - 9 - ((piece >> 3) & 2)) << 6) | int(to64[to])]


@micropython.viper
def record_cut(board: ptr8, moves: ptr16, killers: ptr16, history: ptr16, start: int, cut: int,
               depth: int, ply: int):
    """The quiet move moves[cut] caused a cut at `ply`, `depth` deep: remember
    it as the ply's first killer and raise its history score (by piece and
    destination); lower those of the quiet moves of moves[start:cut], tried
    before it in vain."""
    to120 = ptr8(TO120)
    to64 = ptr8(TO64)
    move = int(moves[cut])
    if int(killers[2 * ply]) != move:
        killers[2 * ply + 1] = killers[2 * ply]
        killers[2 * ply] = move
    bonus = depth * depth
    for i in range(cut, start - 1, -1):  # the cut move, then the ones before it
        move = int(moves[i])
        flag = move >> 12
        if flag == _CASTLE or flag == _EN_PASSANT or flag >= _PROMOTE_N:
            continue
        to = int(to120[(move >> 6) & 63])
        if board[to]:
            continue
        piece = int(board[int(to120[move & 63])])
        index = ((piece - 9 - ((piece >> 3) & 2)) << 6) | int(to64[to])
        value = int(history[index])
        if i == cut:
            value += bonus
            history[index] = value if value < HISTORY_MAX else HISTORY_MAX
        else:
            value -= bonus
            history[index] = value if value > 0 else 0


@micropython.viper
def age_history(history: ptr16):
    """Quarter every history score: a new search starts from what the last
    one learnt, at a quarter of its weight. (A viper loop: as a Python loop
    over its 768 entries it took some 7 ms of every move at a Pico's speed.)"""
    for i in range(12 * 64):
        history[i] = history[i] >> 2

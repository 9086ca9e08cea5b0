"""Quiescence search: captures and promotions until the position is quiet.

Most of the nodes the engine visits are here, so it is one viper loop rather
than a recursive Python function. MicroPython gives a Python function with
many locals a frame on the heap, and finding a free run of heap for it on
every call cost a quarter of the engine's time; a recursive call also takes C
stack, of which the Pico has only 8 KB. The loop keeps each ply's state in a
preallocated frame array instead, so the whole quiescence tree costs one call
and no stack. On CPython the same source runs as plain Python (compat.viper).
"""
from micro960.compat import const, micropython, ptr8, ptr16, ptr32, stack_use  # noqa: F401
from micro960.rules.movegen import generate
from micro960.engine.ordering import order_moves
from micro960.rules.position import pop_move, push_move, attacked
from micro960.engine.see import see_ge

_MATE = const(30000)
_INFINITE = const(32000)
_MAX_PLY = const(32)  # as in engine/search.py
_CHECK_MASK = const(15)  # search.CHECK_MASK: limits and input every 16 nodes
_WHITE = const(8)  # rules/position.py's values, as constants for viper code
_BOTH = const(24)
_SIDE = const(0)  # rules/position.py's state fields, as constants for viper code
_EP = const(1)
_PLY = const(5)

# Each ply of the quiescence tree keeps its state in the fields below, in
# that ply's frame of Search.plies (search.FRAME fields a ply), which the
# tree search uses only for the plies above. Scores (within +-32000) are
# kept + _BIAS, since viper reads a ptr16 as unsigned.
_FRAME = const(17)  # search.FRAME
_BIAS = const(32768)
_ALPHA = const(0)
_BETA = const(1)
_BEST = const(2)
_NEXT = const(3)  # the next move to try, an index into the move buffer
_END = const(4)
_MOVE = const(5)  # the move being searched below this ply
_IN_CHECK = const(6)
_LEGAL = const(7)

_EN_PASSANT = const(2)
_PROMOTE_N = const(4)


@micropython.viper
def quiesce(search, alpha: int, beta: int, ply: int, start: int) -> int:
    """The score of search.pos for the side to move, searching captures and
    promotions (and, at this first ply, every evasion when in check, so a
    mate on the horizon is seen).

    Moves are generated into search.moves from `start`; nodes are counted
    in search.tally[0], and search.stopped (set by search.check_limits every
    16 nodes) unwinds the tree with a score of 0.

    The steps, numbered as "Step N" in the code: 1 a new node: count it,
    poll the limits; 2 its score without moves (a captured king, the ply
    limit, standing pat at or above beta); 3 generate and order its captures
    (every move in check at the first ply); 4 a child's score taken up: best,
    alpha, cut; 5 the next capture worth searching (delta pruning, SEE),
    made; 6 none left: mate, or the best score, to the parent.

    Each node keeps _ALPHA ... _LEGAL in its frame (the tree's frames from
    `ply` down, which the tree search does not use below its own nodes).
    `entering` says whether `ply` is a new node or takes up a child's score;
    `result` is _INFINITE while the node at `ply` still has moves to try.
    """
    # What the loop works on, in the tuple Search.at() made, named here
    # once: the position's buffers (rules/position.py), the search's move
    # buffer, its order scores and history, its frames (search.plies), how
    # a position is scored (Search.scoring: the network's score or the
    # mop-up's), the network's accumulators, rows and shape, whether
    # kings can be taken (LRS: 1) and promotions are to a queen only (2),
    # the move buffer's size, the square and piece-value tables, the node
    # tally and the position's scratch for static exchange. Reading 26
    # attributes instead took 78 us a call on a Pico (7% of the search).
    board_obj, state_obj, squares, counts_obj, kings_obj, slot, castle_mask, saved, en_passant, \
        moves_obj, order_obj, history, frame_obj, scoring, acc, rows, rows8, shape, pending, \
        hidden_obj, lrs_obj, queen_obj, room_obj, to120_obj, value_obj, tally_obj, lifted = search.q
    tally = ptr32(tally_obj)  # Search.tally: nodes, seldepth, stopped
    board = ptr8(board_obj)
    state = ptr32(state_obj)
    counts = ptr8(counts_obj)
    kings = ptr8(kings_obj)
    moves = ptr16(moves_obj)
    order = ptr16(order_obj)
    frame = ptr16(frame_obj)
    hidden = int(hidden_obj)
    to120 = ptr8(to120_obj)
    value = ptr16(value_obj)
    lrs = int(lrs_obj)
    queen_only = int(queen_obj)
    room = int(room_obj)
    nodes = tally[0]
    seldepth = tally[1]
    stopped = tally[2]
    first_ply = ply  # this call's first node; `ply` is the current node's
    evasions = 1
    result = 0
    entering = 1  # 1: a new node to set up; 0: a child's score in `result` to take up
    while True:
        if entering:
            # Step 1. A new node: alpha, beta and start are set for it.
            nodes += 1
            if (nodes & _CHECK_MASK) == 0:
                search.nodes = nodes
                search.check_limits()
                stopped = int(search.stopped)
                tally[2] = stopped
            entering = 0
            if stopped:
                result = 0
            else:
                result = _INFINITE
                # Step 2. Set up the new node's frame, or find its score if it needs no
                # search: a captured king, the ply limit, standing pat at or
                # above beta.
                us = state[_SIDE]
                king = int(kings[us >> 4])
                in_check = 0
                if lrs and not king:
                    result = -_MATE + ply  # our king was captured
                else:
                    if evasions and not lrs and attacked(board_obj, king, us ^ _BOTH):
                        in_check = 1
                    at_limit = ply >= _MAX_PLY - 1 or start + 256 > room
                    if in_check and not at_limit:
                        best = -_INFINITE  # no standing pat in check: every evasion is searched
                    else:
                        best = int(scoring(acc, rows8, rows, shape, pending, state[_PLY], us,
                                           counts_obj, kings_obj))
                        if at_limit or best >= beta:
                            result = best
                        elif best > alpha:
                            alpha = best
                if result == _INFINITE:
                    f = (ply) * _FRAME
                    frame[f + _ALPHA] = _BIAS + alpha
                    frame[f + _BETA] = _BIAS + beta
                    frame[f + _BEST] = _BIAS + best
                    frame[f + _IN_CHECK] = in_check
                    frame[f + _LEGAL] = 0
                if ply > seldepth:
                    seldepth = ply
                    used = int(stack_use())
                    if used > int(search.stack_peak):
                        search.stack_peak = used
                if result == _INFINITE:  # Step 3. Moves to search: generate them.
                    f = (ply) * _FRAME
                    us = state[_SIDE]
                    first = 16 if us != _WHITE else 0
                    end = int(generate(board_obj, squares, first, first + counts[us >> 4],
                                        moves_obj, start,
                                        us | frame[f + _IN_CHECK] | queen_only, state[_EP]))
                    order_moves(board_obj, moves_obj, order_obj, start, end, 0, 0, 0, 0, history, 0,
                                lifted)
                    frame[f + _NEXT] = start
                    frame[f + _END] = end
        else:
            # Step 4. Back at `ply` with a child's score, or with nothing yet (result
            # == _INFINITE after _enter): try the next move.
            f = (ply) * _FRAME
            if result != _INFINITE:
                pop_move(board_obj, squares, slot, counts_obj, kings_obj, state_obj, saved,
                         frame[f + _MOVE])
                if stopped:
                    result = 0
                else:
                    score = -result
                    result = _INFINITE
                    if score > frame[f + _BEST] - _BIAS:
                        frame[f + _BEST] = _BIAS + score
                        if score > frame[f + _ALPHA] - _BIAS:
                            frame[f + _ALPHA] = _BIAS + score
                            if score >= frame[f + _BETA] - _BIAS:
                                result = score  # a cut: this node is done
        if result == _INFINITE:
            # Step 5. Find the next move worth searching at `ply`, or finish the node.
            f = (ply) * _FRAME
            us = state[_SIDE]
            them = us ^ _BOTH
            in_check = frame[f + _IN_CHECK]
            best = frame[f + _BEST] - _BIAS
            i = frame[f + _NEXT]
            end = frame[f + _END]
            move = 0
            while i < end:
                # Pick the best-ordered remaining move and swap it to i.
                top = int(order[i])
                at = i
                for j in range(i + 1, end):
                    if int(order[j]) > top:
                        top = int(order[j])
                        at = j
                move = int(moves[at])
                if at != i:
                    moves[at] = moves[i]
                    moves[i] = move
                    order[at] = order[i]
                    order[i] = top
                i += 1
                if not in_check and move >> 12 != _EN_PASSANT and move >> 12 < _PROMOTE_N:
                    to = int(to120[(move >> 6) & 63])
                    victim = int(value[board[to] & 7])
                    if best + victim + 200 < frame[f + _ALPHA] - _BIAS:
                        move = 0
                        continue  # delta pruning: even winning it cannot reach alpha
                    if int(value[board[int(to120[move & 63])] & 7]) > victim and \
                            not see_ge(board_obj, move, 0, lifted):
                        move = 0
                        continue  # the exchange on that square loses material
                push_move(board_obj, squares, slot, counts_obj, kings_obj, castle_mask, state_obj,
                          saved, move, en_passant, pending, hidden)
                if not lrs and attacked(board_obj, kings[us >> 4], them):
                    pop_move(board_obj, squares, slot, counts_obj, kings_obj, state_obj, saved,
                             move)
                    move = 0
                    continue
                break
            frame[f + _NEXT] = i
            if move:
                frame[f + _MOVE] = move
                frame[f + _LEGAL] += 1
                alpha = -(frame[f + _BETA] - _BIAS)
                beta = -(frame[f + _ALPHA] - _BIAS)
                start = end
                evasions = 0
                ply += 1
                entering = 1
                continue
            if in_check and frame[f + _LEGAL] == 0:
                result = -_MATE + ply
            else:
                result = best
        # Step 6. This node is done with `result`: hand it to the parent.
        if ply == first_ply:
            break
        ply -= 1
    tally[0] = nodes
    tally[1] = seldepth
    return result

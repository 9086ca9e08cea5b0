"""The search: iterative deepening, principal-variation alpha-beta with
aspiration windows, quiescence, a transposition table, null-move pruning,
futility and late-move pruning, late-move reductions, internal iterative
reduction, killers and history. Where the static score is no better than two
plies before (the side to move is not "improving"), it prunes and reduces more.

Everything it needs per node lives in buffers made once, so searching
allocates nothing per node.
"""
import math
import random

from .compat import const, micropython, ptr32, ticks_diff, ticks_ms, zeros  # noqa: F401
from .evaluate import TABLE, WORK, white_score
from .movegen import gives_check, has_legal_move, legal_moves, pseudo_moves
from .ordering import age_history, order_moves, pick, punish_quiets, reward_cut
from .position import KING, PAWN, TO64, TO120, _pop, _push, attacked
from .quiescence import frames, quiesce
from .see import see_ge
from .tt import EXACT, LOWER, UPPER, TranspositionTable

MATE = const(30000)
INFINITE = const(32000)
# The deepest the search may go, plies from the root. Each ply is a nested
# call, 216 bytes of a Pico's 7,936-byte C stack; ten seconds of search in a
# middlegame reach about 3.7 KB (`micro960 bench --pico` reports the
# deepest). A line that runs out raises RuntimeError, and think() plays the
# last finished iteration's move.
MAX_PLY = const(32)
MATE_BOUND = const(29000)  # scores beyond this are mates
# The clock, the node limit and the input are looked at every 16 nodes
# (nodes & CHECK_MASK == 0; quiescence.py keeps the same). A Pico searches
# about 1,100 nodes a second (`micro960 bench --pico`, the emulated board's
# own clock), so that is every 15 ms or so, within the default Move Overhead
# of 30 ms: there `go movetime 500` answers after 485 ms. It costs the unix
# port about 1% of its UCI speed.
CHECK_MASK = const(15)
# Position.state's fields, move flags and ordering scores, as this module's
# own constants: MicroPython inlines them, where an imported name is looked up
# at every use.
_SIDE = const(0)
_RIGHTS = const(2)
_HALFMOVE = const(3)
_KEY = const(4)
_PLY = const(5)
_WHITE = const(8)
_BOTH = const(24)
_EN_PASSANT = const(2)
_PROMOTE_N = const(4)
_KILLER = const(15000)  # ordering.KILLER
# Late-move reductions by depth and move number: about 0.75 + ln(depth) *
# ln(moves) / 2.25 plies, as LMR_TABLE[depth * 32 + moves] (both capped).
LMR_TABLE = bytes(
    max(0, int(0.75 + math.log(max(d, 1)) * math.log(max(m, 1)) / 2.25)) for d in range(16)
    for m in range(32))


class Limits:
    """What `go` asked for: any of depth, nodes, movetime, clocks, mate, infinite."""

    def __init__(self, depth=0, nodes=0, movetime=0, wtime=-1, btime=-1, winc=0, binc=0,
                 movestogo=0, mate=0, infinite=False, ponder=False):
        self.depth = depth
        self.nodes = nodes
        self.movetime = movetime
        self.wtime = wtime
        self.btime = btime
        self.winc = winc
        self.binc = binc
        self.movestogo = movestogo
        self.mate = mate
        self.infinite = infinite
        self.ponder = ponder  # no time limit until ponderhit(), then the rest apply


class Search:
    def __init__(self, hash_kb=None, buffer_moves=1024):
        self.moves = zeros("H", buffer_moves)
        self.room = buffer_moves  # a node needs 256 free entries to generate into
        self.order = zeros("H", buffer_moves)  # ordering score of each move
        self.frames = frames()  # quiescence's per-ply state
        self.killers = zeros("H", 2 * MAX_PLY)
        self.statics = zeros("h", MAX_PLY + 1)  # static score by ply, to see if it improves
        self.history = zeros("H", 14 * 64)  # by (piece - 9, to-square), as Zobrist keys
        self.root_moves = self.root_scores = None  # at lower skill: every root move's score
        self.root_count = 0
        self.skill = 20
        self.move_overhead = 30
        self.rng = random
        self.poll = None  # called now and then; returns True to stop
        self.on_info = None  # called after each iteration
        self.pos = None
        self.game = None
        self.nodes = 0
        self.seldepth = 0
        self.stack_peak = 0  # C stack bytes at the deepest node (MicroPython)
        self.stopped = False
        # Every attribute think() sets is made here, so the object's dict is
        # full-grown before the table takes the heap: growing it in a full heap
        # mid-game could fail.
        self.lrs = False
        self.start = self.soft = self.hard = self.node_limit = self.root_side = 0
        self.limits = None
        self.best = 0  # the best move of the last finished iteration
        self.best_root = self.root_raised = 0
        # Last, so that a table sized by the free heap (hash_kb None) leaves
        # the buffers and the dict above their room.
        self.tt = TranspositionTable(hash_kb)

    # ---------------------------------------------------------------- driver

    def think(self, game, limits):
        """Search the game's current position; return (best move, score) or (0, 0).

        Reports each finished iteration through on_info(depth, seldepth,
        score, nodes, milliseconds, pv moves).
        """
        self.game = game
        pos = self.pos = game.pos
        self.lrs = pos.king_capture
        self.nodes = 0
        self.stack_peak = 0
        self.stopped = False
        self.start = ticks_ms()
        self.limits = limits
        self.root_side = pos.side
        self._budget(limits, pos.side)
        self.tt.new_search()
        for i in range(2 * MAX_PLY):
            self.killers[i] = 0
        age_history(self.history)
        max_depth = limits.depth or MAX_PLY - 4
        if limits.mate:
            max_depth = min(max_depth, 2 * limits.mate)
        if self.skill < 20:
            max_depth = min(max_depth, 1 + self.skill // 2)
        best = self.best = 0
        score = 0
        self.root_count = 0
        self.root_raised = 0
        if self.skill < 20 and self.root_moves is None:  # made when first needed
            self.root_moves = zeros("H", 256)
            self.root_scores = zeros("h", 256)
        for depth in range(1, max_depth + 1):
            self.seldepth = 0
            try:
                value = self._aspiration(depth, score)
            except RuntimeError:
                # MicroPython ran out of C stack deep in the tree: the moves made
                # on the way down were not taken back, so rebuild the position
                # and play the best move of the last finished iteration.
                game.rebuild()
                break
            if self.stopped and depth > 1:
                # A move of the unfinished iteration that beat the window is
                # better than the last iteration's choice: play it.
                if self.root_raised:
                    best = self.root_raised
                break
            score = value
            best = self.best = self.best_root
            if self.on_info:
                self.on_info(depth, self.seldepth, score, self.nodes,
                             ticks_diff(ticks_ms(), self.start), self.pv(best, depth))
            if self.stopped:
                break
            if limits.mate and score >= MATE - 2 * limits.mate:
                break
            if self._enough_time():
                break
        if not best:  # not even depth 1 finished: any legal move beats none
            legal = game.legal_moves()
            best = legal[0] if legal else 0
        if self.skill < 20:
            best = self._weaker_choice(best)
        return best, score

    def _budget(self, limits, side):
        """Set the soft and hard time limits (ms) and the node limit."""
        self.node_limit = limits.nodes
        if self.skill < 20:
            cap = 400 * (self.skill + 1) * (self.skill + 1)
            self.node_limit = min(self.node_limit, cap) if self.node_limit else cap
        self.soft = self.hard = 0
        if limits.ponder:
            self.node_limit = 0  # the opponent's time is free; ponderhit() sets it
            return
        if limits.infinite:
            return
        if limits.movetime:
            # All of the time given: no soft limit to stop between iterations.
            self.hard = max(1, limits.movetime - self.move_overhead)
            return
        left = limits.wtime if side == 8 else limits.btime
        inc = limits.winc if side == 8 else limits.binc
        if left < 0:
            return
        moves = limits.movestogo or 30
        left = max(1, left - self.move_overhead)
        self.soft = max(1, min(left // moves + inc * 3 // 4, left // 2))
        self.hard = max(1, min(self.soft * 4, left * 3 // 4))

    def ponderhit(self):
        """The move pondered on was played: the time and node limits start now."""
        self.limits.ponder = False
        self.start = ticks_ms()
        self._budget(self.limits, self.root_side)
        if self.node_limit:
            self.node_limit += self.nodes

    def _enough_time(self):
        """Another iteration would likely not finish within the soft limit."""
        return self.soft and ticks_diff(ticks_ms(), self.start) * 2 > self.soft

    def _check_limits(self):
        if self.node_limit and self.nodes >= self.node_limit:
            self.stopped = True
        elif self.hard and ticks_diff(ticks_ms(), self.start) >= self.hard:
            self.stopped = True
        elif self.poll and self.poll():
            self.stopped = True

    def _aspiration(self, depth, guess):
        if depth < 4 or abs(guess) > MATE_BOUND or self.skill < 20:
            return self._root(depth, -INFINITE, INFINITE)
        window = 40
        while True:
            alpha = max(-INFINITE, guess - window)
            beta = min(INFINITE, guess + window)
            score = self._root(depth, alpha, beta)
            if self.stopped or alpha < score < beta:
                return score
            guess = score
            window *= 3
            if window > 1000:
                return self._root(depth, -INFINITE, INFINITE)

    # ---------------------------------------------------------------- search

    def _root(self, depth, alpha, beta):
        self.best_root = 0
        self.root_raised = 0
        return self._search(depth, alpha, beta, 0, 0, False)

    # Bytecode, not native: the native emitter makes this a quarter faster on
    # the emulated Pico but keeps all of a call's locals on the C stack, 464
    # bytes a ply against bytecode's 216 (whose locals are on the heap); ten
    # seconds of search in a middlegame then overflowed the Pico's 7,936 bytes.
    def _search(self, depth, alpha, beta, ply, start, null_ok):
        pos = self.pos
        lrs = self.lrs
        if depth <= 0 or ply >= MAX_PLY - 1 or start + 256 > self.room:
            return quiesce(self, alpha, beta, ply, start)
        self.nodes += 1
        if self.nodes & CHECK_MASK == 0:
            self._check_limits()
        if self.stopped:
            return 0
        board = pos.board
        state = pos.state
        us = state[_SIDE]
        them = us ^ _BOTH
        king = pos.kings[us >> 4]
        if ply:
            if lrs:
                if not king:
                    return -MATE + ply  # our king was captured
            elif state[_HALFMOVE] >= 2 and _repeated(pos, self.game):
                return 0
            elif state[_HALFMOVE] >= 100:
                # The fifty-move rule, unless the move that reached it mated.
                if attacked(board, king, them) and not has_legal_move(pos, self.moves, start):
                    return -MATE + ply
                return 0
            # Mate-distance pruning: no mate found here can beat a shorter one.
            if alpha < -MATE + ply:
                alpha = -MATE + ply
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
        in_check = not lrs and attacked(board, king, them)
        if in_check:
            depth += 1
        pv_node = beta - alpha > 1
        tt = self.tt
        hash_move = 0
        entry = tt.probe(state[_KEY])
        if entry >= 0:
            hash_move = tt.moves[entry]
            info = tt.info[entry]  # as tt.depth() and tt.bound() read it
            if ply and not pv_node and (info & 63) - 1 >= depth:
                score = _score_from_tt(tt.scores[entry], ply)
                bound = info >> 6
                if bound == EXACT or (bound == LOWER and score >= beta) or \
                        (bound == UPPER and score <= alpha):
                    return score
        if ply and not hash_move and depth >= 4:
            depth -= 1  # no move known here: search it less deep (internal iterative reduction)
        statics = self.statics
        improving = 1
        if in_check:
            statics[ply] = -INFINITE
        else:
            static = white_score(board, pos.squares, pos.counts, pos.kings, TO64, TABLE, WORK,
                                 state[_RIGHTS])
            if us != _WHITE:
                static = -static
            statics[ply] = static
            # Worse than two plies ago: this line is going nowhere, prune harder.
            if ply >= 2 and static <= statics[ply - 2]:
                improving = 0
        futile = False  # quiet moves here cannot lift the score to alpha
        # Late-move pruning: near the leaves, quiet moves this late in the
        # order are skipped (with no check to answer and no PV to keep).
        late = 999
        if not in_check and not pv_node and ply:
            if depth <= 3:
                late = (3 + depth * depth) // (2 - improving)
            futile = depth <= 2 and static + 150 * depth <= alpha and abs(alpha) < MATE_BOUND
            # Reverse futility: far above beta near the leaves, take the cut.
            margin = 100 * (depth - improving)
            if depth <= 5 and static - margin >= beta and abs(beta) < MATE_BOUND:
                return static - margin
            # Null move: if passing still beats beta, a real move will too.
            if null_ok and depth >= 2 and static >= beta and self._has_pieces(us):
                pos.push_null()
                extra = (static - beta) // 200  # far above beta: reduce more
                score = -self._search(depth - 3 - depth // 4 - (extra if extra < 3 else 3),
                                      -beta, -beta + 1, ply + 1, start, False)
                pos.pop_null()
                if self.stopped:
                    return 0
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        moves = self.moves
        order = self.order
        end = pseudo_moves(pos, moves, start)
        killers = self.killers
        order_moves(board, moves, order, start, end, hash_move, killers[2 * ply],
                     killers[2 * ply + 1], self.history, 1)
        squares = pos.squares
        slot = pos.slot
        counts = pos.counts
        kings = pos.kings
        keep = pos.keep
        saved = pos.saved
        en_passant = pos.en_passant
        to120 = TO120
        best = -INFINITE
        best_move = 0
        legal = 0
        old_alpha = alpha
        for i in range(start, end):
            move = pick(moves, order, i, end)
            quiet = board[to120[(move >> 6) & 63]] == 0 and move >> 12 < _PROMOTE_N \
                and move >> 12 != _EN_PASSANT
            # A checking move is never pruned or reduced: it may start a mate.
            # (Asked only of the quiet moves that would be, and before making
            # the move, so a pruned move costs little.)
            checks = False
            if quiet and legal and ply and not in_check:
                # Near the leaves, a quiet move that leaves its piece to be
                # taken for nothing is not worth a look either.
                prune = futile or legal >= late or \
                    (depth <= 3 and not see_ge(board, move, -20 * depth * (depth + 1)))
                if not lrs and (prune or (depth >= 3 and legal >= 3)):
                    checks = gives_check(board, move, kings[them >> 4])
                if prune and not checks:
                    continue
            _push(board, squares, slot, counts, kings, keep, state, saved, move, en_passant)
            if not lrs and attacked(board, kings[us >> 4], them):
                _pop(board, squares, slot, counts, kings, state, saved, move)
                continue
            legal += 1
            if ply == 0 and self.skill < 20:
                score = -self._search(depth - 1, -INFINITE, INFINITE, 1, end, True)
                self.root_moves[legal - 1] = move
                self.root_scores[legal - 1] = score
                self.root_count = legal
            # (A child at depth 0 is quiesce()'s straight away: calling it
            # directly saves a Python call per leaf.)
            elif legal == 1:
                score = -(quiesce(self, -beta, -alpha, ply + 1, end) if depth <= 1 else
                          self._search(depth - 1, -beta, -alpha, ply + 1, end, True))
            else:
                reduce = 0
                if ply and depth >= 3 and legal > 3 and quiet and not in_check and not checks \
                        and order[i] < _KILLER - 1:
                    reduce = LMR_TABLE[(depth if depth < 16 else 15) * 32 +
                                       (legal if legal < 32 else 31)]
                    if pv_node and reduce:
                        reduce -= 1
                    if not improving:
                        reduce += 1
                score = -(quiesce(self, -alpha - 1, -alpha, ply + 1, end) if depth <= 1 + reduce
                          else self._search(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, end,
                                            True))
                if score > alpha and reduce:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, ply + 1, end, True)
                if alpha < score < beta:
                    score = -(quiesce(self, -beta, -alpha, ply + 1, end) if depth <= 1 else
                              self._search(depth - 1, -beta, -alpha, ply + 1, end, True))
            _pop(board, squares, slot, counts, kings, state, saved, move)
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_move = move
                if ply == 0:
                    self.best_root = move
                if score > alpha:
                    alpha = score
                    if ply == 0:
                        self.root_raised = move
                    if score >= beta:
                        if quiet:
                            reward_cut(board, killers, self.history, move, depth, ply)
                            if i > start:
                                punish_quiets(board, moves, self.history, start, i, depth)
                        break
        if legal == 0:
            if lrs or in_check:
                return -MATE + ply
            return 0
        bound = LOWER if best >= beta else (EXACT if best > old_alpha else UPPER)
        tt.store(state[_KEY], depth, bound, _score_to_tt(best, ply), best_move)
        return best

    # ------------------------------------------------------------- ordering

    # ---------------------------------------------------------------- draws

    def _has_pieces(self, side):
        """Does `side` have a piece other than pawns and king? (Null move is
        unsafe in pawn endings because of zugzwang.)"""
        pos = self.pos
        first = 16 if side != 8 else 0
        board = pos.board
        for i in range(first, first + pos.counts[side >> 4]):
            kind = board[pos.squares[i]] & 7
            if kind != PAWN and kind != KING:
                return True
        return False

    # ------------------------------------------------------------ reporting

    def pv(self, best, depth):
        """The principal variation from the transposition table, as a list."""
        pos = self.pos
        line = []
        move = best
        while move and len(line) < depth and self._is_legal(move):
            line.append(move)
            pos.push(move)
            entry = self.tt.probe(pos.key)
            move = self.tt.moves[entry] if entry >= 0 else 0
        for move in reversed(line):
            pos.pop(move)
        return line

    def _is_legal(self, move):
        moves = self.moves
        for i in range(legal_moves(self.pos, moves, 0)):
            if moves[i] == move:
                return True
        return False

    def _weaker_choice(self, best):
        """At lower skill, sometimes play a near-best move instead of the best."""
        count = self.root_count
        if count < 2:
            return best
        margin = 20 + (20 - self.skill) * 12
        chance = (20 - self.skill) * 4  # percent
        if self.rng.getrandbits(7) % 100 >= chance:
            return best
        top = max(self.root_scores[i] for i in range(count))
        good = [self.root_moves[i] for i in range(count) if self.root_scores[i] >= top - margin]
        return good[self.rng.getrandbits(8) % len(good)]


def _score_to_tt(score, ply):
    """Mate scores are stored relative to this node, not to the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _score_from_tt(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@micropython.viper
def _repeated(pos, game) -> bool:
    """Has this position stood before, since the last capture or pawn move?
    The search's own moves are on the position's undo stack; the game's
    history before them is asked of `game`."""
    state = ptr32(pos.state)
    saved = ptr32(pos.saved)
    key = state[_KEY]
    reach = state[_HALFMOVE]
    ply = state[_PLY]
    back = 2
    i = ply - 2
    while back <= reach and i >= 0:
        if saved[3 * i + 1] == key:
            return True
        back += 2
        i -= 2
    if back <= reach and game:
        if game.seen_before(key, back - ply, reach - ply):
            return True
    return False

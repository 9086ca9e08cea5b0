"""The search: iterative deepening, principal-variation alpha-beta with
aspiration windows, quiescence, a transposition table, null-move pruning,
late-move reductions, killers and history.

Everything it needs per node lives in buffers made once, so searching
allocates nothing per node.
"""
import random

from .compat import const, stack_use, ticks_diff, ticks_ms, zeros
from .evaluate import evaluate
from .movegen import pseudo_moves
from .position import BOTH, CASTLE, EN_PASSANT, KING, PAWN, PROMOTE_N, TO120, TO64, attacked
from .tt import EXACT, LOWER, UPPER, TranspositionTable

MATE = const(30000)
INFINITE = const(32000)
MAX_PLY = const(64)
MATE_BOUND = const(29000)  # scores beyond this are mates

# Piece values for ordering captures and pruning in quiescence.
VALUE = (0, 100, 320, 330, 500, 950, 4000)  # the king counts only in LRS

HASH_MOVE = const(30000)
CAPTURE = const(20000)
KILLER = const(15000)
HISTORY_MAX = const(14000)


class Limits:
    """What `go` asked for: any of depth, nodes, movetime, clocks, mate, infinite."""

    def __init__(self, depth=0, nodes=0, movetime=0, wtime=-1, btime=-1, winc=0, binc=0,
                 movestogo=0, mate=0, infinite=False):
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


class Search:
    def __init__(self, hash_kb=16, buffer_moves=2048):
        self.tt = TranspositionTable(hash_kb)
        self.moves = zeros("H", buffer_moves)
        self.order = zeros("h", buffer_moves)  # ordering score of each move
        self.killers = zeros("H", 2 * MAX_PLY)
        self.history = zeros("H", 32 * 64)  # by (piece & 31, to-square)
        self.root_moves = zeros("H", 256)  # at lower skill: every root move's score
        self.root_scores = zeros("h", 256)
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
        self._budget(limits, pos.side)
        for i in range(2 * MAX_PLY):
            self.killers[i] = 0
        for i in range(32 * 64):
            self.history[i] >>= 2
        max_depth = limits.depth or MAX_PLY - 4
        if limits.mate:
            max_depth = min(max_depth, 2 * limits.mate)
        if self.skill < 20:
            max_depth = min(max_depth, 1 + self.skill // 2)
        best = 0
        score = 0
        self.root_count = 0
        for depth in range(1, max_depth + 1):
            self.seldepth = 0
            value = self._aspiration(depth, score)
            if self.stopped and depth > 1:
                break
            score = value
            best = self.best_root
            if self.on_info:
                self.on_info(depth, self.seldepth, score, self.nodes,
                             ticks_diff(ticks_ms(), self.start), self.pv(best, depth))
            if self.stopped:
                break
            if limits.mate and score >= MATE - 2 * limits.mate:
                break
            if not limits.infinite and self._enough_time():
                break
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
        if limits.infinite:
            return
        if limits.movetime:
            self.soft = self.hard = max(1, limits.movetime - self.move_overhead)
            return
        left = limits.wtime if side == 8 else limits.btime
        inc = limits.winc if side == 8 else limits.binc
        if left < 0:
            return
        moves = limits.movestogo or 30
        left = max(1, left - self.move_overhead)
        self.soft = max(1, min(left // moves + inc * 3 // 4, left // 2))
        self.hard = max(1, min(self.soft * 4, left * 3 // 4))

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
        return self._search(depth, alpha, beta, 0, 0, False)

    def _search(self, depth, alpha, beta, ply, start, null_ok):
        pos = self.pos
        if depth <= 0 or ply >= MAX_PLY - 2 or start + 256 > len(self.moves):
            return self._quiesce(alpha, beta, ply, start)
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check_limits()
        if self.stopped:
            return 0
        board = pos.board
        us = pos.side
        them = us ^ BOTH
        king = pos.kings[us >> 4]
        if ply:
            if self.lrs:
                if not king:
                    return -MATE + ply  # our king was captured
            elif pos.halfmove >= 100 or self._repeated():
                return 0
            # Mate-distance pruning: no mate found here can beat a shorter one.
            if alpha < -MATE + ply:
                alpha = -MATE + ply
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
        in_check = not self.lrs and attacked(board, king, them)
        if in_check:
            depth += 1
        pv_node = beta - alpha > 1
        tt = self.tt
        hash_move = 0
        entry = tt.probe(pos.key)
        if entry >= 0:
            hash_move = tt.moves[entry]
            if ply and not pv_node and tt.depth(entry) >= depth:
                score = _score_from_tt(tt.scores[entry], ply)
                bound = tt.bound(entry)
                if bound == EXACT or (bound == LOWER and score >= beta) or \
                        (bound == UPPER and score <= alpha):
                    return score
        if not in_check and not pv_node and ply:
            static = evaluate(pos)
            # Reverse futility: far above beta near the leaves, take the cut.
            if depth <= 3 and static - 120 * depth >= beta and abs(beta) < MATE_BOUND:
                return static - 120 * depth
            # Null move: if passing still beats beta, a real move will too.
            if null_ok and depth >= 3 and static >= beta and self._has_pieces(us):
                pos.push_null()
                score = -self._search(depth - 3 - depth // 6, -beta, -beta + 1, ply + 1,
                                      start, False)
                pos.pop_null()
                if self.stopped:
                    return 0
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        moves = self.moves
        end = pseudo_moves(pos, moves, start)
        self._order(start, end, hash_move, ply)
        best = -INFINITE
        best_move = 0
        legal = 0
        old_alpha = alpha
        for i in range(start, end):
            move = self._pick(i, end)
            quiet = board[TO120[(move >> 6) & 63]] == 0 and move >> 12 < PROMOTE_N \
                and move >> 12 != EN_PASSANT
            pos.push(move)
            if not self.lrs and attacked(board, pos.kings[us >> 4], them):
                pos.pop(move)
                continue
            legal += 1
            if ply == 0 and self.skill < 20:
                score = -self._search(depth - 1, -INFINITE, INFINITE, 1, end, True)
                self.root_moves[legal - 1] = move
                self.root_scores[legal - 1] = score
                self.root_count = legal
            elif legal == 1:
                score = -self._search(depth - 1, -beta, -alpha, ply + 1, end, True)
            else:
                reduce = 0
                if depth >= 3 and legal > 3 and quiet and not in_check and \
                        self.order[i] < KILLER - 1:
                    reduce = 1 if legal < 10 else 2
                score = -self._search(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, end, True)
                if score > alpha and reduce:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, ply + 1, end, True)
                if alpha < score < beta:
                    score = -self._search(depth - 1, -beta, -alpha, ply + 1, end, True)
            pos.pop(move)
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_move = move
                if ply == 0:
                    self.best_root = move
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self._reward(move, depth, ply)
                        break
        if legal == 0:
            if self.lrs or in_check:
                return -MATE + ply
            return 0
        bound = LOWER if best >= beta else (EXACT if best > old_alpha else UPPER)
        tt.store(pos.key, depth, bound, _score_to_tt(best, ply), best_move)
        return best

    def _quiesce(self, alpha, beta, ply, start):
        pos = self.pos
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check_limits()
        if self.stopped:
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
            used = stack_use()
            if used > self.stack_peak:
                self.stack_peak = used
        board = pos.board
        us = pos.side
        them = us ^ BOTH
        king = pos.kings[us >> 4]
        if self.lrs and not king:
            return -MATE + ply
        in_check = not self.lrs and attacked(board, king, them)
        if ply >= MAX_PLY - 2 or start + 256 > len(self.moves):
            return evaluate(pos)
        if in_check:
            best = -INFINITE  # no standing pat in check: every evasion is searched
        else:
            best = evaluate(pos)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        moves = self.moves
        end = pseudo_moves(pos, moves, start, in_check)
        self._order(start, end, 0, MAX_PLY - 1)
        legal = 0
        for i in range(start, end):
            move = self._pick(i, end)
            if not in_check and move >> 12 != EN_PASSANT and move >> 12 < PROMOTE_N:
                victim = board[TO120[(move >> 6) & 63]] & 7
                if best + VALUE[victim] + 200 < alpha:
                    continue  # delta pruning: even winning it cannot reach alpha
            pos.push(move)
            if not self.lrs and attacked(board, pos.kings[us >> 4], them):
                pos.pop(move)
                continue
            legal += 1
            score = -self._quiesce(-beta, -alpha, ply + 1, end)
            pos.pop(move)
            if self.stopped:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        if in_check and legal == 0:
            return -MATE + ply
        return best

    # ------------------------------------------------------------- ordering

    def _order(self, start, end, hash_move, ply):
        """Give each move an ordering score: hash move, captures by MVV-LVA,
        promotions, killers, then history."""
        board = self.pos.board
        order = self.order
        moves = self.moves
        killer1 = self.killers[2 * ply]
        killer2 = self.killers[2 * ply + 1]
        history = self.history
        for i in range(start, end):
            move = moves[i]
            if move == hash_move:
                order[i] = HASH_MOVE
                continue
            fr = TO120[move & 63]
            to = TO120[(move >> 6) & 63]
            flag = move >> 12
            victim = board[to]
            if flag == CASTLE:
                victim = 0
            elif flag == EN_PASSANT:
                victim = PAWN
            if victim:
                # Most valuable victim first, then least valuable attacker.
                order[i] = CAPTURE + VALUE[victim & 7] - (board[fr] & 7)
                if flag >= PROMOTE_N:
                    order[i] += 900 if flag == PROMOTE_N + 3 else 0
            elif flag == PROMOTE_N + 3:
                order[i] = CAPTURE + 800
            elif move == killer1:
                order[i] = KILLER
            elif move == killer2:
                order[i] = KILLER - 1
            else:
                order[i] = history[((board[fr] & 31) << 6) | TO64[to]]

    def _pick(self, i, end):
        """Swap the best-ordered move of moves[i:end] to i and return it."""
        order = self.order
        moves = self.moves
        best = i
        top = order[i]
        for j in range(i + 1, end):
            if order[j] > top:
                top = order[j]
                best = j
        if best != i:
            move = moves[best]
            moves[best] = moves[i]
            moves[i] = move
            order[best] = order[i]
            order[i] = top
        return moves[i]

    def _reward(self, move, depth, ply):
        """A quiet move caused a cut: remember it as a killer and in the history."""
        if self.killers[2 * ply] != move:
            self.killers[2 * ply + 1] = self.killers[2 * ply]
            self.killers[2 * ply] = move
        board = self.pos.board
        fr = TO120[move & 63]
        to = TO120[(move >> 6) & 63]
        piece = board[fr]
        if move >> 12 == CASTLE:
            return
        index = ((piece & 31) << 6) | TO64[to]
        value = self.history[index] + depth * depth
        self.history[index] = value if value < HISTORY_MAX else HISTORY_MAX

    # ---------------------------------------------------------------- draws

    def _repeated(self):
        """Has this position stood before, since the last capture or pawn move?"""
        pos = self.pos
        key = pos.key
        keys = pos._key
        reach = pos.halfmove
        back = 2
        i = pos.ply - 2
        while back <= reach and i >= 0:
            if keys[i] == key:
                return True
            back += 2
            i -= 2
        if back <= reach and self.game:
            return self.game.seen_before(key, back - pos.ply, reach - pos.ply)
        return False

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
        pos = self.pos
        end = pseudo_moves(pos, self.moves, 0)
        us = pos.side
        for i in range(end):
            if self.moves[i] == move:
                pos.push(move)
                ok = self.lrs or not attacked(pos.board, pos.kings[us >> 4], us ^ BOTH)
                pos.pop(move)
                return ok
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

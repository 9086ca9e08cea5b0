"""The search: iterative deepening, principal-variation alpha-beta with
aspiration windows, quiescence, a transposition table, null-move pruning,
futility and late-move pruning, late-move reductions, internal iterative
reduction, killers, counter moves and history. Where the static score is no
better than two plies before (the side to move is not "improving"), it prunes
and reduces more. A capture that loses material by static exchange is
reduced as a quiet move is, and skipped near the horizon outside the PV.

Everything it needs per node lives in buffers made once, so searching
allocates nothing per node.
"""
import math
import random

from micro960.compat import (const, micropython, ptr8, ptr16, ptr32, ticks_diff,  # noqa: F401
                             ticks_ms, zeros)
from micro960.rules.movegen import LINE, gives_check, has_legal_move, legal_moves, pseudo_moves
from micro960.engine.network import network, null_move, refresh, score as net_score
from micro960.engine.ordering import age_history, order_moves, record_cut
from micro960.rules.position import TO120, pop_move, push_move, attacked
from micro960.engine.quiescence import quiesce
from micro960.engine.see import VALUES, see_ge
from micro960.engine.tt import TranspositionTable

MATE = const(30000)
INFINITE = const(32000)
# The deepest the search may go, plies from the root: the frames of _tree and
# quiesce are preallocated for this many. Neither recurses, so the C stack
# stays the same at any depth (`micro960 bench --pico` reports it).
MAX_PLY = const(32)
MATE_BOUND = const(29000)  # scores beyond this are mates
# The clock, the node limit and the input are looked at every 16 nodes
# (nodes & CHECK_MASK == 0; engine/quiescence.py keeps the same). A Pico searches
# about 2,500 nodes a second (`micro960 bench --pico`, the emulated board's
# own clock), so that is every 6 ms or so, within the default Move Overhead
# of 30 ms: there `go movetime 500` answers after 481 ms. It costs the unix
# port about 1% of its UCI speed.
CHECK_MASK = const(15)
# Position.state's fields, move flags and ordering scores, as this module's
# own constants: MicroPython inlines them, where an imported name is looked up
# at every use.
_SIDE = const(0)
_HALFMOVE = const(3)
_KEY = const(4)
_PLY = const(5)
_WHITE = const(8)
_BOTH = const(24)
_EN_PASSANT = const(2)
_CASTLE = const(3)
_PROMOTE_N = const(4)
_KILLER = const(15000)  # ordering.KILLER
_PAWN = const(1)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)
_EXACT = const(1)  # engine/tt.py's bounds
_LOWER = const(2)
_UPPER = const(3)
# Search.replies: the best move of the last ply-1 node the tree finished;
# that of the root's best move's; the move think() chose and its answer.
_CHILD = const(0)
_ROOT_REPLY = const(1)
_REPLY_TO = const(2)
_REPLY = const(3)


def _reduction(depth, moves):
    return max(0, int(0.75 + math.log(max(depth, 1)) * math.log(max(moves, 1)) / 2.25))


# Late-move reductions by depth and move number: about 0.75 + ln(depth) *
# ln(moves) / 2.25 plies (both capped: depth 15, moves 31), 0 to 4, two to a
# byte: that of entry depth * 32 + moves in LMR_TABLE[entry >> 1], in the high
# half when the entry is odd. (Deeper ones, and the other search changes
# docs/developing.md's Measurements lists as not taken, played no better.)
LMR_TABLE = bytes(
    _reduction(d, m) | _reduction(d, m + 1) << 4 for d in range(16) for m in range(0, 32, 2))
del _reduction  # needed once, at import


class Limits:
    """What `go` asked for: any of depth, nodes, movetime, clocks, mate, infinite.

    generate is the tree's move generator, f(pos, moves, start) -> end, as
    pseudo_moves; UCI's go searchmoves gives one that leaves the root (start
    0) only the moves listed. (A hook, not a test at every node: the tree's
    machine code takes heap on a Pico.)"""

    generate = staticmethod(pseudo_moves)

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


def bare_king_to_mate(pos):
    """True if pos has a bare king and, against it, a rook, a queen or two
    bishops: the search then scores by the mop-up (engine/mopup.py)."""
    counts = pos.counts
    if not (pos.kings[0] and pos.kings[1]) or (counts[0] == 1) == (counts[1] == 1):
        return False
    strong = 0 if counts[1] == 1 else 1
    bishops = 0
    for i in range(16 * strong, 16 * strong + counts[strong]):
        kind = pos.board[pos.squares[i]] & 7
        if kind == _ROOK or kind == _QUEEN:
            return True
        bishops += kind == _BISHOP
    return bishops >= 2


class Search:
    def __init__(self, hash_kb=None, buffer_moves=1024, tt=None):
        self.moves = zeros("H", buffer_moves)
        self.room = buffer_moves  # a node needs 256 free entries to generate into
        self.order = zeros("H", buffer_moves)  # ordering score of each move
        self.killers = zeros("H", 2 * MAX_PLY)
        self.plies = plies()  # each ply's state: _tree's, and below its leaves quiesce's
        self.net = network()  # read at the first Search; a bad weights file ends the program here
        self.history = zeros("H", 12 * 64)  # by (piece_row, to-square), as Zobrist keys
        # The quiet move that last refuted a move, by that move's piece kind
        # and destination (the counter-move heuristic): ordered after the
        # killers. Entry 1 + kind * 64 + to; entry 0, none, stays 0 (the
        # root and the null move's answers have no move to counter).
        self.counters = zeros("H", 1 + 7 * 64)
        # At a level with noise: every root move's score (levels.prepare).
        self.root_moves = self.root_scores = None
        self.root_count = 0
        self.level = 20  # engine/levels.py: 20 is full strength, 0-19 and ratings below it
        self.move_overhead = 30
        self.helper = None  # with Threads 2, a second search on another core (set_threads)
        self.helping = None  # the helper while (and after) it searches beside this search
        self.skip = 0  # plies each iteration goes beyond its number: a helper's 1
        self.rng = random
        self.poll = None  # called now and then; returns True to stop
        self.watch = None  # tests: told enter(depth, alpha, beta), leave(score) of each node
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
        self.q = None  # quiesce()'s buffers (at())
        # How a position is scored: by the network, or where a bare king can
        # be mated at the root by the mop-up (engine/mopup.py). think() chooses.
        self.scoring = net_score
        # nodes, seldepth and stopped as _tree and quiesce() hand them to each
        # other (attributes cost a lookup each; _tree sets nodes and seldepth when done)
        self.tally = zeros("i", 3)
        self.best = 0  # the best move of the last finished iteration
        self.best_root = self.root_raised = 0
        # The opponent's best answer as the root's search found it, for pv()
        # where the table has since lost it (_CHILD ... _REPLY; one array
        # for a Pico's heap, where each attribute costs its name too).
        self.replies = zeros("H", 4)
        # Last, so that a table sized by the free heap (hash_kb None) leaves
        # the buffers and the dict above their room. A helper shares its main
        # search's.
        self.tt = tt if tt is not None else TranspositionTable(hash_kb)

    # ---------------------------------------------------------------- driver

    def think(self, game, limits):
        """Search the game's current position; return (best move, score) or (0, 0).

        Reports each finished iteration through on_info(depth, seldepth,
        score, nodes, milliseconds, pv moves).
        """
        self.start = ticks_ms()  # the clock runs from here: setting up the network takes time too
        self.scoring = net_score  # at() hands it on
        if bare_king_to_mate(game.pos):
            from .mopup import score  # loaded only for such an ending
            self.scoring = score
        pos = self.at(game)
        self.stack_peak = 0
        self.stopped = False
        self.limits = limits
        self.root_side = pos.side
        self._budget(limits, pos.side)
        if not self.skip:  # a helper searches in its main search's age of the table
            self.tt.new_search()
        for i in range(2 * MAX_PLY):
            self.killers[i] = 0
        age_history(self.history)
        max_depth = limits.depth or MAX_PLY - 4
        if limits.mate:
            # A mate in N is 2N - 1 plies, but the search's reductions can
            # hide it at that depth: look 4 plies further (it stops once found).
            max_depth = min(max_depth, 2 * limits.mate + 4)
        noise = 0
        levels = None
        self.root_moves = self.root_scores = None  # a level's noise wants them
        if self.level != 20:
            from . import levels  # a board at full strength never loads it
            max_depth, noise = levels.prepare(self, max_depth)
        helper = self.helping = None
        # A level plays alone: its ratings were measured with one search.
        if self.helper and self.level == 20:
            helper = self.helping = self.helper
            helper.start(game, limits.generate)
        try:
            best, score, kept = self._deepen(limits, max_depth, levels)
        finally:
            if helper:
                helper.finish()
        if not best:  # not even depth 1 finished: any legal move beats none
            legal = game.legal_moves()
            best = legal[0] if legal else 0
        if noise:
            best = levels.weaker_choice(self, best, noise, kept)
        return best, score

    def _deepen(self, limits, max_depth, levels):
        """think's iterations: (the best move, its score, and with a level's
        noise the root moves kept for its choice)."""
        best = self.best = 0
        score = kept = 0
        self.root_count = 0
        self.root_raised = 0
        replies = self.replies
        for depth in range(1, max_depth + 1):
            self.seldepth = 0
            value = self._aspiration(min(depth + self.skip, MAX_PLY - 4), score)
            if self.stopped and depth > 1:
                # A move of the unfinished iteration that beat the window is
                # better than the last iteration's choice: play it.
                if self.root_raised:  # (the iteration's best_root)
                    best = replies[_REPLY_TO] = self.root_raised
                    replies[_REPLY] = replies[_ROOT_REPLY]
                break
            score = value
            best = self.best = replies[_REPLY_TO] = self.best_root
            replies[_REPLY] = replies[_ROOT_REPLY]  # pv()'s, for best
            if levels and self.root_scores:  # the noise's root moves (the first one's, even if cut short)
                kept = levels.keep(self)
            if self.on_info:
                self.on_info(depth, self.seldepth, score, self.all_nodes(),
                             ticks_diff(ticks_ms(), self.start), self.pv(best, depth))
            if self.stopped:
                break
            if limits.mate and score >= MATE - 2 * limits.mate:
                break
            if self._enough_time():
                break
        return best, score, kept

    def at(self, game):
        """Search game's position from now on: the network starts from it
        (whatever set it up), and quiesce() gets its buffers in one tuple
        (self.scoring among them)."""
        self.game = game
        pos = self.pos = game.pos
        self.lrs = pos.king_capture
        self.nodes = 0
        for i in range(3):
            self.tally[i] = 0
        net = self.net
        refresh(net, pos)
        # In the order quiescence.quiesce unpacks and names them.
        self.q = (pos.board, pos.state, pos.squares, pos.counts, pos.kings, pos.slot,
                  pos.castle_mask, pos.saved, pos.en_passant, self.moves, self.order,
                  self.history, self.plies, self.scoring,
                  net.acc, net.rows, net.rows8, net.shape, net.pending, net.hidden,
                  1 if self.lrs else 0, 2 if pos.queen_only else 0, self.room, TO120, VALUES,
                  self.tally, pos.lifted)
        return pos

    def _budget(self, limits, side):
        """Set the soft and hard time limits (ms) and the node limit."""
        self.node_limit = limits.nodes
        if self.level != 20:
            from .levels import knobs
            cap = knobs(self.level)[0]
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
        left = limits.wtime if side == _WHITE else limits.btime
        inc = limits.winc if side == _WHITE else limits.binc
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
            self.node_limit += self.all_nodes()

    def set_threads(self, threads):
        """Search with 1 or 2 threads (UCI Threads, the console's threads):
        engine/smp.py's set_threads. ValueError if a second cannot be."""
        if (threads == 2) != (self.helper is not None):
            try:
                from . import smp  # a board with one search never loads it
            except ImportError:
                raise ValueError("this machine runs one thread (MicroPython without _thread)")
            smp.set_threads(self, threads, Search, Limits)

    def all_nodes(self):
        """The nodes of this search and of its helper (engine/smp.py), if
        one searched beside it: `go nodes` limits both together, as in
        other engines, and a Pico's nodes a second count both cores."""
        helper = self.helping
        return self.nodes + (helper.search.nodes if helper else 0)

    def _enough_time(self):
        """Another iteration would likely not finish within the soft limit."""
        return self.soft and ticks_diff(ticks_ms(), self.start) * 2 > self.soft

    def check_limits(self):
        """Set `stopped` when the node or time limit is reached, or the
        poll says stop; the tree and quiescence call it every 16 nodes (CHECK_MASK)."""
        if self.node_limit and self.all_nodes() >= self.node_limit:
            self.stopped = True
        elif self.hard and ticks_diff(ticks_ms(), self.start) >= self.hard:
            self.stopped = True
        elif self.poll and self.poll():
            self.stopped = True

    def _aspiration(self, depth, guess):
        if depth < 4 or abs(guess) > MATE_BOUND or self.root_scores is not None:
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
        self.best_root = self.root_raised = 0
        return _tree(self, depth, alpha, beta)

    # ------------------------------------------------------------ reporting

    def pv(self, best, depth):
        """The principal variation from the transposition table, as a list;
        its second move the one the root's search found, where `best` is
        the move think() chose (the table may have given that entry to
        another position since)."""
        pos = self.pos
        replies = self.replies
        line = []
        move = best
        while move and len(line) < depth and self._is_legal(move):
            line.append(move)
            pos.push(move)
            entry = self.tt.probe(pos.key)
            move = self.tt.moves[entry] if entry >= 0 else 0
            if len(line) == 1 and best == replies[_REPLY_TO]:
                move = replies[_REPLY] or move
        for move in reversed(line):
            pos.pop(move)
        return line

    def _is_legal(self, move):
        moves = self.moves
        for i in range(legal_moves(self.pos, moves, 0)):
            if moves[i] == move:
                return True
        return False


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
    back = 4  # a position cannot stand again two plies on: both sides have moved since
    i = ply - 4
    while back <= reach and i >= 0:
        if saved[3 * i + 1] == key:
            return True
        back += 2
        i -= 2
    if back <= reach and game:
        if game.seen_before(key, back - ply, reach - ply):
            return True
    return False


# The tree is one viper loop, as quiescence is: each ply's state lives in a
# frame of FRAME 16-bit fields (Search.plies), so a node costs no Python call
# and no C stack. On the emulated Pico it searches 1,650 nodes a second where
# a recursive bytecode function searched 1,100 (the same tree), and its C
# stack stays at 2.4 KB of 7.9 at any depth; the native emitter, tried
# first, kept 464 bytes of C stack a ply and overflowed in a long middlegame
# search. Its machine code takes 7 KB more heap than the bytecode did.
# Scores are kept + _BIAS, since viper reads a ptr16 as unsigned.
FRAME = const(17)
_BIAS = const(32768)
_ALPHA = const(0)
_BETA = const(1)
_BEST = const(2)
_OLD_ALPHA = const(3)
_STATIC = const(4)  # the static score (-INFINITE in check), to see if the side improves
_DEPTH = const(5)
_START = const(6)
_END = const(7)
_NEXT = const(8)  # the index of the move being searched below
_MOVE = const(9)
_LEGAL = const(10)
_BEST_MOVE = const(11)
_LATE = const(12)  # late-move pruning: from this many legal moves on, quiet ones are skipped
_HASH_MOVE = const(13)
_REDUCE = const(14)
_FLAGS = const(15)  # the switches below, and the phase of the search below
_COUNTER_AT = const(16)  # the node's entry of Search.counters (0: none)
_IN_CHECK = const(1)
_PV_NODE = const(2)
_IMPROVING = const(4)  # better than two plies ago; prune and reduce less
_FUTILE = const(8)  # quiet moves here cannot lift the score to alpha
_QUIET = const(16)  # the move being searched is quiet
_PHASE = const(64)  # flags // _PHASE: which search is below
# The phases: the null move; a root move at a level with noise, with the full window;
# a first move, with the full window; a later move's null-window search,
# maybe reduced; that search again unreduced; a later move's full window.
_NULL = const(1)
_ROOT_ALL = const(2)
_FIRST = const(3)
_REDUCED = const(4)
_UNREDUCED = const(5)
_FULL = const(6)
# What the loop does next.
_ENTER = const(0)  # a new node at `ply`: depth, alpha, beta, start and null_ok are set
_RETURN = const(1)  # the node at `ply` is done with `result`: back to its parent
_MOVES = const(2)  # generate the node's moves
_NEXT_MOVE = const(3)  # make the next move worth searching, or finish the node
_DESCEND = const(4)  # search below the node, as `phase` says


def plies():
    """The frame array a Search keeps for _tree() and quiesce()."""
    return zeros("H", FRAME * MAX_PLY)


@micropython.viper
def _tree(search, depth: int, alpha: int, beta: int) -> int:
    """The score of search.pos searched `depth` plies from the root.

    The root's best move goes to search.best_root, and to search.root_raised
    once one beats alpha (and the answer its search found to
    search.replies[_ROOT_REPLY]); at a level with noise, every root move's score goes to
    search.root_moves and root_scores.

    A recursive negamax alpha-beta, written as one loop. `ply` is the node
    being worked on; `mode` says what to do with it next; its state is in
    the locals while it works and in its frame (search.plies[ply * FRAME:],
    the _ALPHA ... _FLAGS fields) while a search below it runs. The steps,
    numbered as "Step N" in the code:

      ENTER      1 horizon: quiescence    2 count the node, poll limits
                 3 draws and mates by rule below the root
                 4 mate-distance pruning  5 check extension, PV node?
                 6 transposition table    7 internal iterative reduction
                 8 static score, improving?
                 9 late-move limit, futility, reverse futility, null move
      MOVES     10 generate and order the moves
      NEXT_MOVE 11 pick the best-ordered move
                12 prune a quiet move or a losing capture
                13 make it, skip it if illegal  14 its phase and reduction
                15 no move left: mate, stalemate or the best, into the table
      DESCEND   16 keep the node in its frame; the child's window and depth
      RETURN    17 back to the parent   18 after the null move
                19 re-search (reduced, then unreduced, then full window)
                20 the move's score is known: best, alpha, cut

    How the modes follow each other:

      ENTER     -> RETURN (a score without moves: steps 1, 3, 4, 6, 9),
                   MOVES, or DESCEND (the null move, step 9)
      MOVES     -> NEXT_MOVE
      NEXT_MOVE -> DESCEND (a move made) or RETURN (none left)
      DESCEND   -> ENTER at ply + 1
      RETURN    -> at ply - 1: MOVES (the null move failed), DESCEND (a
                   re-search) or NEXT_MOVE; at ply 0 the loop ends

    The phase, kept with the flags in the parent's frame, says which search
    the child is and what its score means:

      phase      child's window        child's depth        then
      NULL       -beta, -beta + 1      depth - 3 - more     >= beta: cut
      ROOT_ALL   -INFINITE, INFINITE   depth - 1            scores noted
      FIRST      -beta, -alpha         depth - 1
      REDUCED    -alpha - 1, -alpha    depth - 1 - reduce   > alpha: UNREDUCED
      UNREDUCED  -alpha - 1, -alpha    depth - 1            in window: FULL
      FULL       -beta, -alpha         depth - 1

    Invariants: frames 0 .. ply - 1 hold the nodes on the path above `ply`
    (frame[ply]'s _STATIC is written on entry, for the node two plies
    down); the node at `ply` owns moves[start:end], and its child's
    moves start at its end (quiescence past `room`); the position is the
    one at `ply` (a move is made in NEXT_MOVE or DESCEND and unmade in
    RETURN); scores in frames are stored + _BIAS; once `stopped`, every node
    returns 0 and the caller discards the tree's result.
    """
    pos = search.pos
    game = search.game
    board_obj = pos.board
    board = ptr8(board_obj)
    state_obj = pos.state
    state = ptr32(state_obj)
    squares_obj = pos.squares
    squares = ptr8(squares_obj)
    slot = pos.slot
    counts_obj = pos.counts
    counts = ptr8(counts_obj)
    kings_obj = pos.kings
    kings = ptr8(kings_obj)
    castle_mask = pos.castle_mask
    lifted = pos.lifted
    saved = pos.saved
    en_passant = pos.en_passant
    moves_obj = search.moves
    moves = ptr16(moves_obj)
    order_obj = search.order
    order = ptr16(order_obj)
    killers_obj = search.killers
    killers = ptr16(killers_obj)
    history = search.history
    counters = ptr16(search.counters)
    frame = ptr16(search.plies)
    generate = search.limits.generate
    tt = search.tt
    tt_size = int(tt.size)
    tt_keys = ptr32(tt.keys)
    tt_moves = ptr16(tt.moves)
    tt_scores = ptr16(tt.scores)
    tt_info = ptr8(tt.info)
    net = search.net
    scoring = search.scoring  # the network's score, or the mop-up's (Search.think)
    acc = net.acc
    rows = net.rows
    rows8 = net.rows8
    shape = net.shape
    pending = net.pending
    hidden = int(net.hidden)
    to120 = ptr8(TO120)
    line = ptr8(LINE)
    lmr = ptr8(LMR_TABLE)
    lrs = int(search.lrs)
    room = int(search.room)
    root_all = int(bool(search.root_scores))  # None or every root move's score: see think()
    nodes = int(search.nodes)
    stopped = int(search.stopped)
    tally = ptr32(search.tally)
    tally[1] = int(search.seldepth)
    replies = ptr16(search.replies)
    ply = 0
    start = 0
    null_ok = 0
    result = 0
    score = 0
    phase = 0
    # The node at `ply`: in these locals while it works, in its frame while a
    # search below it runs.
    end = 0
    i = 0
    move = 0
    legal = 0
    best = 0
    best_move = 0
    old_alpha = 0
    static = 0
    late = 0
    hash_move = 0
    reduce = 0
    flags = 0
    mode = _ENTER
    watch = search.watch
    watching = 1 if watch else 0
    while True:
        if mode == _ENTER:
            if watching:
                watch.enter(depth, alpha, beta)
            mode = _RETURN
            # Step 1. At the horizon, the ply limit or a full move buffer:
            # the capture search (quiescence.py) scores the node.
            if depth <= 0 or ply >= MAX_PLY - 1 or start + 256 > room:
                tally[0] = nodes
                tally[2] = stopped
                result = int(quiesce(search, alpha, beta, ply, start))
                nodes = tally[0]
                stopped = tally[2]
                continue
            # Step 2. Count the node; every 16th, look at the limits and input.
            nodes += 1
            if (nodes & CHECK_MASK) == 0:
                search.nodes = nodes
                search.check_limits()
                stopped = int(search.stopped)
            if stopped:
                result = 0
                continue
            us = state[_SIDE]
            them = us ^ _BOTH
            king = int(kings[us >> 4])
            if ply:
                # Step 3. Below the root: a captured king (LRS), a repetition,
                # the fifty-move rule.
                if lrs:
                    if not king:
                        result = -MATE + ply  # our king was captured
                        continue
                elif state[_HALFMOVE] >= 4 and _repeated(pos, game):
                    result = 0
                    continue
                elif state[_HALFMOVE] >= 100:
                    # The fifty-move rule, unless the move that reached it mated.
                    result = 0
                    if attacked(board_obj, king, them) and \
                            not has_legal_move(pos, moves_obj, start):
                        result = -MATE + ply
                    continue
                # Step 4. Mate-distance pruning: no mate found here can beat a shorter one.
                if alpha < -MATE + ply:
                    alpha = -MATE + ply
                if beta > MATE - ply - 1:
                    beta = MATE - ply - 1
                if alpha >= beta:
                    result = alpha
                    continue
            # Step 5. In check: one ply deeper. A window wider than one: a PV node.
            flags = 0
            if not lrs and attacked(board_obj, king, them):
                flags = _IN_CHECK
                depth += 1
            if beta - alpha > 1:
                flags |= _PV_NODE
            # Step 6. The transposition table: its move is searched first; its
            # score ends the node outside the PV when deep enough. (tt.probe
            # and tt.info's fields written inline, as the whole loop avoids a
            # call a node. Mates are stored counted from the node they were
            # found at, as step 15 stores them: the ply is added back.)
            key = state[_KEY]
            e = key % tt_size
            hash_move = 0
            if tt_info[e] and tt_keys[e] == key:
                hash_move = tt_moves[e]
                info = tt_info[e]
                if ply and not (flags & _PV_NODE) and (info & 63) - 1 >= depth:
                    score = tt_scores[e]
                    if score >= _BIAS:
                        score -= 65536  # a signed array, read unsigned
                    if score > MATE_BOUND:  # mates are stored from the node, not the root
                        score -= ply
                    elif score < -MATE_BOUND:
                        score += ply
                    bound = info >> 6
                    if bound == _EXACT or (bound == _LOWER and score >= beta) or \
                            (bound == _UPPER and score <= alpha):
                        result = score
                        continue
            # Step 7. Internal iterative reduction.
            if ply and not hash_move and depth >= 4:
                depth -= 1  # no move known here: search it less deep (internal iterative reduction)
            # Step 8. The static score (the network, or the mop-up), and whether it improves
            # on the side's two plies before.
            f = ply * FRAME
            static = -INFINITE
            if not (flags & _IN_CHECK):
                static = int(scoring(acc, rows8, rows, shape, pending, state[_PLY], us,
                                     counts_obj, kings_obj))
                flags |= _IMPROVING
                # Worse than two plies ago: this line is going nowhere, prune harder.
                if ply >= 2 and static <= frame[f - 2 * FRAME + _STATIC] - _BIAS:
                    flags ^= _IMPROVING
            frame[f + _STATIC] = _BIAS + static
            improving = 1 if flags & _IMPROVING else 0
            late = 999
            mode = _MOVES
            if not (flags & (_IN_CHECK | _PV_NODE)) and ply:
                # Step 9. Pruning before the moves (not in check, not in the PV).
                # Late-move pruning: near the leaves, quiet moves this late in
                # the order are skipped (no check to answer, no PV to keep).
                if depth <= 3:
                    late = (3 + depth * depth) // (2 - improving)
                if depth <= 2 and static + 150 * depth <= alpha and alpha < MATE_BOUND and \
                        alpha > -MATE_BOUND:
                    flags |= _FUTILE
                # Reverse futility: far above beta near the leaves, take the cut.
                margin = 100 * (depth - improving)
                if depth <= 5 and static - margin >= beta and beta < MATE_BOUND and \
                        beta > -MATE_BOUND:
                    result = static - margin
                    mode = _RETURN
                    continue
                # Null move: if passing still beats beta, a real move will too.
                if null_ok and depth >= 2 and static >= beta:
                    first = 16 if us != _WHITE else 0
                    for j in range(first, first + counts[us >> 4]):
                        kind = board[squares[j]] & 7
                        if kind != _PAWN and kind != _KING:  # not a pawn ending (zugzwang)
                            phase = _NULL
                            mode = _DESCEND
                            break
        if mode == _RETURN:
            # Step 17. Back to the parent, its node from its frame.
            if watching:
                watch.leave(result)
            if ply == 0:
                break
            ply -= 1
            f = ply * FRAME
            score = -result
            alpha = frame[f + _ALPHA] - _BIAS
            beta = frame[f + _BETA] - _BIAS
            depth = frame[f + _DEPTH]
            start = frame[f + _START]
            late = frame[f + _LATE]
            hash_move = frame[f + _HASH_MOVE]
            flags = frame[f + _FLAGS]
            phase = flags // _PHASE
            flags = flags % _PHASE
            if phase == _NULL:
                # Step 18. The null move's score: a cut, or search the moves.
                pos.pop_null()
                if stopped:
                    result = 0
                    continue
                if score >= beta:
                    result = beta if score >= MATE_BOUND else score
                    continue
                mode = _MOVES
            else:
                end = frame[f + _END]
                i = frame[f + _NEXT]
                move = frame[f + _MOVE]
                legal = frame[f + _LEGAL]
                best = frame[f + _BEST] - _BIAS
                best_move = frame[f + _BEST_MOVE]
                old_alpha = frame[f + _OLD_ALPHA] - _BIAS
                reduce = frame[f + _REDUCE]
                # Step 19. Re-search a move whose score may be wrong.
                if phase == _ROOT_ALL:
                    search.root_moves[legal - 1] = move
                    search.root_scores[legal - 1] = score
                    search.root_count = legal
                elif phase == _REDUCED and score > alpha and reduce:
                    phase = _UNREDUCED  # a reduced search that beat alpha: again unreduced
                    mode = _DESCEND
                elif (phase == _REDUCED or phase == _UNREDUCED) and score > alpha and \
                        score < beta:
                    phase = _FULL  # inside the window: again with all of it
                    mode = _DESCEND
                if mode != _DESCEND:
                    # Step 20. The move's score is known.
                    pop_move(board_obj, squares_obj, slot, counts_obj, kings_obj, state_obj, saved,
                             move)
                    if stopped:
                        result = 0
                        continue
                    if score > best:
                        best = score
                        best_move = move
                        if ply == 0:
                            search.best_root = move
                            replies[_ROOT_REPLY] = replies[_CHILD]
                        if score > alpha:
                            alpha = score
                            if ply == 0:
                                search.root_raised = move
                            if score >= beta:
                                if flags & _QUIET:
                                    record_cut(board_obj, moves_obj, killers_obj, history, start,
                                               i, depth, ply)
                                    counter_at = frame[f + _COUNTER_AT]
                                    if counter_at:
                                        counters[counter_at] = move
                                i = end  # a cut: no more moves
                    i += 1
                    mode = _NEXT_MOVE
        if mode == _MOVES:
            # Step 10. Generate the moves; order them (hash move, captures,
            # killers, the counter move, history).
            end = int(generate(pos, moves_obj, start))
            f = ply * FRAME
            counter_at = 0
            if ply and frame[f - FRAME + _FLAGS] // _PHASE != _NULL:
                to = (frame[f - FRAME + _MOVE] >> 6) & 63  # the move that led here
                counter_at = 1 + ((int(board[to120[to]]) & 7) << 6 | to)
            frame[f + _COUNTER_AT] = counter_at
            order_moves(board_obj, moves_obj, order_obj, start, end, hash_move, killers[2 * ply],
                        killers[2 * ply + 1], counters[counter_at], history, 1, lifted)
            i = start
            best = -INFINITE
            best_move = 0
            legal = 0
            old_alpha = alpha
            mode = _NEXT_MOVE
        if mode == _NEXT_MOVE:
            us = state[_SIDE]
            them = us ^ _BOTH
            in_check = flags & _IN_CHECK
            while i < end:
                # Step 11. Pick the best-ordered remaining move and swap it to i (as
                # quiescence does: a call for each move cost more than this loop).
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
                kind = move >> 12
                quiet = 0  # 1 a quiet move, 2 a capture that loses material
                if kind < _PROMOTE_N and kind != _EN_PASSANT:
                    if board[to120[(move >> 6) & 63]] == 0:
                        quiet = 1
                    elif top < _KILLER and kind != _CASTLE:  # put among the quiet moves
                        quiet = 2  # (by ordering.py; castling takes its own rook)
                # A checking move is never pruned or reduced: it may start a
                # mate. (Asked only of the quiet moves that would be, and
                # before making the move, so a pruned move costs little.)
                # Step 12. Prune a quiet move or a losing capture near the leaves.
                checks = 0
                if quiet and legal and ply and not in_check:
                    # Near the leaves, a quiet move that leaves its piece to
                    # be taken for nothing is not worth a look either.
                    prune = 0
                    if quiet == 2:
                        if depth <= 2 and not (flags & _PV_NODE):
                            prune = 1
                    elif (flags & _FUTILE) or legal >= late or \
                            (depth <= 3 and
                             not see_ge(board_obj, move, -20 * depth * (depth + 1), lifted)):
                        prune = 1
                    if not lrs and (prune or (depth >= 3 and legal >= 3)) and \
                            gives_check(board_obj, move, kings[them >> 4]):
                        checks = 1
                    if prune and not checks:
                        i += 1
                        continue
                # Step 13. Make the move; take it back if it leaves the king attacked.
                fr = int(to120[move & 63])
                king = int(kings[us >> 4])
                push_move(board_obj, squares_obj, slot, counts_obj, kings_obj, castle_mask,
                          state_obj, saved, move, en_passant, pending, hidden)
                # Out of check, a move can leave the king attacked only if it
                # is a king's move, en passant, or leaves a line to the king.
                if not lrs and (in_check or fr == king or kind == _EN_PASSANT or
                                int(line[fr - king + 77])) and \
                        attacked(board_obj, kings[us >> 4], them):
                    pop_move(board_obj, squares_obj, slot, counts_obj, kings_obj, state_obj, saved,
                             move)
                    i += 1
                    continue
                # Step 14. Which search the move gets (the phase), and its reduction.
                legal += 1
                flags = (flags | _QUIET) if quiet == 1 else (flags & ~_QUIET)
                reduce = 0
                if ply == 0 and root_all:
                    phase = _ROOT_ALL
                elif legal == 1:
                    phase = _FIRST
                else:
                    phase = _REDUCED
                    # Late-move reductions: quiet moves and losing captures late in the order.
                    if ply and depth >= 3 and legal > 3 and quiet and not in_check and \
                            not checks and int(order[i]) < _KILLER - 2:
                        cell = (depth if depth < 16 else 15) * 32 + (legal if legal < 32 else 31)
                        reduce = (lmr[cell >> 1] >> ((cell & 1) << 2)) & 15
                        if (flags & _PV_NODE) and reduce:
                            reduce -= 1
                        if not (flags & _IMPROVING):
                            reduce += 1
                mode = _DESCEND
                break
            if mode != _DESCEND:
                # Step 15. No more moves: the node is done. Mates go into the
                # table counted from this node (step 6 counts them back).
                if legal == 0:
                    result = -MATE + ply if lrs or in_check else 0
                else:
                    bound = _LOWER if best >= beta else (_EXACT if best > old_alpha else _UPPER)
                    tt.store(state[_KEY], depth, bound,
                             best + ply if best > MATE_BOUND else
                             (best - ply if best < -MATE_BOUND else best), best_move)
                    if ply == 1:
                        replies[_CHILD] = best_move
                    result = best
                mode = _RETURN
                continue
        if mode == _DESCEND:
            # Step 16. Keep the node in its frame and set up the search below it.
            f = ply * FRAME
            frame[f + _ALPHA] = _BIAS + alpha
            frame[f + _BETA] = _BIAS + beta
            frame[f + _BEST] = _BIAS + best
            frame[f + _OLD_ALPHA] = _BIAS + old_alpha
            frame[f + _DEPTH] = depth
            frame[f + _START] = start
            frame[f + _END] = end
            frame[f + _NEXT] = i
            frame[f + _MOVE] = move
            frame[f + _LEGAL] = legal
            frame[f + _BEST_MOVE] = best_move
            frame[f + _LATE] = late
            frame[f + _HASH_MOVE] = hash_move
            frame[f + _REDUCE] = reduce
            frame[f + _FLAGS] = flags | phase * _PHASE
            null_ok = 1
            if ply == 0:
                replies[_CHILD] = 0  # until the move's node has finished
            if phase == _NULL:
                pos.push_null()
                null_move(pending, state[_PLY] - 1)
                extra = (static - beta) // 200  # far above beta: reduce more
                depth = depth - 3 - depth // 4 - (extra if extra < 3 else 3)
                alpha = -beta
                beta = alpha + 1
                null_ok = 0
            else:
                start = end
                depth -= 1
                if phase == _ROOT_ALL:
                    alpha = -INFINITE
                    beta = INFINITE
                elif phase == _REDUCED or phase == _UNREDUCED:
                    depth -= reduce if phase == _REDUCED else 0
                    beta = -alpha
                    alpha = beta - 1
                else:
                    alpha, beta = -beta, -alpha
            ply += 1
            mode = _ENTER
    search.nodes = nodes
    search.seldepth = tally[1]
    return result

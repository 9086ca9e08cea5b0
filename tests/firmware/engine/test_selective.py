"""The search's selective rules, watched from outside on both runtimes.

A Watch is the search's `watch`, told of each node as the search enters and
leaves it, and it wraps the position's null move; it checks each rule as the
tree is searched: null move (never in check, never for a side with only
pawns and its king), check extension, late-move reductions (never in
check, of a checking move or at the root) and their re-search, captures
that lose material (skipped near the horizon outside the PV, reduced
deeper),
principal-variation search and its re-search, and aspiration windows.
It keeps only the path from the root, so it fits MicroPython's heap. A
broken rule fails every test here, named in the message; each test also
asserts that its own rule was used, so a rule switched off fails too.
"""
from micro960.rules.game import Game
from micro960.rules.position import CASTLE, EN_PASSANT, PROMOTE_N
from micro960.rules.ucimove import move_from, move_to
from micro960.engine.see import VALUES, see_ge
from micro960.engine.search import FRAME, INFINITE, MATE, Limits, Search

_MOVE = 9  # engine/search.py's frame field: the move searched below a node

HASH_KB = 4
# Middlegames with checks, captures and quiet moves in their trees.
MIDDLEGAMES = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1b1kbnr/pp1n1ppp/2q1p3/2ppP3/3P4/2PB1N2/PP3PPP/RNBQK2R w KQkq - 3 7",
)
# White has a knight, Black only pawns: White may pass, Black must not.
PAWN_ENDING = "8/5pk1/6p1/3p3p/3P1N1P/6P1/5PK1/8 b - - 0 1"


def _pieces(pos):
    """Does the side to move have a piece other than pawns and its king?
    (Read from the FEN, apart from the search's own bookkeeping.)"""
    fields = pos.fen().split()
    mine = "NBRQ" if fields[1] == "w" else "nbrq"
    return any(c in mine for c in fields[0])


class Watch:
    """Checks the rules at every node of the search.

    A frame of the path is [depth, alpha, beta, in check, first child's
    depth, key of a child to be searched again or 0, why, children seen,
    a null move's child?, key];
    the counts are what the tests assert on.
    """

    def __init__(self, search, game):
        self.pos = game.pos
        self.path = []
        self.null_child = False
        self.counts = {}
        self.broken = []
        self.inner_root = search._root
        self.frames = search.plies
        search.watch = self
        search._root = self._root
        self.windows = []  # (depth, alpha, beta, score) of each root search
        push_null = self.pos.push_null

        def pushed():
            self._pass()
            push_null()
            self.null_child = True

        self.pos.push_null = pushed

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def fail(self, what):
        if len(self.broken) < 5:
            self.broken.append(what + " at " + self.pos.fen())

    def _pass(self):
        parent = self.path[-1]
        self.count("null moves")
        if parent[3]:
            self.fail("null move in check")
        if not _pieces(self.pos):
            self.fail("null move with only pawns")

    def _root(self, depth, alpha, beta):
        score = self.inner_root(depth, alpha, beta)
        self.windows.append((depth, alpha, beta, score))
        return score

    def enter(self, depth, alpha, beta):
        key = self.pos.state[4]
        null_child = self.null_child
        self.null_child = False
        parent = self.path[-1] if self.path else None
        if parent and null_child:
            self.count("null children")
            if depth > parent[0] - 3:
                self.fail("null move searched %d deep at depth %d" % (depth, parent[0]))
        in_check = self.pos.in_check()
        if parent and not null_child:
            self._child(parent, key, depth, alpha, beta, in_check)
        if parent:
            # The window the node searches with: no mate found below it can
            # beat one found nearer the root (mate-distance pruning).
            ply = len(self.path)
            alpha, beta = max(alpha, -MATE + ply), min(beta, MATE - ply - 1)
        self.path.append([depth, alpha, beta, in_check, 0, 0, "", 0, null_child, key])

    def leave(self, score):
        depth, alpha, beta, _, _, again, why, _, null_child, key = self.path.pop()
        if again:
            self.fail("the last move was not searched again " + why)
        parent = self.path[-1] if self.path else None
        if parent and null_child and -score >= parent[2]:
            self.count("null move cuts")
        elif parent and not null_child:
            self._returned(parent, key, depth, alpha, beta, score)

    def _child(self, parent, key, depth, alpha, beta, gives_check):
        """Rules on how deep and how wide a move's reply is searched."""
        d, _, _, in_check, first, again, why, seen = parent[:8]
        parent[7] = seen + 1
        if in_check:
            # One ply deeper than other moves: as deep as the node itself.
            # (From depth 3, a node with no hash move loses that ply again.)
            if depth != d and (d <= 2 or depth != d - 1):
                self.fail("a reply to check at depth %d searched %d deep" % (d, depth))
            if d == 2:
                self.count("replies to check at depth 2")
        if not seen:
            parent[4] = depth
            return
        if again:
            parent[5] = 0
            if key != again or depth != first:
                self.fail("a move was not searched again %d deep %s" % (first, why))
            self.count("searched again " + why)
            return
        losing = not in_check and not gives_check and self._loses_material()
        if losing and d <= 2 and parent[2] - parent[1] == 1:
            self.fail("a losing capture searched %d plies from the horizon outside the PV" % d)
        if depth < first:
            self.count("reduced")
            if losing:
                self.count("losing captures reduced")
            if depth < first - 1:
                self.count("reduced two plies or more")
            if in_check or gives_check or len(self.path) == 1:
                self.fail("a move reduced in check, giving check or at the root")
        if parent[2] - parent[1] > 1:
            if beta - alpha > 1:
                self.fail("a later move of a PV node searched with a full window first")
            self.count("null windows in PV nodes")

    def _loses_material(self):
        """Was the move to this node a capture that loses material by static
        exchange, a more valuable piece taking a less valuable one?"""
        move = self.frames[(len(self.path) - 1) * FRAME + _MOVE]
        flag = move >> 12
        if flag == EN_PASSANT or flag == CASTLE or flag >= PROMOTE_N:
            return False
        pos = self.pos
        pos.pop(move)  # the position the move was made in, for a moment
        board = pos.board
        victim = board[move_to(move)] & 7
        losing = victim and VALUES[board[move_from(move)] & 7] > VALUES[victim] and \
            not see_ge(board, move, 0, pos.lifted)
        pos.push(move)
        return losing

    def _returned(self, parent, key, depth, alpha, beta, score):
        """A reduced or null-window search that beat alpha is searched again."""
        _, p_alpha, p_beta, _, first, _, _, seen = parent[:8]
        if seen == 1 or score >= beta:  # the first move, or this one is no better
            return
        if depth < first:
            parent[5] = key  # the next search must be this move again
            parent[6] = "after a reduction"
        elif p_beta - p_alpha > 1 and beta - alpha == 1 and -score < p_beta:
            parent[5] = key
            parent[6] = "with the full window"


def watch(fen, depth, rules="chess960"):
    game = Game(rules, fen)
    search = Search(HASH_KB)
    seen = Watch(search, game)
    search.think(game, Limits(depth=depth))
    assert not seen.broken, seen.broken
    return seen


def counts_of(depth):
    """The counts of the middlegames' searches to `depth`, added up."""
    counts = {}
    for fen in MIDDLEGAMES:
        for name, n in watch(fen, depth).counts.items():
            counts[name] = counts.get(name, 0) + n
    return counts


def test_null_move_is_tried_and_cuts_but_never_in_check():
    counts = counts_of(5)
    assert counts.get("null move cuts", 0) > 20, counts
    assert counts["null children"] == counts["null moves"], counts


def test_null_move_only_for_the_side_with_a_piece_in_a_pawn_ending():
    counts = watch(PAWN_ENDING, 8, "classical").counts
    assert counts.get("null moves", 0) > 20, counts


def test_a_reply_to_check_is_searched_a_ply_deeper():
    counts = counts_of(5)
    assert counts.get("replies to check at depth 2", 0) > 10, counts


def test_late_quiet_moves_are_reduced_and_searched_again_when_they_beat_alpha():
    counts = counts_of(6)  # (at depth 5, only a few reduced moves beat alpha)
    assert counts.get("reduced", 0) > 100, counts
    # Later moves of deeper nodes lose more than one ply (LMR_TABLE).
    assert counts.get("reduced two plies or more", 0) > 50, counts
    assert counts.get("searched again after a reduction", 0) >= 5, counts
    assert counts.get("losing captures reduced", 0) > 5, counts


def test_later_moves_of_a_pv_node_get_a_null_window_then_the_full_one_if_inside():
    counts = counts_of(5)
    assert counts.get("null windows in PV nodes", 0) > 20, counts
    assert counts.get("searched again with the full window", 0) >= 5, counts


# Where the score moves by more than a window from one depth to the next
# (a queen ending, a middlegame of the network's own games): the windows widen.
SWINGS = (
    "8/Pk6/8/1PQ4P/2P5/3P1b2/3K4/7q b - - 0 60",
    "3k2r1/3p4/3np3/1pr4p/6p1/3PNN2/P1P3R1/1K6 w - - 0 28",
)


def test_aspiration_windows_from_depth_4_and_wider_when_the_score_falls_outside():
    widened = 0
    for fen in MIDDLEGAMES + SWINGS:
        windows = watch(fen, 6).windows
        last = 0  # the score of the last finished depth
        for i, (depth, alpha, beta, score) in enumerate(windows):
            again = i and windows[i - 1][0] == depth
            if depth < 4:
                assert (alpha, beta) == (-INFINITE, INFINITE), windows
            elif again:
                widened += 1
                before = windows[i - 1]
                assert not before[1] < before[3] < before[2], windows
                assert alpha < before[3] < beta and beta - alpha > before[2] - before[1], windows
            else:
                assert (alpha, beta) == (last - 40, last + 40), windows
            if alpha < score < beta:
                last = score
            else:  # outside: this depth must be searched again
                assert windows[i + 1][0] == depth, windows
    assert widened, "no window was widened"

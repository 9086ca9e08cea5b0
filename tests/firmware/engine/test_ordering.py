"""Move ordering (ordering.py) on both runtimes: the order in which the
search takes a node's moves, and what a cut teaches the killers and history.
"""
from micro960.compat import zeros
from micro960.rules.movegen import move_buffer, pseudo_moves
from micro960.engine.ordering import HISTORY_MAX, KILLER, age_history, order_moves, record_cut
from micro960.rules.position import TO64, Position, piece_row
from micro960.rules.ucimove import move_from, move_to, parse_uci, uci_text

# White can take the queen (Nxb5), the rook three ways (the queen's
# capture is safe: the bishop and the knight stand behind it), a knight
# while promoting (axb8), a pawn safely (axb4) and a guarded pawn two ways
# (on e4, each losing material), and can promote without a capture (a8).
FEN = "1n2k3/P5b1/8/1q1r1p2/1p2p3/PBN5/5PPP/3QR1K1 w - - 0 1"


class Node:
    """A node's move buffer, ordered as the search orders it."""

    def __init__(self, fen=FEN):
        self.pos = Position(fen)
        self.moves = move_buffer()
        self.order = zeros("H", len(self.moves))
        self.end = pseudo_moves(self.pos, self.moves, 0)
        self.killers = zeros("H", 4)
        self.counter = 0
        self.history = zeros("H", 12 * 64)

    def move(self, text):
        return parse_uci(self.pos, text)

    def cut(self, text, depth, tried=()):
        """`text` caused a cut at ply 0, `depth` deep, after the moves `tried`
        (put in the buffer past the node's own moves, as the search's are)."""
        for i, move in enumerate(tried + (text,)):
            self.moves[self.end + i] = self.move(move)
        record_cut(self.pos.board, self.moves, self.killers, self.history, self.end,
                   self.end + len(tried), depth, 0)

    def picked(self, hash_move="", guarded=1):
        """All the moves, in the order the search takes them: the best-ordered
        remaining one each time, the first of equals."""
        order_moves(self.pos.board, self.moves, self.order, 0, self.end,
                    self.move(hash_move) if hash_move else 0, self.killers[0],
                    self.killers[1], self.counter, self.history, guarded, self.pos.lifted)
        left = list(range(self.end))
        taken = []
        while left:
            best = left[0]
            for i in left:
                if self.order[i] > self.order[best]:
                    best = i
            left.remove(best)
            taken.append(uci_text(self.pos, self.moves[best]))
        return taken

    def score(self, text):
        """The ordering score order_moves gave `text`."""
        move = self.move(text)
        for i in range(self.end):
            if self.moves[i] == move:
                return self.order[i]
        raise ValueError(text)


def in_groups(picked, groups):
    """Does `picked` start with the groups in turn, in any order within each
    (moves of equal score come in the order they were generated)?"""
    i = 0
    for group in groups:
        assert sorted(picked[i:i + len(group)]) == sorted(group), (i, group, picked)
        i += len(group)


def taught():
    """A node after four cuts: killers h2h3 and f2f4, history for Qh5 and Kh1."""
    node = Node()
    node.cut("g1h1", 10)  # history 100
    node.cut("d1h5", 22)  # history 484
    node.cut("f2f4", 1)
    node.cut("h2h3", 1)
    return node


def test_hash_move_then_captures_by_victim_and_attacker_then_killers_then_history():
    node = taught()
    picked = node.picked("g2g3")
    in_groups(picked, [
        ["g2g3"],  # the hash move, quiet as it is
        ["a7b8q"],  # takes a knight and makes a queen
        ["c3b5"],  # takes the queen
        ["a7a8q"],  # a queen without a capture
        ["c3d5"], ["b3d5"], ["d1d5"],  # a rook: the least valuable piece first
        ["a7b8r", "a7b8b", "a7b8n"],  # a knight, by a pawn
        ["a3b4"],  # a pawn
        ["h2h3"], ["f2f4"],  # the killers, the latest first
        ["d1h5"], ["g1h1"],  # quiet moves by history
        ["c3e4", "e1e4"],  # they lose material: after the good quiet moves
    ])
    assert len(picked) == node.end == len(set(picked))


def test_the_counter_move_comes_after_the_killers_and_before_history():
    node = taught()
    node.counter = node.move("g1h1")  # the quiet move of least history
    picked = node.picked()
    start = picked.index("h2h3")
    assert picked[start:start + 4] == ["h2h3", "f2f4", "g1h1", "d1h5"], picked
    assert node.score("g1h1") == KILLER - 2


def test_losing_captures_stay_among_the_captures_in_quiescence():
    picked = taught().picked(guarded=0)
    start = picked.index("a3b4")
    assert picked[start:start + 4] == ["a3b4", "c3e4", "e1e4", "h2h3"], picked


def test_a_cut_by_the_first_killer_again_keeps_the_second():
    node = taught()
    node.cut("h2h3", 1)
    assert (node.killers[0], node.killers[1]) == (node.move("h2h3"), node.move("f2f4"))


def test_history_stays_below_the_killers():
    node = taught()
    node.cut("d1h5", 200)
    node.cut("d1h5", 200)
    node.cut("f2f4", 1)  # the killers again
    node.cut("h2h3", 1)
    assert node.picked()[:3] == ["a7b8q", "c3b5", "a7a8q"]
    assert node.score("d1h5") == HISTORY_MAX
    assert node.score("d1h5") < node.score("f2f4") < node.score("h2h3")


def history_index(node, text):
    """Where the history of `text` is: by moving piece and destination."""
    move = node.move(text)
    piece = node.pos.board[move_from(move)]
    return (piece_row(piece) << 6) | TO64[move_to(move)]


def history_of(node, text):
    return node.history[history_index(node, text)]


def test_quiet_moves_tried_before_a_cut_lose_history_but_captures_and_promotions_do_not():
    node = taught()
    for text in ("e1e4", "a7a8r"):  # the entries of a capture and a promotion: 25
        node.history[history_index(node, text)] = 25  # (as quiet moves 5 deep would give)
    tried = ("d1h5", "g1h1", "e1e4", "a7a8r")
    node.cut("h2h3", 12, tried)
    # g1h1 had 100, less than the 144 taken: it stays at 0.
    assert [history_of(node, text) for text in tried] == [484 - 144, 0, 25, 25]
    assert history_of(node, "h2h3") == 1 + 144 and node.killers[0] == node.move("h2h3")


def test_a_new_search_keeps_a_quarter_of_the_history():
    node = taught()
    node.cut("d1h5", 100)  # 484 + 10000
    age_history(node.history)
    assert (history_of(node, "d1h5"), history_of(node, "g1h1")) == (10484 // 4, 100 // 4)
    assert sum(node.history) == 10484 // 4 + 100 // 4  # (the killers' 1s go to 0)

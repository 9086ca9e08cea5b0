"""The hand-written evaluation: symmetry, and each term the right way round.

Each term test compares positions that differ only in what the term looks
at, with the pieces placed so that the other terms come out the same (or
cancel), so removing or turning round the term fails the test. The margins
are about half of what the terms give now, to leave room for tuning.
"""
from host_tools.nnue.handwritten import evaluate
from micro960.rules.movegen import legal_moves, move_buffer
from micro960.rules.position import Position

from support import tsv_rows


def score(fen):
    """The evaluation of `fen` for the side to move (White in the FENs below)."""
    return evaluate(Position(fen))


def _swapcase(text):  # MicroPython's str has no swapcase()
    return "".join(c.lower() if c.isupper() else c.upper() for c in text)


def colours_swapped(fen):
    """The same position with the colours swapped: ranks mirrored, White for Black."""
    f = fen.split()
    f[0] = _swapcase("/".join(reversed(f[0].split("/"))))
    f[1] = "b" if f[1] == "w" else "w"
    rights = _swapcase(f[2])  # White's letters first, as FEN has them
    f[2] = "".join(c for c in rights if c.isupper()) + "".join(c for c in rights if not c.isupper())
    if f[3] != "-":
        f[3] = f[3][0] + ("6" if f[3][1] == "3" else "3")
    return " ".join(f)


def files_mirrored(fen):
    """The same position seen in a mirror: file a for h (Shredder-FEN castling)."""
    f = fen.split()
    f[0] = "/".join("".join(reversed(rank)) for rank in f[0].split("/"))

    def mirror(c):
        m = chr(ord("a") + ord("h") - ord(c.lower()))
        return m.upper() if c.isupper() else m
    if f[2] != "-":
        f[2] = "".join(mirror(c) for c in f[2])
    if f[3] != "-":
        f[3] = mirror(f[3][0]) + f[3][1]
    return " ".join(f)


def _random_positions(count, every):
    """FENs from random games out of Chess960 start positions (a fixed LCG)."""
    seed = 960
    buf = move_buffer()
    for row in tsv_rows("sp960.tsv"):
        if not count:
            return
        pos = Position(row[3])
        for ply in range(1, 61):
            n = legal_moves(pos, buf, 0)
            if not n:
                break
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            pos.push(buf[(seed >> 8) % n])
            pos.commit()
            if ply % every == 0:
                yield pos.fen(shredder=True)
                count -= 1


def test_the_score_does_not_depend_on_colour_or_side():
    # Floor division rounds the tapered sum down for White's score, so the
    # colour-swapped position may read 1 cp apart; never more.
    checked = 0
    for fen in _random_positions(120, 7):
        a = score(fen)
        assert abs(score(colours_swapped(fen)) - a) <= 1, fen
        assert score(files_mirrored(fen)) == a, fen
        checked += 1
    assert checked == 120


def test_start_positions_score_level():
    # Every start position is symmetric: whatever the back rank, no bonus
    # for one side (the values assume no particular start position).
    for row in tsv_rows("sp960.tsv"):
        if int(row[0]) % 40 == 0:
            assert abs(score(row[3])) <= 1, row[3]


def test_a_king_hides_in_the_middlegame_and_comes_out_in_the_endgame():
    # Middlegame: castled, behind its pawns, against the same king on e3.
    assert score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1") >= \
        score("rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1R2 w kq - 0 1") + 40
    # Endgame: a king in the centre against one in the corner.
    assert score("7k/p7/8/8/4K3/8/P7/8 w - - 0 1") >= score("7k/p7/8/8/8/8/P7/7K w - - 0 1") + 40


def test_the_second_bishop_is_worth_more_than_the_first():
    pawns = "6k1/pppppppp/8/8/8/8/PPPPPPPP/"
    first = score(pawns + "5BK1 w - - 0 1") - score(pawns + "6K1 w - - 0 1")
    second = score(pawns + "2B2BK1 w - - 0 1") - score(pawns + "2B3K1 w - - 0 1")
    assert second >= first + 30


def test_a_passed_pawn_is_worth_more():
    # e5 is passed when Black's pawn is on b7, not when it is on d7 (and
    # Black's lone pawn is not passed in either).
    assert score("7k/1p6/8/4P3/8/8/8/K7 w - - 0 1") >= \
        score("7k/3p4/8/4P3/8/8/8/K7 w - - 0 1") + 30


def test_isolated_pawns_are_weak():
    # a3 and b3 guard each other's files; a3 and c3 are both isolated.
    assert score("6k1/ppp5/8/8/8/PP6/8/6K1 w - - 0 1") >= \
        score("6k1/ppp5/8/8/8/P1P5/8/6K1 w - - 0 1") + 15


def test_doubled_pawns_are_weak():
    assert score("6k1/1ppp4/8/8/8/8/1PPP4/6K1 w - - 0 1") >= \
        score("6k1/1ppp4/8/8/8/2P5/1PP5/6K1 w - - 0 1") + 10


def test_a_rook_likes_a_file_without_its_own_pawns():
    # The rook on a1 is boxed in by the knight either way; only the pawn's
    # file changes, a (closed to the rook) or b (the a-file half-open).
    assert score("6k1/pp6/8/8/8/1P6/N7/R5K1 w - - 0 1") >= \
        score("6k1/pp6/8/8/8/P7/N7/R5K1 w - - 0 1") + 3


def test_a_bishop_with_more_squares_is_worth_more():
    # Black's knight blocks the long diagonal on b2, or stands on g7 where
    # its own value and reach are the same.
    assert score("4k3/6n1/8/8/8/8/8/B3K3 w - - 0 1") >= \
        score("4k3/8/8/8/8/8/1n6/B3K3 w - - 0 1") + 15


def test_pieces_bearing_on_the_king_are_a_danger():
    # What the queen adds with the rook beside it on the king's pawns,
    # against what it adds when the king has gone to a8.
    def queen_gain(king_rank):
        position = king_rank + "/pp3ppp/1qrr4/%s/8/6R1/5PPP/6K1 w - - 0 1"
        return score(position % "7Q") - score(position % "8")
    assert queen_gain("6k1") >= queen_gain("k7") + 6


def test_castling_rights_are_worth_keeping():
    position = "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w %s - 0 1"
    assert score(position % "KQkq") >= score(position % "kq") + 8


def test_mop_up_drives_the_bare_king_to_the_edge():
    assert score("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1") >= \
        score("8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1") + 50

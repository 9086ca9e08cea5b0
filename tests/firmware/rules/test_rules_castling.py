"""Castling at the edges of the orthodox rule sets: shuffle with the king on
d, as the Internet Chess Servers play it, and classical chess refusing the
castling rights python-chess's Board.status() calls bad.

The shuffle seed: "When played on an Internet Chess Server, the King can
also start on the d-file, and you can castle from there"; the king moves two
squares towards the rook and the rook goes to the square the king skipped.
XBoard calls this variant wildcastle and writes the castlings d1f1 and d1b1.
"""
from micro960.rules.game import Game
from micro960.rules.pgn import Replayer, game_pgn
from micro960.rules.position import Position
from micro960.rules.variants import Rules

from game_text import san_moves, uci_moves
from support import raises

KING_ON_D = "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"


def back_ranks(game):
    ranks = game.pos.fen().split()[0].split("/")
    return ranks[7], ranks[0]


def test_shuffle_with_the_king_on_d_castles_two_squares_towards_the_rook():
    game = Game("shuffle", KING_ON_D)
    game.play("O-O")  # Kd1-f1, Rh1-e1 (Chess960 would go to g1 and f1)
    game.play("O-O-O")  # Kd8-b8, Ra8-c8
    assert back_ranks(game) == ("R3RK2", "1kr4r")
    assert uci_moves(game) == ["d1f1", "d8b8"]  # the king's squares, as XBoard writes them
    assert san_moves(game) == ["O-O", "O-O-O"]
    game = Game("shuffle", KING_ON_D)
    game.play("O-O-O")
    game.play("O-O")
    assert back_ranks(game) == ("1KR4R", "r3rk2")
    assert uci_moves(game) == ["d1b1", "d8f8"]


def test_shuffle_castlings_are_read_in_every_form():
    for white, black in (("d1f1", "d8b8"), ("d1h1", "d8a8"), ("O-O", "O-O-O"), ("0-0", "o-o-o")):
        game = Game("shuffle", KING_ON_D)
        game.play(white)
        game.play(black)
        assert back_ranks(game) == ("R3RK2", "1kr4r"), (white, black)
    # Chess960's destination is not these rules' castling (and d1c1 is a king step).
    game = Game("shuffle", KING_ON_D)
    assert raises(ValueError, game.play, "d1g1")
    game.play("d1c1")
    assert back_ranks(game)[0] == "R1K4R"


def test_shuffle_castlings_in_uci_text_both_ways():
    """The UCI engine reads both forms and writes king-takes-rook with
    UCI_Chess960, the king's square without."""
    from micro960.rules.ucimove import parse_uci, uci_text
    pos = Position()
    Rules("shuffle").apply(pos)
    pos.set_fen(KING_ON_D)
    for rook, king in (("d1h1", "d1f1"), ("d1a1", "d1b1")):
        move = parse_uci(pos, king)
        assert parse_uci(pos, rook) == move
        assert (uci_text(pos, move, True), uci_text(pos, move, False)) == (rook, king)
    assert raises(ValueError, parse_uci, pos, "d1g1")


def test_shuffle_castling_from_d_is_stopped_by_attacks_and_pieces_between():
    # The king's square, the one it crosses and the one it lands on.
    for black in ("3rk3", "4rk2", "1k3r2"):
        game = Game("shuffle", black + "/8/8/8/8/8/8/R2K3R w KQ - 0 1")
        assert raises(ValueError, game.play, "O-O"), black
    # g1 is the rook's path only, free to be attacked; a piece between stops it.
    game = Game("shuffle", "1k4r1/8/8/8/8/8/8/R2K3R w KQ - 0 1")
    game.play("O-O")
    assert back_ranks(game)[0] == "R3RK2"
    game = Game("shuffle", "1k6/8/8/8/8/8/8/R2K2NR w KQ - 0 1")
    assert raises(ValueError, game.play, "O-O")
    game.play("O-O-O")
    assert back_ranks(game)[0] == "1KR3NR"


def test_shuffle_with_the_king_on_d_comes_back_from_its_pgn_and_fen():
    game = Game("shuffle", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1")
    for move in "Nf3 Nf6 g3 g6 Bg2 Bg7 e4 e5 Qe2 Qe7 O-O O-O".split():
        game.play(move)
    assert back_ranks(game) == ("RNB1RK2", "rnb1rk2")
    reader = Replayer()
    done = None
    for line in game_pgn(game).split("\n"):
        done = reader.feed(line + "\n") or done
    tags, again, error = done or reader.finish()
    assert error is None and tags["Variant"] == "Shuffle" and again.rules.name == "shuffle"
    assert again.pos.fen() == game.pos.fen()
    # The position after, as a FEN, keeps the rights still there.
    game = Game("shuffle", KING_ON_D)
    game.play("O-O")
    assert game.pos.fen().split()[2] == "kq"
    again = Game("shuffle", game.pos.fen())
    again.play("O-O-O")
    assert back_ranks(again) == ("R3RK2", "1kr4r")


def test_shuffle_castles_only_from_d_or_e_with_the_rook_in_its_corner():
    assert raises(ValueError, Game, "shuffle", "r1k4r/8/8/8/8/8/8/R1K4R w KQkq - 0 1")
    assert raises(ValueError, Game, "shuffle", "r3k1r1/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1")
    assert Game("shuffle", "r1k4r/8/8/8/8/8/8/R1K4R w - - 0 1").result() == "*"


def test_classical_refuses_castling_rights_python_chess_calls_bad():
    """Its castling once took any king and rook, Chess960 fashion: king on d1,
    O-O gave R4RK1. python-chess's Board.status() flags these rights
    STATUS_BAD_CASTLING_RIGHTS (tests/test_rules_perft.py asks it)."""
    pos = Position()
    Rules("classical").apply(pos)
    for fen in (KING_ON_D,
                "r3k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # Black's k-side rook on g8
                "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1",  # Q: the rook on b1
                "4k3/8/8/8/8/8/8/R4K1R w K - 0 1"):  # the king on f1
        before = pos.fen()
        try:
            pos.set_fen(fen)
            assert False, fen
        except ValueError as e:
            assert "castle only with the king on e" in str(e), (fen, e)
        assert pos.fen() == before  # nothing changed
    pos.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    pos.set_fen("4k3/8/8/8/8/8/8/R4K1R w - - 0 1")
    # Chess960 takes the king on d and castles to g1/f1 as before.
    game = Game("chess960", KING_ON_D)
    game.play("O-O")
    assert back_ranks(game)[0] == "R4RK1"

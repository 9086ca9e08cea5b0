"""Every rule set: its set-ups and their numbers, back ranks accepted where the
rules allow them, and Chess480's castling checked by hand against Lewis's text.
"""
from micro960.rules.game import Game
from micro960.rules.notation import san
from micro960.rules.position import Position
from micro960.rules.pgn import named
from micro960.rules.variants import NAMES, Rules
from micro960.rules.startpos import (random_setup, setup_fen, setup_number, setup_of, setup_rank,
                               setup_text, sp_number)

from game_text import uci_moves
from support import legal, raises


def test_each_rule_set_numbers_its_own_set_ups_both_ways():
    for name in NAMES:
        rules = Rules(name)
        numbers = [518] if name == "classical" else range(0, rules.setups, 1 + rules.setups // 41)
        ranks = set()
        game = Game(rules)  # one a rule set: a small heap cannot hold many
        for number in numbers:
            rank = setup_rank(rules, number)
            assert setup_number(rules, rank) == number, (name, number, rank)
            ranks.add(rank)
            fen = setup_fen(rules, number)
            game.new(fen)
            assert setup_of(rules, game.start_fen) == (number, number), (name, fen)
        assert len(ranks) == len(numbers), name
        assert raises(ValueError, setup_rank, rules, rules.setups if name != "classical" else 0)
        assert raises(ValueError, setup_rank, rules, -1)


def test_the_count_of_each_rule_sets_set_ups():
    shuffle = Rules("shuffle")
    ranks = set(setup_rank(shuffle, n) for n in range(18))
    assert len(ranks) == 18
    for rank in ranks:  # rooks in the corners, king on e, bishops on opposite colours
        assert rank[0] + rank[4] + rank[7] == "RKR" and sp_number(rank) >= 0
    transcendental = Rules("transcendental")
    assert transcendental.setups == 2880 == 4 * 4 * 180  # bishops, then K, Q, R, R, N, N
    for n in (0, 1, 17, 2879):
        rank = setup_rank(transcendental, n)
        bishops = [f for f in range(8) if rank[f] == "B"]
        assert (bishops[0] + bishops[1]) % 2 == 1, rank
    assert Rules("lrs").setups == 5040 == 40320 // 8  # 8! over the pairs of R, N, B


def test_a_back_rank_is_accepted_wherever_the_rules_allow_it():
    assert setup_number(Rules("shuffle"), "RNBQKBNR") == 8
    assert setup_rank(Rules("lrs"), setup_number(Rules("lrs"), "RNBQKBNR")) == "RNBQKBNR"
    lrs, transcendental = Rules("lrs"), Rules("transcendental")
    assert setup_rank(lrs, setup_number(lrs, "BBKNNQRR")) == "BBKNNQRR"  # no castling
    assert setup_rank(transcendental, setup_number(transcendental, "KRRBBQNN")) == "KRRBBQNN"
    assert setup_number(Rules("chess480"), "RKRNNQBB") == 959
    for name, rank, why in (("shuffle", "RBNBKNQR", "opposite colours"),
                            ("shuffle", "RKBBNQNR", "king on e"),
                            ("chess960", "BBKNNQRR", "between the rooks"),
                            ("classical", "RKRNNQBB", "only RNBQKBNR"),
                            ("transcendental", "BKBNNQRR", "opposite colours"),
                            ("lrs", "RNBQKBNQ", "some order")):
        try:
            setup_number(Rules(name), rank)
            assert False, (name, rank)
        except ValueError as e:
            assert why in str(e), (name, rank, e)


def test_random_set_ups_of_each_rule_set():
    import random
    random.seed(5)
    rng = random
    for name in NAMES:
        rules = Rules(name)
        game = Game(rules)
        seen = set()
        for _ in range(12):
            game.new(setup_fen(rules, rng=rng))
            numbers = setup_of(rules, game.start_fen)
            assert numbers is not None, name
            seen.add(numbers)
            if not rules.two_ranks:
                assert numbers[0] == numbers[1], name
        assert len(seen) == (1 if name == "classical" else 12) or name == "shuffle", (name, seen)
    # Chess480 draws one of each mirrored pair: the king right of the queen.
    for _ in range(20):
        rank = setup_rank(Rules("chess480"), random_setup(Rules("chess480"), rng))
        assert rank.index("K") > rank.index("Q"), rank


def test_one_rank_rules_refuse_two_numbers_and_two_rank_rules_announce_both():
    assert raises(ValueError, setup_fen, Rules("chess960"), 3, 4)
    fen = setup_fen(Rules("double960"), 0, 959)
    assert setup_text(Rules("double960"), fen) == "SP 0 / SP 959 (BBQNNRKR / RKRNNQBB)"
    assert setup_text(Rules("shuffle"), setup_fen(Rules("shuffle"), 8)) == "set-up 8 (RNBQKBNR)"
    assert setup_text(Rules("chess960"), "4k3/8/8/8/8/8/8/4K3 w - - 0 1") is None


def test_common_spellings_of_each_rule_set():
    for text, name in (("Chess960", "chess960"), ("Fischerandom", "chess960"),
                       ("fischer random", "chess960"), ("Standard", "classical"),
                       ("normal", "classical"), ("Shuffle", "shuffle"), ("Chess480", "chess480"),
                       ("Double960", "double960"), ("Transcendental", "transcendental"),
                       ("LRS", "lrs"), (" chess 960 ", "chess960")):
        assert named(text).name == name, text
    assert raises(ValueError, named, "atomic")


def test_rules_without_castling_or_en_passant_drop_them_from_a_fen():
    game = Game("lrs", "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    assert game.start_fen.split()[2:4] == ["-", "-"]
    assert not any(san(game.pos, m) in ("O-O", "O-O-O", "exd6") for m in game.legal_moves())
    game = Game("transcendental", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.start_fen.split()[2] == "-"


# ------------------------------------------------------------ Chess480 by hand
# Lewis's orthodox castling (chessvariants.com, "Chess480"); each case quotes
# the sentence it checks.

def castled(fen, side):
    """The FEN after O-O or O-O-O under Chess480 rules, or None if not legal."""
    pos = Position()
    Rules("chess480").apply(pos)
    pos.set_fen(fen)
    for move in legal(pos):
        if san(pos, move).rstrip("+#") == side:
            before = pos.fen()
            pos.push(move)
            after = pos.fen()
            pos.pop(move)
            assert pos.fen() == before  # and taken back exactly
            return after.split()[0].split("/")[7]
    return None


def test_chess480_the_king_goes_two_squares_towards_the_rook():
    # "the King is transferred from its original square two squares in the
    # direction of the Rook ... then that Rook is transferred to the square
    # the King has just crossed"
    fen = "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1"
    assert castled(fen, "O-O") == "R3RK2"  # Kd1-f1, Rh1-e1
    assert castled(fen, "O-O-O") == "1KR4R"  # Kd1-b1, Ra1-c1
    # The same under Chess960 rules goes to g1/f1 and c1/d1.
    pos = Position(fen)
    assert any(san(pos, m) == "O-O" and pos.push(m) is None and
               pos.fen().split("/")[7].startswith("R4RK1") for m in legal(pos))


def test_chess480_the_king_may_move_onto_or_over_the_rooks_square():
    # "(which may move the King over or into the Rook's original square),
    # then that Rook is transferred to the square the King has just crossed
    # (if it is not already there)"
    assert castled("4k3/8/8/8/8/8/8/R1K4R w KQ - 0 1", "O-O-O") == "KR5R"  # into a1
    assert castled("4k3/8/8/8/8/8/8/1RK4R w KB - 0 1", "O-O-O") == "KR5R"  # over b1
    assert castled("4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1", "O-O") == "R5RK"  # over g1


def test_chess480_king_and_rook_side_by_side_in_a_corner_swap():
    # "If the King and Rook are adjacent in a corner and the King can not move
    # two spaces towards the Rook, then the King and Rook exchange squares."
    assert castled("4k3/8/8/8/8/8/8/R5KR w KQ - 0 1", "O-O") == "R5RK"
    assert castled("4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "O-O-O") == "KR5R"


def test_chess480_castling_is_prevented_by_attacks_and_pieces_between():
    # "if the square on which the King stands, or the square which it must
    # cross, or the square which it is to occupy, is attacked"
    assert castled("4r1k1/8/8/8/8/8/8/R2K3R w KQ - 0 1", "O-O") is None  # e1 crossed
    assert castled("5rk1/8/8/8/8/8/8/R2K3R w KQ - 0 1", "O-O") is None  # f1 to occupy
    assert castled("3rk3/8/8/8/8/8/8/R2K3R w KQ - 0 1", "O-O") is None  # d1, the king's
    assert castled("1k4r1/8/8/8/8/8/8/R5KR w KQ - 0 1", "O-O") is None  # g1, the king's
    assert castled("4k2r/8/8/8/8/8/8/R5KR w KQ - 0 1", "O-O") is None  # h1, a swap's
    # A rook's path is free to be attacked: g1 is neither crossed nor occupied
    # by the king (Chess960 would forbid this castling: its king crosses g1).
    assert castled("1k4r1/8/8/8/8/8/8/R2K3R w KQ - 0 1", "O-O") == "R3RK2"
    # "if there is any piece between the King and the Rook"
    assert castled("4k3/8/8/8/8/8/8/R2K2NR w KQ - 0 1", "O-O") is None


def test_chess480_a_game_plays_writes_and_reads_its_castling():
    game = Game("chess480", "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1")
    game.play("O-O-O")
    game.play("O-O")  # Kb8-d8, Rh8-c8
    assert game.pos.fen().split()[0] == "r1rk4/pppppppp/8/8/8/8/PPPPPPPP/KR5R"
    assert uci_moves(game) == ["b1a1", "b8h8"]
    reread = Game("chess480", game.start_fen)
    for move in uci_moves(game):
        reread.play(move)
    assert reread.pos.fen() == game.pos.fen()


def test_each_rule_set_comes_back_from_its_pgn():
    from micro960.rules.pgn import Replayer, game_pgn
    games = (("chess480", "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", "O-O-O O-O"),
             ("shuffle", setup_fen(Rules("shuffle"), 8), "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O"),
             ("double960", setup_fen(Rules("double960"), 0, 959), "d4 d5"),
             ("transcendental", setup_fen(Rules("transcendental"), 5, 2000), "e4 e5"),
             ("lrs", setup_fen(Rules("lrs"), 4398), "e4 d5 exd5"),
             ("classical", setup_fen(Rules("classical")), "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O"))
    for name, fen, moves in games:
        game = Game(name, fen)
        for move in moves.split():
            game.play(move)
        text = game_pgn(game)
        reader = Replayer()
        done = None
        for line in text.split("\n"):
            done = reader.feed(line + "\n") or done
        tags, again, error = done or reader.finish()
        assert error is None and again.rules.name == name, (name, error, text)
        assert again.pos.fen() == game.pos.fen(), name
        assert (tags.get("Variant") or "") == Rules(name).variant_tag, name

"""A game: results with their reasons, claims, undo, save and restore, LRS rules."""
from micro960.rules.game import UNDECIDED, Game
from micro960.device.storage import load_game

from game_text import san_moves, save_text
from support import raises


def play(game, moves):
    for text in moves.split():
        game.play(text)
    return game


def test_checkmate_and_stalemate():
    game = play(Game("classical"), "f3 e5 g4 Qh4")
    assert (game.result(), game.reason()) == ("0-1", "checkmate")
    assert raises(ValueError, game.play, "a3")
    game = Game("chess960", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert (game.result(), game.reason()) == ("1/2-1/2", "stalemate")


def test_repetition_claim_then_automatic_fivefold():
    game = Game("classical")
    shuffle = "Nf3 Nf6 Ng1 Ng8 "
    play(game, shuffle)
    assert game.repetitions() == 2 and game.claimable_draw() is None
    play(game, shuffle)
    assert game.claimable_draw() == "threefold repetition"
    assert game.result() == "*"  # a claimable draw is not over
    play(game, shuffle + shuffle)
    assert (game.result(), game.reason()) == ("1/2-1/2", "fivefold repetition")


def test_castling_rights_are_part_of_the_repeated_position():
    game = Game("classical", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    play(game, "Kf1 Kf8 Ke1 Ke8")  # same squares, but no castling rights now
    play(game, "Kf1 Kf8 Ke1 Ke8")
    assert game.repetitions() == 2
    play(game, "Kf1 Kf8 Ke1 Ke8")
    assert game.repetitions() == 3


def test_fifty_and_seventy_five_move_rules():
    game = Game("chess960", "7k/8/8/8/8/8/R7/K7 w - - 98 80")
    play(game, "Rb2 Kg8")
    assert game.claimable_draw() == "fifty-move rule"
    game.claim_draw()
    assert game.result() == "1/2-1/2"
    game = Game("chess960", "7k/8/8/8/8/8/R7/K7 w - - 149 80")
    play(game, "Rb2")
    assert (game.result(), game.reason()) == ("1/2-1/2", "75-move rule")
    # ...unless that last move mates.
    game = Game("chess960", "7k/8/6K1/8/8/8/8/R7 w - - 149 80")
    play(game, "Ra8")
    assert game.reason() == "checkmate"


def test_dead_positions():
    for fen in ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
                "8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", "8/2b5/4k3/8/8/3K4/3B4/8 w - - 0 1"):
        assert Game("chess960", fen).reason() == "insufficient material", fen
    for fen in ("8/8/4kn2/8/8/3KN3/8/8 w - - 0 1", "8/8/4k3/5b2/8/3KB3/8/8 w - - 0 1",
                "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1"):
        assert Game("chess960", fen).result() == "*", fen


def test_undo_resign_and_claims_need_a_reason():
    game = play(Game("chess960", number=518), "e4 e5")
    fen = game.pos.fen()
    game.play("Nf3")
    game.undo()
    assert game.pos.fen() == fen
    assert raises(ValueError, game.claim_draw)
    assert raises(ValueError, game.play, "Ke3")
    assert game.pos.fen() == fen
    game.resign()
    assert (game.result(), game.reason()) == ("0-1", "White resigns")
    game.undo()
    assert game.result() == "*"
    assert raises(ValueError, Game("chess960").undo)


def test_a_save_names_each_move_as_the_position_before_it_would():
    # save_pieces writes the moves without replaying the game (the sides
    # alternate): the same text as uci_text in each position, castling
    # (king-takes-rook or e1g1, orthodox in Chess480 and Shuffle) included.
    from micro960.rules.position import CASTLE
    from micro960.rules.ucimove import uci_text
    from micro960.rules.variants import NAMES, Rules
    seed = 1
    castled = {}
    for name in NAMES:
        rules = Rules(name)
        for number in range(6):  # set-ups chosen, not random: the same games each run
            black = (number * 7) % rules.setups if rules.two_ranks else None
            first = (number * 131) % rules.setups if rules.setups > 1 else None
            game = Game(rules, number=first, black_number=black)
            for _ in range(120):
                moves = game.legal_moves()
                if not moves or game.result() != UNDECIDED:
                    break
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                castles = [move for move in moves if move >> 12 == CASTLE]
                move = castles[0] if castles and seed & 1 else moves[(seed >> 1) % len(moves)]
                if move >> 12 == CASTLE:
                    castled[name] = castled.get(name, 0) + 1
                game.push(move)
            pieces = game.save_pieces()
            assert next(pieces).endswith("\nmoves ")
            for pos, move in game.replay():
                assert next(pieces).strip() == uci_text(pos, move, game.rules.uci_chess960), name
            assert next(pieces) == "\n"
    assert all(castled.get(name) for name in ("classical", "shuffle", "chess480")), castled


def test_save_and_load_give_the_same_game():
    game = play(Game("chess960", number=518), "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d4")
    again = load_game(save_text(game))
    assert again.pos.fen() == game.pos.fen()
    assert san_moves(again) == san_moves(game)
    assert raises(ValueError, load_game, "rules chess960\n")
    assert raises(ValueError, load_game, "rules chess960\nfen 8/8 w - - 0 1\nmoves\n")

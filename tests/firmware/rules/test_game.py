"""A game: results with their reasons, claims, undo, save and restore, LRS rules."""
from micro960.rules.game import Game
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


def test_save_and_load_give_the_same_game():
    game = play(Game("chess960", number=518), "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d4")
    again = load_game(save_text(game))
    assert again.pos.fen() == game.pos.fen()
    assert san_moves(again) == san_moves(game)
    assert raises(ValueError, load_game, "rules chess960\n")
    assert raises(ValueError, load_game, "rules chess960\nfen 8/8 w - - 0 1\nmoves\n")

"""LRS chess: no castling, no en passant, queen promotions, king capture wins."""
from micro960.rules.game import Game

from game_text import save_text, uci_moves
from support import raises


def play(game, moves):
    for text in moves.split():
        game.play(text)
    return game


def test_lrs_rules():
    game = Game("lrs")
    assert game.pos.fen().split()[2] == "-"
    # No check: the king may walk into attack, and capturing it wins.
    game = Game("lrs", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    game.play("Kd1")
    game.play("Rxd1")
    assert (game.result(), game.reason()) == ("0-1", "White's king was captured")
    # Promotion is to a queen only, and "e8" means it.
    game = Game("lrs", "k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    assert len([m for m in game.legal_moves() if m >> 12 >= 4]) == 1
    game.play("e8")
    assert game.pos.fen().split()[0] == "k3Q3/8/8/8/8/8/8/K7"
    # No en passant.
    game = Game("lrs", "k7/3p4/8/4P3/8/8/8/K7 b - - 0 1")
    game.play("d5")
    assert raises(ValueError, game.play, "exd6")
    # No move loses, instead of stalemate: every black piece is blocked.
    game = Game("lrs", "kb6/prp5/PpP5/1P6/8/8/8/7K b - - 0 1")
    assert (game.result(), game.reason()) == ("1-0", "Black has no move")
    # Repetition and dead positions do not end it; 1024 plies do.
    game = Game("lrs", "k7/8/8/8/8/8/8/K7 w - - 0 1")
    assert game.result() == "*"
    for i in range(256):
        play(game, "Kb1 Kb8 Ka1 Ka8")
    assert (game.result(), game.reason()) == ("1/2-1/2", "1024 plies played")


def test_a_game_from_a_position_without_kings_replays_and_saves():
    """LRS allows a position with a king missing; replaying the game (for its
    moves, its PGN and its save) once set it up under the classical rules and
    raised "each side needs a king" in the middle of a save."""
    from micro960.rules.game import Game
    from micro960.device.storage import load_game
    game = Game("lrs", "4k3/8/8/8/8/8/8/R7 b - - 0 1")  # White has lost already
    assert uci_moves(game) == [] and game.result() == "0-1"
    assert load_game(save_text(game)).pos.fen() == game.pos.fen()



def test_a_taken_king_leaves_no_moves_in_perft_the_move_list_and_the_game():
    """perft once went on after a king was taken (5/70/476 from a position
    whose White king is gone) while the game said it was over."""
    from micro960.rules.movegen import perft
    from micro960.rules.position import Position
    from micro960.rules.variants import Rules
    pos = Position()
    Rules("lrs").apply(pos)
    pos.set_fen("4k3/8/8/8/8/8/8/R7 b - - 0 1")  # White has lost already
    assert [perft(pos, depth) for depth in (0, 1, 2, 3)] == [1, 0, 0, 0]
    game = Game("lrs", "4k3/8/8/8/8/8/8/R7 b - - 0 1")
    assert game.legal_moves() == [] and game.result() == "0-1"
    # Rxe1 takes the king: White's rook has no move after it, inside perft too.
    # Black's moves by hand: the rook's g1, f1, xe1, h2-h7, h8 (10), the king's 5.
    fen = "4k3/8/8/8/8/8/8/R3K2r b - - 0 1"
    game = Game("lrs", fen)
    play(game, "Rxe1")
    assert game.legal_moves() == [] and game.result() == "0-1"
    pos.set_fen(fen)
    assert perft(pos, 1) == 15
    for move in game.moves:
        pos.push(move)
    assert perft(pos, 1) == 0 and perft(pos, 2) == 0
    # Kd1 leaves the king to Rxd1, a leaf. By hand, Black's replies: after
    # Kd1 the rook's 14 and the king's 5; after Kxd2 the king's 5; after Ke2
    # 11 + 5; after Kf1 14 + 5; after Kf2 12 + 5.
    pos.set_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    assert perft(pos, 1) == 5 and perft(pos, 2) == 19 + 5 + 16 + 19 + 17

"""What a player types at the sensor board besides moves (eboard/commands.py):
resign, draw (claimed, offered to micro960 or to the other player), accept,
new; on both runtimes. A finished game goes to games.pgn and a new one starts
from the board as it stands.
"""
import os

from micro960.device.storage import GameStore
from micro960.eboard.game import EBoardGame
from micro960.eboard.moves import parse_square64

from game_text import san_moves
from support import raises


def events(g, text):
    """'-e2 +e4' lifts e2 and places on e4."""
    for word in text.split():
        sq = parse_square64(word[1:])
        g.lift(sq) if word[0] == "-" else g.place(sq)


def two_players(**options):
    lines = []
    g = EBoardGame(number=518, engine=False, out=lines.append, settle_ms=None, **options)
    return g, lines


def test_resign_ends_the_game_for_the_side_to_move_with_two_players():
    g, lines = two_players()
    events(g, "-e2 +e4")
    g.command("resign")
    assert g.game.result() == "1-0" and lines[-1] == "result 1-0 Black resigns"
    assert raises(ValueError, g.command, "resign")  # over: nothing changes
    assert raises(ValueError, g.command, "draw")
    events(g, "-e7 +e5")  # no move after the end
    assert len(g.game.moves) == 1


def test_the_person_resigns_against_micro960_even_while_its_move_is_lit():
    lines = []
    g = EBoardGame(number=518, engine=True, depth=1, hash_kb=4, out=lines.append,
                   settle_ms=None)
    events(g, "-e2 +e4")
    assert g.think() and g.leds[0] == "move"
    g.command("resign")
    assert g.game.result() == "0-1" and "result 0-1 White resigns" in lines
    assert g.leds == ("off", 0) and not g.expected and g.think() == 0


def test_only_the_side_offered_a_draw_accepts_it():
    g, lines = two_players()
    assert raises(ValueError, g.command, "accept")  # nothing offered
    g.command("draw")  # White offers, then makes its move
    assert lines[-1] == "draw offered by White; Black may type accept before their next move"
    assert raises(ValueError, g.command, "accept")  # White cannot take its own offer
    events(g, "-e2 +e4")
    g.command("accept")  # Black, before its move
    assert g.game.result() == "1/2-1/2" and g.game.reason() == "draw agreed"


def test_a_draw_offer_lapses_once_the_side_offered_moves():
    g, lines = two_players()
    g.command("draw")
    events(g, "-e2 +e4 -e7 +e5")
    assert raises(ValueError, g.command, "accept") and g.game.result() == "*"
    g.command("draw")  # Black offers... and takes its move back: the offer goes with it
    events(g, "-g1 +f3 -f3 +g1")
    assert raises(ValueError, g.command, "accept")


def test_micro960_takes_a_draw_only_when_a_pawn_or_more_worse():
    lines = []
    g = EBoardGame(fen="4k2q/8/8/8/8/8/4P3/4K3 w - - 0 1", engine=True, depth=2, hash_kb=4,
                   out=lines.append, settle_ms=None)  # micro960 (Black) a queen up
    events(g, "-e2 +e3")
    assert g.think()
    g.command("draw")
    assert lines[-1] == "draw declined by micro960; play on" and g.game.result() == "*"
    g.score = -100  # (as if its last search saw itself a pawn down)
    g.command("draw")
    assert lines[-3:-1] == ["draw accepted by micro960", "result 1/2-1/2 draw agreed"]
    assert g.leds == ("off", 0) and not g.expected


def test_draw_claims_a_threefold_repetition():
    g, lines = two_players()
    for _ in range(2):
        events(g, "-g1 +f3 -g8 +f6 -f3 +g1 -f6 +g8")
    g.command("draw")
    assert g.game.reason() == "threefold repetition claimed", lines


def test_new_keeps_the_game_and_starts_the_next_from_the_board_as_it_stands():
    folder = "eboard-commands-test"  # (made, then removed)
    store = GameStore(folder)
    store.clear()
    try:
        g, lines = two_players()
        g.resume(store, g.physical)
        events(g, "-e2 +e4 -e7 +e5")
        assert san_moves(store.load()) == ["e4", "e5"]
        g.command("new")  # unfinished: archived with *, the save cleared
        assert lines[-2:] == ["new game: SP 518 (RNBQKBNR); set up e2 e4 e5 e7",
                              "leds setup e2 e4 e5 e7"], lines
        assert store.load() is None and not g.game.moves
        with open(folder + "/games.pgn") as f:
            text = f.read()
        assert "1. e4 e5 *" in text, text
        events(g, "-e4 +e2 -g1 +f3")  # a move before the board is set up is none
        assert not g.game.moves and g.leds[0] == "setup"
        events(g, "-f3 +g1 -e5 +e7 -e2 +e4")
        assert san_moves(g.game) == ["e4"] and lines[-1] == "move e4"
    finally:
        store.clear()
        try:
            os.remove(folder + "/games.pgn")
        except OSError:
            pass
        os.rmdir(folder)


def test_new_during_a_set_up_phase_starts_it_again():
    lines = []
    g = EBoardGame(engine=False, out=lines.append, settle_ms=None, setup=True)
    assert raises(ValueError, g.command, "resign")  # no game yet
    g.place(parse_square64("a1"))
    g.command("new")
    assert lines[-1].startswith("leds error a1")  # the bishop is off the pawns-only board
    assert g.setting_up.board_text() == "8/pppppppp/8/8/8/8/PPPPPPPP/8"

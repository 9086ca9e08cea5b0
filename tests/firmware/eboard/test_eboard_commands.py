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


FOOLS_MATE = "-f2 +f3 -e7 +e5 -g2 +g4 -d8 +h4"
ENDED = "moves f2f3 e7e5 g2g4 d8h4\n"  # the fool's mate as game.txt has it


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _full_flash_game():
    """Two players' fool's mate on a flash too full for games.pgn."""
    from power_cut import FullArchive, scratch_folder
    folder = scratch_folder("eboard-full")
    files = FullArchive()
    g, lines = two_players()
    g.resume(GameStore(folder, files), g.physical)
    events(g, FOOLS_MATE)
    assert lines[-1].startswith("warning could not archive the game: no space left"), lines
    assert ENDED in _read(folder + "/game.txt")  # (the last move too)
    return g, folder, files


def _archived_once_there_is_room(g, folder, files):
    assert ENDED in _read(folder + "/game.txt")  # the next game is not saved over it
    files.full = False
    events(g, "-e7 +e5")
    archive = _read(folder + "/games.pgn")
    assert archive.count("[Event ") == 1 and "2. g4 Qh4# 0-1" in archive, archive
    assert "\nmoves e2e4 e7e5\n" in _read(folder + "/game.txt")


def test_a_game_the_archive_cannot_take_waits_for_it_past_the_next_game():
    """A sensor board's game that ended on a full flash was lost: the next
    game's first save overwrote it. It waits in game.txt, as the console's does."""
    from power_cut import remove_folder
    g, folder, files = _full_flash_game()
    try:
        g.command("new")
        events(g, "-h4 +d8 -e5 +e7 -g4 +g2 -f3 +f2")  # the pieces back
        events(g, "-e2 +e4")
        assert san_moves(g.game) == ["e4"]
        _archived_once_there_is_room(g, folder, files)
    finally:
        remove_folder(folder)


def test_a_game_the_archive_cannot_take_waits_for_it_past_a_restart():
    from power_cut import remove_folder
    g, folder, files = _full_flash_game()
    try:
        g = None
        again, lines = two_players()  # the power went; the board starts again
        assert not again.resume(GameStore(folder, files), again.physical)
        events(again, "-e2 +e4")
        _archived_once_there_is_room(again, folder, files)
    finally:
        remove_folder(folder)


def test_the_same_short_game_twice_is_two_games_in_the_archive():
    """The archive took the second for the first written again, and left it out."""
    from power_cut import remove_folder, scratch_folder
    folder = scratch_folder("eboard-twice")
    try:
        g, lines = two_players()
        g.resume(GameStore(folder), g.physical)
        events(g, FOOLS_MATE)
        g.command("new")
        events(g, "-h4 +d8 -e5 +e7 -g4 +g2 -f3 +f2 " + FOOLS_MATE)
        assert _read(folder + "/games.pgn").count("2. g4 Qh4# 0-1") == 2
    finally:
        remove_folder(folder)

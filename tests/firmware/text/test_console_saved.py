"""The console's game as it is saved and archived: how the board looks
(turned for Black, symbols, colours) and a set-up phase come back with the
game, the PGN names the players and the date, and older saves still resume.

(Apart from test_console_clock: a small heap holds one of these modules at a time.)
"""
import gc

from micro960.device.storage import GameStore, load_game
from game_text import save_text
from power_cut import remove_folder, scratch_folder
from test_console import console

WHITE, BLACK = 8, 16


def _turn_and_paint_the_board(folder):
    c, said = console("chess960", 518)
    c.resume(GameStore(folder))
    c.handle("black")  # the engine plays White, and moves
    assert said[-3] == "    h g f e d c b a", said[-6:]  # Black at the bottom
    for line in ("unicode", "color", "flip"):
        c.handle(line)
    assert said[-3].startswith("   a  b  c"), said[-3:]  # flipped back: White below


def test_the_board_is_turned_for_black_and_its_look_comes_back_with_the_game():
    folder = scratch_folder("look")
    try:
        _turn_and_paint_the_board(folder)  # then the power goes
        gc.collect()  # (a small heap holds one console at a time)
        again, said = console("chess960", 518)
        assert again.resume(GameStore(folder)), said
        assert again.unicode and again.color and again.flipped and again.engine_side == WHITE, \
            again.game.settings
    finally:
        remove_folder(folder)


def saving(folder, **kwargs):
    """A console of game 518 (console()'s `kwargs`) that saves to `folder`:
    it, what it says, and its GameStore."""
    c, said = console("chess960", 518, **kwargs)
    store = GameStore(folder)
    c.resume(store)
    return c, said, store


def resumed(folder):
    """The console started again on `folder`'s saved game (playing Black's
    engine, as the tests' first console did), and what it says."""
    gc.collect()  # (a small heap holds one console at a time)
    again, said = console("chess960", 518, engine_side=BLACK)
    assert again.resume(GameStore(folder)), said
    return again, said


def test_a_rating_comes_back_with_the_game_and_names_the_engine():
    folder = scratch_folder("rating")
    try:
        c, said, _ = saving(folder, engine_side=BLACK)
        c.handle("level 1500")
        assert "level 1500" in c.game.settings.split(" time")[0], c.game.settings
        del c
        again, said = resumed(folder)
        assert again.engine.level == 1500, again.game.settings
        again.handle("level")
        assert said[-1] == "Level 1500: plays at about 1500 Elo.", said[-3:]
    finally:
        remove_folder(folder)


def test_a_game_saved_at_a_rating_no_longer_offered_resumes_at_the_nearest():
    from micro960.engine.levels import LOWEST
    folder = scratch_folder("old-rating")
    try:
        c, said, _ = saving(folder, engine_side=BLACK)
        c.handle("time 3")
        c.engine.level = 1050  # the lowest rating until 2026-11-29
        c.keep()
        assert "level 1050 time 3000" in c.game.settings, c.game.settings
        del c
        again, said = resumed(folder)
        assert again.engine.level == LOWEST == 1100 and again.limits.movetime == 3000, said
        assert not [line for line in said if "damaged" in line], said
    finally:
        remove_folder(folder)


def test_the_archived_game_names_its_players_and_its_date():
    import time
    folder = scratch_folder("players")
    try:
        c, said, store = saving(folder, engine_side=BLACK)
        c.handle("level 7")
        c.handle("f3")
        from micro960.device.storage import today
        assert c.game.date == today()  # the day of its first save, kept with it
        c.game.date = "2025.06.01"  # as a game begun that day would have
        c.handle("resign")
        f = open(store.archive_path)
        pgn = f.read()
        f.close()
        assert '[White "Player"]' in pgn and '[Black "micro960 level 7"]' in pgn, pgn
        assert '[Date "2025.06.01"]' in pgn
    finally:
        remove_folder(folder)
    year = time.localtime()[0]
    assert today() == ("%d.%02d.%02d" % time.localtime()[:3] if year >= 2024 else "")


def test_an_old_save_without_the_new_settings_still_resumes():
    text = ("rules chess960\nfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
            "moves e2e4 e7e5\nsettings engine black level 20 time 5000\n")
    game = load_game(text)
    assert len(game.moves) == 2 and game.date is None
    game.date = "2026.01.02"
    assert load_game(save_text(game)).date == "2026.01.02"


def _begin_a_set_up(folder, GameStore):
    c, said = console("chess960", 518)
    c.resume(GameStore(folder))
    for line in ("new setup", "c1", "d1", "flip", "quit"):
        c.handle(line)


def test_a_set_up_phase_left_by_quit_is_taken_up_again():
    folder = scratch_folder("setup")
    try:
        _begin_a_set_up(folder, GameStore)  # then quit
        gc.collect()  # (a small heap holds one console at a time)
        again, said = console("chess960", 518)
        assert again.resume(GameStore(folder))
        assert again.setup and [f for _, f in again.setup.setup.placed] == [2, 3]
        assert again.flipped
        assert "Resuming your set-up phase (chess960, 2 placed); type new for a new game." in said
        for line in ("a1", "b1", "f1", "h1"):
            again.handle(line)
        assert again.setup is None
        assert again.game.start_fen.startswith("qnbbrnkr/pppppppp/8/8/8/8/PPPPPPPP/QNBBRNKR w")
    finally:
        remove_folder(folder)



def _text(path):
    """A file's text; "" if there is none."""
    try:
        f = open(path)
    except OSError:
        return ""
    text = f.read()
    f.close()
    return text


def test_new_and_rules_keep_an_unfinished_game_in_the_archive():
    """`new` threw an unfinished game away without a word (issue 40)."""
    folder = scratch_folder("unfinished")
    try:
        c, said, store = saving(folder)
        kept = "The unfinished game was kept in %s." % store.archive_path
        c.handle("new 518")  # no move yet: nothing to keep
        assert kept not in said and _text(store.archive_path) == ""
        for line in ("e4", "e5", "new 0"):
            c.handle(line)
        assert said[said.index(kept) + 1].startswith("New chess960 game. "), said
        pgn = _text(store.archive_path)
        assert pgn.count("[Event ") == 1 and "1. e4 e5 *" in pgn, pgn
        assert '[Result "*"]' in pgn and '[Termination "unterminated"]' in pgn, pgn
        assert load_game(_text(store.current)).moves == c.game.moves  # the new game
        for line in ("Nf3", "rules lrs", "new setup"):  # (the set-up phase has no move)
            c.handle(line)
        assert said.count(kept) == 2 and _text(store.archive_path).count("[Event ") == 2, said
        assert "1. Nf3 *" in _text(store.archive_path)
    finally:
        remove_folder(folder)


def test_threads_2_comes_back_with_the_game_and_the_engine_searches_on_two():
    try:
        import _thread  # noqa: F401
    except ImportError:
        return  # (a MicroPython without threads refuses threads 2: test_console)
    folder = scratch_folder("threads")
    try:
        c, said, _ = saving(folder, engine_side=BLACK)
        c.handle("threads 2")
        assert said[-1] == "The engine searches on two threads.", said[-3:]
        c.handle("e4")  # the engine answers with both searches
        helper = c.engine.helper  # started beside the search, ended with it
        assert helper and c.engine.helping is helper and not helper.running.locked()
        assert " threads 2" in c.game.settings, c.game.settings
        del c, helper  # (a small heap holds one console and helper at a time)
        again, said = resumed(folder)
        assert again.engine.helper, again.game.settings
        again.handle("threads 1")  # and back: the next save says one
        assert again.engine.helper is None and "threads" not in again.game.settings
    finally:
        remove_folder(folder)


def test_a_bad_threads_setting_is_said_and_the_rest_comes_back():
    folder = scratch_folder("badthreads")
    try:
        c, said, store = saving(folder, engine_side=BLACK)
        c.handle("level 1500")
        c.game.settings = c.game.settings.replace(" look ", " threads 9 look ")
        assert store.save(c.game) is None  # as a save gone wrong would have it
        del c
        again, said = resumed(folder)
        assert "warning: threads takes 1 or 2, not '9'; the engine searches on one thread" \
            in said, said
        assert again.engine.level == 1500 and again.engine.helper is None
    finally:
        remove_folder(folder)

"""Saving the game in progress and archiving finished games, power cuts included.

tests/test_power_loss.py cuts every save of a 40-move game on CPython; here a
short game gets the same treatment on both runtimes.
"""
import os

from micro960.rules.game import Game
from micro960.rules.pgn import Replayer, game_pgn
from micro960.device.storage import ARCHIVE, CURRENT, TEMPORARY, GameStore

from game_text import save_text
from power_cut import (CutFiles, PowerCut, cut_every_write, played_states, remove_folder,
                       scratch_folder)

OPENING = "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O"
SHORT_GAME = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1"  # the same in UCI (Chess960 castling)


def played(moves=OPENING, number=518):
    game = Game("chess960", number=number)
    for text in moves.split():
        game.play(text)
    return game


def state(game):
    return save_text(game), game.pos.fen()


def in_scratch(test):
    """Run test(folder) in a fresh folder, removed afterwards."""
    folder = scratch_folder(test.__name__)
    try:
        test(folder)
    finally:
        remove_folder(folder)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_a_saved_game_resumes_exactly():
    def check(folder):
        store = GameStore(folder)
        assert store.load() is None and store.problem is None  # nothing saved yet
        game = played()
        assert store.save(game) is None
        assert os.listdir(folder) == [CURRENT]
        resumed = GameStore(folder).load()
        assert state(resumed) == state(game)
        assert list(resumed.moves) == list(game.moves)
        resumed.play("d6")  # and the game goes on
        game.resign()
        assert store.save(game) is None
        assert GameStore(folder).load().ended == ("1-0", "Black resigns")
    in_scratch(check)


def test_a_save_that_differs_is_written_even_where_adler32_is_the_same():
    """A save the same as the last is skipped; it once was when only its
    Adler-32 was the same: SP 326 after SP 518 (their back ranks swap two
    pairs of letters), a move d1c4 after an undone c2d3 (issue 40)."""
    from power_cut import Saved
    from micro960.device import storage

    def check(folder):
        store = GameStore(folder)
        for game in (Game("chess960", number=518), Game("chess960", number=326)):
            assert store.save(game) is None
            assert GameStore(folder).load().start_fen == game.start_fen
        for text in ("moves c2d3\n", "moves d1c4\n"):
            assert storage._checksum(text.encode()) == storage._checksum(b"moves c2d3\n")
            assert store.save(Saved(text)) is None
            assert read(folder + "/" + CURRENT).startswith(text.encode())
        steps = CutFiles()  # and the same save again is not written
        GameStore(folder, steps).save(Saved("moves d1c4\n"))
        assert steps.steps > 0
        store.files = steps = CutFiles()
        assert store.save(Saved("moves d1c4\n")) is None and steps.steps == 0
    in_scratch(check)


def test_without_crc32_every_save_is_written():
    """A firmware without binascii.crc32 cannot tell a save from the last
    one cheaply: it writes every save rather than risk skipping a new one."""
    from power_cut import Saved
    from micro960.device import storage

    def check(folder):
        store = GameStore(folder)
        crc32, storage.crc32 = storage.crc32, None
        try:
            for text in ("moves c2d3\n", "moves c2d3\n"):
                store.files = steps = CutFiles()
                assert store.save(Saved(text)) is None and steps.steps > 0
        finally:
            storage.crc32 = crc32
        assert read(folder + "/" + CURRENT).startswith(b"moves c2d3\n")
    in_scratch(check)


def test_the_folder_is_made_when_missing():
    def check(folder):
        store = GameStore(folder + "/a/b/")
        assert store.save(played()) is None
        assert os.listdir(folder + "/a/b") == [CURRENT]
        assert store.clear() is None and store.clear() is None
        os.rmdir(folder + "/a/b")
        os.rmdir(folder + "/a")
    in_scratch(check)


def test_a_damaged_save_is_reported_never_loaded_as_a_shorter_game():
    def check(folder):
        store = GameStore(folder)
        store.save(played())
        good = read(folder + "/" + CURRENT)
        # Every truncation, as a file system without atomic rename might leave.
        for length in range(len(good)):
            write(folder + "/" + CURRENT, good[:length])
            assert store.load() is None, length
            assert "game.txt" in store.problem, store.problem
        for damage in (good.replace(b"e2e4", b"e2e3"), good.replace(b"g1f3", b"g1g3"),
                       b"\xff\xfe garbage\n", good[:-1] + b"x\n", good + good,
                       b"rules chess960\ncheck 15 4 4\n"):
            write(folder + "/" + CURRENT, damage)
            assert store.load() is None and store.problem, damage
    in_scratch(check)


def test_a_leftover_temporary_file():
    def check(folder):
        old, new = played("e4 e5"), played("e4 e5 Nf3")
        store = GameStore(folder)
        store.save(new)
        whole = read(folder + "/" + CURRENT)
        store.save(old)
        # Cut while writing: the partial file is ignored and removed.
        write(folder + "/" + TEMPORARY, whole[:len(whole) // 2])
        assert state(store.load()) == state(old)
        assert os.listdir(folder) == [CURRENT]
        # Cut between writing and renaming: the whole file is the newer save.
        write(folder + "/" + TEMPORARY, whole)
        assert state(store.load()) == state(new)
        assert os.listdir(folder) == [CURRENT]
        assert state(store.load()) == state(new)
    in_scratch(check)


def test_a_full_flash_keeps_the_old_save_and_the_game_goes_on():
    def check(folder):
        game = played("e4 e5")
        store = GameStore(folder)
        store.save(game)
        old = state(game)
        game.play("Nf3")
        for room in (0, 1, 40, 80):
            error = GameStore(folder, CutFiles(full_after=room)).save(game)
            assert error == "could not save the game: no space left", error
            assert state(store.load()) == old
            assert os.listdir(folder) == [CURRENT]
        game.play("Nc6")  # the game goes on, and saves again once there is room
        assert store.save(game) is None
        assert state(store.load()) == state(game)
    in_scratch(check)


def test_a_save_on_a_file_system_that_cannot_rename_over_a_file():
    def check(folder):
        fat = CutFiles(rename_overwrites=False)
        store = GameStore(folder, fat)
        store.save(played("e4"))
        game = played("e4 e5")
        assert store.save(game) is None
        assert state(store.load()) == state(game)
    in_scratch(check)


def test_power_cut_at_every_byte_and_step_of_each_save():
    game = Game("chess960", number=518)
    states = played_states(SHORT_GAME.split(), game)

    def check(folder):
        # Saves 0-2 are made whole (test_power_loss.py cuts those too, on CPython).
        cuts, old, new = cut_every_write(folder, states, first=3)
        assert cuts > 4 * 100 and old > 0 and new > 0
        # FAT: rename fails over a file, so the save removes the old one first.
        cuts, old, new = cut_every_write(folder, states, rename_overwrites=False,
                                         byte_step=1000)
        assert old > 0 and new > 0
    in_scratch(check)


def test_finish_archives_then_clears_and_archives_once():
    def check(folder):
        store = GameStore(folder)
        first, second = played("f3 e5 g4 Qh4"), played("e4 e5")
        second.resign()
        first.settings = "engine black level 7"  # the players' tags (rules/pgn.py)
        store.save(first)
        assert store.finish(first) is None
        assert store.load() is None and store.problem is None
        # A cut between archive() and clear(): at boot the finished game is
        # finished again, and not written twice.
        store.save(second)
        assert store.archive(second) is None
        assert state(store.load()) == state(second)
        assert store.finish(store.load()) is None
        assert replayed(folder + "/" + ARCHIVE) == [
            ("0-1", first.pos.fen(), None), ("0-1", second.pos.fen(), None)]
        assert b'[Black "micro960 level 7"]' in read(folder + "/" + ARCHIVE)
        assert read(folder + "/" + ARCHIVE).endswith(b"0-1\n\n")
    in_scratch(check)


def test_an_archive_cut_short_keeps_the_next_game_apart():
    first, cut, third = played("f3 e5 g4 Qh4"), played("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7"), played(
        "d4 d5")
    third.agree_draw()
    cut_record = (game_pgn(cut) + "\n").encode()

    def check(folder):
        path = folder + "/" + ARCHIVE
        store = GameStore(folder)
        store.archive(first)
        whole = read(path)
        for length in range(0, len(cut_record), 3):
            write(path, whole + cut_record[:length])
            assert store.archive(third) is None
            games = replayed(path)
            assert games[0] == ("0-1", first.pos.fen(), None)
            assert games[-1] == ("1/2-1/2", third.pos.fen(), None), (length, games)
            assert len(games) in (2, 3), length
    in_scratch(check)


def replayed(path):
    """(Result tag, final FEN, error) for each game of a PGN file, read the
    way `micro960 replay` reads it."""
    games = []
    replayer = Replayer()
    with open(path) as f:
        for line in f:
            _keep(games, replayer.feed(line))
    _keep(games, replayer.finish())
    return games


def _keep(games, done):
    if done:
        tags, game, error = done
        games.append((tags.get("Result"), game.pos.fen() if game else None, error))


def test_power_cut_names_and_steps():
    # The test's own stand-in: the cut comes where it is asked for.
    def check(folder):
        files = CutFiles(steps_left=1)
        try:
            GameStore(folder, files).save(played("e4"))
        except PowerCut:
            pass
        assert files.dead and os.listdir(folder) == [TEMPORARY]
        assert read(folder + "/" + TEMPORARY) == b""
    in_scratch(check)


def test_the_check_line_sums_are_adler32():
    from micro960.device import storage
    fast = storage.adler32  # CPython's zlib; None on MicroPython
    try:
        for adler32 in (fast, None):
            storage.adler32 = adler32
            assert storage._checksum(b"Wikipedia") == (0x0398, 0x11E6)
            assert storage._checksum(b"") == (1, 0)
            assert storage._checksum(bytes(range(256)) * 8) == (0xFC2E, 0x4138)  # past the modulus
    finally:
        storage.adler32 = fast

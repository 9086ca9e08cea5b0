"""A power cut never loses a game: every write position of every save of a
40-move game, and real kills of a process that is saving.

The firmware's GameStore takes a file-system stand-in (tests/firmware/
power_cut.py) that cuts the power after any number of bytes or before any
step of a save; after each cut, resuming must give exactly the game before
that move or after it. tests/firmware/device/test_storage.py runs a short game the
same way on MicroPython too.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zlib

import pytest

from host_tools import runtime
from micro960.device import storage
from micro960.rules.game import Game
from micro960.rules.notation import san, uci_text
from micro960.device.storage import CURRENT, TEMPORARY, GameStore
from game_text import save_text
from power_cut import cut_every_write, played_states, state_of

PLIES = 80  # 40 moves


def a_real_game(plies=PLIES, number=200, seed=8):
    """(UCI moves, SAN moves) of a reproducible Chess960 game: castles when it
    can, often captures, otherwise picks a move at random."""
    game = Game("chess960", number=number)
    pick = random.Random(seed)
    uci, sans = [], []
    for _ in range(plies):
        # In a fixed order, so the game does not depend on the generator's.
        legal = sorted(game.legal_moves(), key=lambda m: uci_text(game.pos, m))
        names = [san(game.pos, m) for m in legal]
        castles = [m for m, name in zip(legal, names) if name.startswith("O-O")]
        captures = [m for m, name in zip(legal, names) if "x" in name]
        move = (castles[0] if castles else
                pick.choice(captures) if captures and pick.random() < 0.5 else
                pick.choice(legal))
        uci.append(uci_text(game.pos, move, True))
        sans.append(names[legal.index(move)])
        game.push(move)
        assert game.result() == "*", "the game must last %d plies" % plies
    return uci, sans


@pytest.fixture(scope="module")
def states():
    uci, sans = a_real_game()
    # Both castlings, which a save writes as king takes rook.
    assert "O-O" in sans and "O-O-O" in sans
    return played_states(uci, Game("chess960", number=200))


@pytest.fixture
def scratch(tmp_path):
    """A folder for tens of thousands of small writes: in memory (tmpfs) where
    there is one, as the simulation needs no disk, else under tmp_path."""
    if not os.path.isdir("/dev/shm"):
        yield str(tmp_path)
        return
    folder = tempfile.mkdtemp(prefix="micro960-power-", dir="/dev/shm")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def memoized_replay(monkeypatch):
    """Replay each distinct saved text once. Every cut still runs load() in
    full (reading, checking, choosing and cleaning up the files); only
    rebuilding the game from a text already seen is skipped, and the texts
    load() hands on are recorded."""
    games = {}
    seen = set()
    described = {}  # id of a game in `games`: its (save text, FEN)

    def load_game(text):
        seen.add(text)
        if text not in games:
            games[text] = game = storage_load_game(text)
            described[id(game)] = state_of(game)
        return games[text]

    storage_load_game = storage.load_game
    monkeypatch.setattr(storage, "load_game", load_game)
    return (lambda game: described[id(game)]), seen


def framed(text):
    """A save file as GameStore writes it: the save text, then its check line
    (its length and Adler-32's two sums)."""
    data = text.encode()
    value = zlib.adler32(data)
    return data + b"check %d %d %d\n" % (len(data), value & 0xFFFF, value >> 16)


def test_a_power_cut_at_every_byte_and_step_of_every_save(scratch, monkeypatch, states):
    describe, seen = memoized_replay(monkeypatch)
    cuts, old, new = cut_every_write(scratch, states, describe=describe)
    # Every byte count 0..len of each file, and before each of its 4 steps and after.
    sizes = sum(len(framed(text)) + 1 for text, fen in states)
    assert cuts == sizes + 5 * len(states)
    assert old > 0 and new > 0 and old + new == cuts
    assert seen <= set(text for text, fen in states)


def test_a_power_cut_at_every_step_on_a_file_system_without_atomic_rename(
        scratch, monkeypatch, states):
    # FAT will not rename over a file, so the save removes the old one first:
    # a cut between the two leaves only the new file, complete, to rename.
    describe, seen = memoized_replay(monkeypatch)
    cuts, old, new = cut_every_write(scratch, states, rename_overwrites=False,
                                     byte_step=9, describe=describe)
    assert old > 0 and new > 0


# A child that saves the game after every move, round and round, until killed.
SAVER = """
import sys
sys.path.insert(0, %(firmware)r)
from micro960.rules.game import Game
from micro960.rules.notation import san, uci_text
from micro960.device.storage import GameStore
store = GameStore(%(folder)r)
moves = %(moves)r
game = Game("chess960", number=200)
store.save(game)
print("ready")
sys.stdout.flush() if hasattr(sys.stdout, "flush") else None
while True:
    for move in moves:
        game.play(move)
        error = store.save(game)
        if error:
            print(error)
            sys.exit(1)
    game.new(number=200)
    store.save(game)
"""


@pytest.mark.parametrize("python", ["cpython", "micropython"])
def test_killed_while_saving_resumes_a_game_it_saved(tmp_path, python):
    moves = a_real_game(plies=30)[0]
    start = Game("chess960", number=200)
    allowed = set([save_text(start)] + [text for text, fen in played_states(moves, start)])
    firmware = str(runtime.FIRMWARE if python == "cpython" else runtime.build_firmware())
    code = SAVER % {"firmware": firmware, "folder": str(tmp_path), "moves": moves}
    if python == "cpython":
        command = [sys.executable, "-c", code]
    else:
        command = [runtime.micropython_executable(), "-X", "heapsize=96K", "-c", code]
    pick = random.Random(518)
    leftovers = 0
    for kill in range(8 if python == "cpython" else 16):
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        try:
            assert child.stdout.readline() == "ready\n", child.stderr.read()
            try:
                child.wait(timeout=pick.uniform(0.0, 0.15))
            except subprocess.TimeoutExpired:
                pass
            assert child.poll() is None, child.stdout.read() + child.stderr.read()
        finally:
            child.kill()  # SIGKILL: no chance to tidy up
            child.wait()
            child.stdout.close()
            child.stderr.close()
        leftovers += TEMPORARY in os.listdir(tmp_path)
        store = GameStore(str(tmp_path))
        game = store.load()
        assert game is not None, store.problem
        assert save_text(game) in allowed
        assert os.listdir(tmp_path) == [CURRENT]
    print("%d of the kills came in the middle of a save" % leftovers)

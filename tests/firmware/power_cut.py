"""Power cuts for the storage tests, on CPython and MicroPython.

CutFiles is GameStore's file system (micro960.device.storage.Files) with a switch:
the power goes after `bytes_left` more bytes are written (the bytes before
stay in the file, the rest never arrive) or before step number `steps_left`
(each open, write, sync, rename and remove is a step). After the cut every
further step raises PowerCut too, as nothing more happens on a dead board.
`rename_overwrites=False` behaves like FAT, which will not rename over a file.
FullArchive is a flash too full for games.pgn to take a game.
"""
import os

from micro960.device.storage import Files
from game_text import save_text

ENOSPC = 28


class PowerCut(Exception):
    pass


class CutFiles(Files):
    def __init__(self, bytes_left=None, steps_left=None, rename_overwrites=True,
                 full_after=None):
        self.bytes_left = bytes_left
        self.steps_left = steps_left
        self.rename_overwrites = rename_overwrites
        self.full_after = full_after  # OSError ENOSPC after this many bytes, like a full flash
        self.dead = False
        self.steps = 0  # steps taken, to count a save's steps

    def step(self):
        if self.dead:
            raise PowerCut("the power is off")
        if self.steps_left is not None:
            if self.steps_left == 0:
                self.dead = True
                raise PowerCut("cut before step %d" % self.steps)
            self.steps_left -= 1
        self.steps += 1

    def open(self, path, mode):
        if "r" in mode:
            return Files.open(self, path, mode)  # reading changes nothing
        self.step()
        return CutFile(self, Files.open(self, path, mode))

    def rename(self, old, new):
        self.step()
        if not self.rename_overwrites and self.size(new) is not None:
            raise OSError(17)  # EEXIST
        Files.rename(self, old, new)

    def remove(self, path):
        self.step()
        Files.remove(self, path)

    def sync(self, f):
        self.step()
        f.file.flush()  # the real fsync adds nothing here but time

    def mkdir(self, path):
        self.step()
        Files.mkdir(self, path)


class FullArchive(Files):
    """A flash with no room for games.pgn to grow while `full` (appending to
    it raises ENOSPC); everything else works."""
    full = True

    def open(self, path, mode):
        if self.full and path.endswith("games.pgn") and "a" in mode:
            raise OSError(ENOSPC)
        return Files.open(self, path, mode)


class CutFile:
    def __init__(self, owner, file):
        self.owner = owner
        self.file = file

    def write(self, data):
        owner = self.owner
        owner.step()
        if owner.full_after is not None:
            room = max(0, owner.full_after)
            owner.full_after -= len(data)
            if len(data) > room:
                self.file.write(data[:room])
                raise OSError(ENOSPC)
        if owner.bytes_left is not None:
            if len(data) > owner.bytes_left:
                self.file.write(data[:owner.bytes_left])
                owner.dead = True
                raise PowerCut("cut after %d bytes" % owner.bytes_left)
            owner.bytes_left -= len(data)
        return self.file.write(data)

    def flush(self):
        self.file.flush()

    def close(self):
        self.file.close()  # what was written before a cut stays written


def scratch_folder(name):
    """An empty folder for one test, under $TMPDIR, else in memory (/dev/shm)
    or /tmp. (MicroPython has no tempfile.)"""
    base = (os.getenv("TMPDIR") or _first_folder("/dev/shm", "/tmp")).rstrip("/")
    folder = "%s/micro960-%s-%d" % (base, name, _unique())
    try:
        os.mkdir(folder)
    except OSError:
        empty_folder(folder)
    return folder


def _first_folder(*folders):
    for folder in folders:
        try:
            if os.stat(folder)[0] & 0o170000 == 0o040000:
                return folder
        except OSError:
            pass
    return "."


def empty_folder(folder):
    for name in os.listdir(folder):
        os.remove(folder + "/" + name)


def remove_folder(folder):
    empty_folder(folder)
    os.rmdir(folder)


def _unique():
    getpid = getattr(os, "getpid", None)
    if getpid:
        return getpid()
    return int.from_bytes(os.urandom(3), "little")


def played_states(moves, game):
    """The states a game passes through: (save text, FEN) after each of
    `moves` (UCI) played on `game`."""
    states = []
    for text in moves:
        game.play(text)
        states.append((save_text(game), game.pos.fen()))
    return states


class Saved:
    """Stands in for a Game to GameStore.save(): all a save needs is save_pieces()."""

    def __init__(self, text):
        self.text = text

    def save_pieces(self):
        yield self.text


def state_of(game):
    return save_text(game), game.pos.fen()


def cut_every_write(folder, states, rename_overwrites=True, byte_step=1, first=0,
                    describe=state_of):
    """Cut the power at every byte and every step of each save, then resume.

    states are (save text, FEN) of one game, in order. Save k writes state k
    over state k - 1 (save 0 over nothing saved). After each cut,
    GameStore.load() must give exactly the old or the new game and leave no
    temporary file. byte_step > 1 cuts at every byte_step-th byte only (and
    after the last); saves before `first` are made without cuts. describe(game)
    gives the (save text, FEN) of a resumed game.
    Returns [cuts, resumes to the old state, resumes to the new state].
    """
    from micro960.device.storage import CURRENT, GameStore
    current = folder + "/" + CURRENT
    counts = [0, 0, 0]
    saved = None  # the file that saving state k - 1 left
    for k in range(len(states)):
        old = states[k - 1] if k else None
        new = states[k]
        # A dry run counts the save's steps and gives the file it leaves.
        _prepare(folder, current, saved)
        dry = CutFiles(rename_overwrites=rename_overwrites)
        assert GameStore(folder, dry).save(Saved(new[0])) is None
        with open(current, "rb") as f:
            new_file = f.read()
        if k >= first:
            for files in _cuts(len(new_file), byte_step, dry.steps, rename_overwrites):
                _prepare(folder, current, saved)
                try:
                    GameStore(folder, files).save(Saved(new[0]))
                except PowerCut:
                    pass
                _check_resume(folder, old, new, rename_overwrites, counts, describe)
        saved = new_file
    return counts


def _cuts(size, byte_step, steps, rename_overwrites):
    for n in range(0, size, byte_step):
        yield CutFiles(bytes_left=n, rename_overwrites=rename_overwrites)
    yield CutFiles(bytes_left=size, rename_overwrites=rename_overwrites)
    for n in range(steps + 1):
        yield CutFiles(steps_left=n, rename_overwrites=rename_overwrites)


def _prepare(folder, current, data):
    empty_folder(folder)
    if data is not None:
        with open(current, "wb") as f:
            f.write(data)


def _check_resume(folder, old, new, rename_overwrites, counts, describe):
    from micro960.device.storage import TEMPORARY, GameStore
    store = GameStore(folder, CutFiles(rename_overwrites=rename_overwrites))
    game = store.load()
    counts[0] += 1
    if game is None:
        assert old is None and store.problem is None, store.problem
        counts[1] += 1
    else:
        state = describe(game)
        assert state == old or state == new, state
        counts[1 if state == old else 2] += 1
    assert TEMPORARY not in os.listdir(folder)

"""Never lose a game: the game in progress saved after every move, finished
games appended to games.pgn.

    >>> import tempfile
    >>> from micro960.rules.game import Game
    >>> store = GameStore(tempfile.mkdtemp())  # the folder is a setting ("/" on a board)
    >>> game = Game("chess960", number=518)
    >>> moves = [game.play(text) for text in ("e4", "e5")]
    >>> store.save(game)                  # None, or why not (e.g. the flash is full)
    >>> game = store.load()               # the saved game, or None (store.problem says why)
    >>> game.pos.fen()
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
    >>> game.resign()
    >>> store.keep(game)   # after every change: saved, or once ended archived (games.pgn)
    >>> store.load() is None
    True

A save cannot leave a half-written game behind. It writes the game to a
temporary file in the same folder, flushes it to the flash, and only then
renames it over the saved game; littlefs (like POSIX) renames atomically, so
after a power cut the saved game is the old one or the new one. Each file
ends with a check line (its length and a checksum), so a file damaged some
other way - a cut write on a file system that does not rename atomically, a
flipped bit - is reported and never loaded as a shorter game.

games.pgn is appended to, which is not atomic: a cut append can leave its
last game truncated. The next archive closes such a game with `*` before
writing, so it reads as one broken game that `micro960 replay` skips.

An ended game that games.pgn cannot take (a full flash) is not lost: it
waits in game.txt, and no game is saved over it until the archive takes it
(GameStore.keep and unfinished try again).
"""
import gc
import os

from micro960.rules.game import UNDECIDED, Game

try:
    from zlib import adler32  # CPython: the same sums, in C
except ImportError:
    adler32 = None
try:
    from binascii import crc32  # in C, on CPython and MicroPython (the Pico's too)
except ImportError:
    crc32 = None  # a firmware without it: every save is written (_fingerprint)

CURRENT = "game.txt"    # the game in progress
TEMPORARY = "game.tmp"  # a save being written
ARCHIVE = "games.pgn"   # finished games
MAX_SAVE = 16384        # a longer "saved game" is damage, not a game
ENOENT = 2
EEXIST = 17
ENOSPC = 28
RESULTS = (b"1-0", b"0-1", b"1/2-1/2", b"*")


class Files:
    """The file operations GameStore uses, on the real file system.

    Tests hand GameStore a stand-in that cuts the power in the middle.
    """

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        # CPython's os.rename will not replace a file on Windows; os.replace will.
        replace = getattr(os, "replace", None) or os.rename
        replace(old, new)

    def remove(self, path):
        os.remove(path)

    def size(self, path):
        """The file's length in bytes, or None if there is no such file."""
        try:
            return os.stat(path)[6]
        except OSError:
            return None

    def sync(self, f):
        """Get what was written to f onto the flash or disk."""
        f.flush()
        fsync = getattr(os, "fsync", None)  # CPython
        if fsync:
            fsync(f.fileno())
            return
        sync = getattr(os, "sync", None)  # MicroPython ports that have it
        if sync:
            sync()

    def mkdir(self, path):
        os.mkdir(path)


def default_folder():
    """Where games are kept: the root of a board's flash; on a PC
    $MICRO960_GAMES, else the user's data folder (~/.local/share/micro960)."""
    getenv = getattr(os, "getenv", None)
    if getenv is None:  # a board: MicroPython's os has no environment there
        return "/"
    folder = getenv("MICRO960_GAMES")
    if folder:
        return folder
    for name, below in (("XDG_DATA_HOME", ""), ("APPDATA", ""), ("HOME", "/.local/share")):
        base = getenv(name)
        if base:
            return base + below + "/micro960"
    return "micro960-games"


class GameStore:
    def __init__(self, folder="/", files=None):
        self.folder = folder
        self.files = files or Files()
        self.current = _join(folder, CURRENT)
        self.temporary = _join(folder, TEMPORARY)
        self.archive_path = _join(folder, ARCHIVE)
        self.problem = None  # why the last load() found no game, when it was damage
        self.last = None  # the _fingerprint of the last save written here
        self.ended = None  # the ended game keep() archived: once is enough
        self.waiting = None  # a game games.pgn could not take yet: game.txt keeps it

    # ------------------------------------------------------------ the game in progress

    def keep(self, game):
        """What a front end calls after every change to its game: save it, or
        once it has ended, archive it and clear the save (once: an ended game
        is not played on). None, or why not.

        While another game waits for games.pgn (finish), it is archived first;
        until then this game is not saved (game.txt keeps the one waiting).
        """
        if self._archive_waiting(game):
            return None
        if game.result() == UNDECIDED:
            self.ended = None  # (a game taken back from its end ends anew)
            if self.waiting is game:
                self.waiting = None  # (taken back from its end: in progress again)
            return self.save(game)
        if self.ended is game:
            return None
        self.ended = game
        return self.finish(game, once=False)  # (the same short game twice is two games)

    def save(self, game):
        """Save the game in progress; None, or why it could not be saved.

        When a save fails (a full flash) the previous save stays as it was and
        the game goes on. A save the same as the last one written here is not
        written again (the console keeps the game after every line typed).
        """
        try:
            last = _fingerprint(game.save_pieces())
            if last is not None and last == self.last:
                return None
            self._make_folder()
            self._write_save(game.save_pieces())
            self._replace(self.temporary, self.current)
            self.last = last
        except (OSError, MemoryError) as e:
            self.last = None
            self._discard(self.temporary)
            return "could not save the game: " + _why(e)
        return None

    def load(self):
        """The saved game, or None. Never raises.

        None with self.problem None: no game is saved. None with a problem:
        the save is damaged (the reason). A complete temporary file, left by a
        cut between writing and renaming, is the newest save: it is renamed
        into place. A partial one is removed.
        """
        self.problem = None
        try:
            text, problem = self._read(self.temporary)
            if text is not None:
                self._finish_rename()
            else:
                if problem:
                    self._discard(self.temporary)
                text, problem = self._read(self.current)
            if text is None:
                self.problem = problem
                return None
            return load_game(text)
        except Exception as e:  # a save that does not replay, no memory, ...
            self.problem = "the saved game does not replay: %r" % (e,)
            return None

    def unfinished(self):
        """The game in progress saved here, or None (self.problem says why,
        if the save was damaged). A game that ended just before a power cut
        (or that the archive could not take) is archived now instead, or
        waits in game.txt if the archive still cannot take it."""
        saved = self.load()
        if saved is not None and saved.result() != UNDECIDED:
            self.finish(saved)
            return None
        return saved

    def clear(self):
        """Forget the game in progress; None, or why that failed."""
        self.last = None
        for path in (self.temporary, self.current):
            try:
                self.files.remove(path)
            except OSError as e:
                if _errno(e) != ENOENT:
                    return "could not clear the saved game: " + _why(e)
        return None

    # ------------------------------------------------------------ finished games

    def archive(self, game, tags=None, once=True):
        """Append the game's PGN and a blank line to games.pgn; None, or why not.

        With `once`, nothing is written when the file already ends with this
        very record, so archiving again after a cut between archive() and
        clear() does not copy the game twice. (A game that has just ended is
        archived without: the same short game twice is two games.) The record is written a line at a time, as
        pgn_lines makes it: at a game's end a board's heap may have no room
        for all of it in one piece.
        """
        from ..rules.pgn import pgn_lines
        gc.collect()  # the lines need room at a game's end: the garbage goes first
        try:
            self._make_folder()
            if once and self._ends_with(pgn_lines(game, tags), _pgn_length(game, tags)):
                return None
            tail = self._tail(self.archive_path, 64)
            f = self.files.open(self.archive_path, "ab")
            try:
                f.write(_separator(tail))
                for line in pgn_lines(game, tags):
                    f.write(line.encode() + b"\n")
                f.write(b"\n")
                self.files.sync(f)
            finally:
                f.close()
        except (OSError, MemoryError) as e:
            return "could not archive the game: " + _why(e)
        return None

    def finish(self, game, once=True):
        """Archive the game, then clear its save; None, or why not. A game
        still undecided goes in as one that was not finished (result *).
        `once`: as archive() has it.

        A game the archive cannot take (a full flash) waits in game.txt: it
        is saved there, and no other game is saved over it (keep) until
        games.pgn takes it, tried again at each keep() and at the next start
        (unfinished()). A game that waits is archived before any other."""
        tags = {"Termination": "unterminated"} if game.result() == UNDECIDED else None
        problem = self._archive_waiting(game) or self.archive(game, tags, once) or self.clear()
        if not problem:
            self.waiting = None
        elif self.waiting is None:
            self.waiting = game
            self.save(game)  # (its last move may not be saved yet)
            problem += "; %s keeps it until %s takes it" % (self.current, ARCHIVE)
        return problem

    def _archive_waiting(self, game):
        """Archive the game that waits for games.pgn, if it is not `game`;
        None, or why not. (Once: a cut after archiving it left it there.)"""
        waiting = self.waiting
        if waiting is not None and waiting is not game:
            return self.finish(waiting)
        return None

    # ------------------------------------------------------------ steps

    def _write_save(self, pieces):
        """Write the temporary file a piece at a time, then its check line:
        a long game's save never needs one piece of heap for all of it."""
        f = self.files.open(self.temporary, "wb")
        try:
            length, sums, data = 0, (1, 0), b""
            for piece in pieces:
                if data:
                    f.write(data)
                data = piece.encode()
                length += len(data)
                sums = _checksum(data, sums)
            # (the last piece goes with the check line: a one-piece save is one write)
            f.write(data + ("check %d %d %d\n" % (length, sums[0], sums[1])).encode())
            self.files.sync(f)
        finally:
            f.close()

    def _replace(self, old, new):
        try:
            self.files.rename(old, new)
        except OSError as e:
            # FAT will not rename over a file. Removing first is not atomic, but
            # the temporary file is complete by now, and load() finishes the job.
            if _errno(e) != EEXIST:
                raise
            self.files.remove(new)
            self.files.rename(old, new)

    def _finish_rename(self):
        try:
            self._replace(self.temporary, self.current)
        except OSError:
            pass  # the next save tries again; this load has the text anyway

    def _read(self, path):
        """(text, None) for a good save; (None, None) for none; (None, why) for a damaged one."""
        size = self.files.size(path)
        if size is None:
            return None, None
        name = path[path.rfind("/") + 1:]
        if size > MAX_SAVE:
            return None, "%s is too large to be a saved game (%d bytes)" % (name, size)
        try:
            f = self.files.open(path, "rb")
            try:
                data = f.read()
            finally:
                f.close()
        except OSError as e:
            return None, "cannot read %s: %s" % (name, _why(e))
        problem = _check(data)
        if problem:
            return None, "%s is damaged: %s" % (name, problem)
        return data[:data.rfind(b"\ncheck ") + 1].decode(), None

    def _tail(self, path, count):
        size = self.files.size(path)
        if not size:
            return b""
        f = self.files.open(path, "rb")
        try:
            f.seek(max(0, size - count))
            return f.read()
        finally:
            f.close()

    def _ends_with(self, lines, length):
        """True if the archive's last `length` bytes are these lines and a blank line."""
        size = self.files.size(self.archive_path)
        if not size or size < length:
            return False
        f = self.files.open(self.archive_path, "rb")
        try:
            f.seek(size - length)
            for line in lines:
                data = line.encode() + b"\n"
                if f.read(len(data)) != data:
                    return False
            return f.read() == b"\n"
        finally:
            f.close()

    def _discard(self, path):
        try:
            self.files.remove(path)
        except OSError:
            pass

    def _make_folder(self):
        """Make the folder (and those above it) if it is missing."""
        path = ""
        for part in self.folder.split("/"):
            path += part
            if part and self.files.size(path) is None:
                self.files.mkdir(path)
            path += "/"


def _pgn_length(game, tags):
    """The bytes archive() writes for the game, the blank line after it
    included. Worked out only where `once` needs it: each pass over
    pgn_lines replays the game for its SAN (on a Pico, `new` after a short
    unfinished game took 930 ms with this pass, 600-670 without)."""
    from ..rules.pgn import pgn_lines
    length = 1
    for line in pgn_lines(game, tags):
        length += len(line.encode()) + 1
    return length


def _join(folder, name):
    return folder.rstrip("/") + "/" + name if folder else name


def _checksum(data, sums=(1, 0)):
    """Adler-32's two sums, kept apart so they stay small ints on a board;
    `sums` are those of the data before, for a file summed piece by piece."""
    a, b = sums
    if adler32:
        value = adler32(data, b << 16 | a)
        return value & 0xFFFF, value >> 16
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return a, b


def _fingerprint(pieces):
    """A save's length and CRC-32, to tell it from the last one written; None
    where the firmware has no crc32. Adler-32 (the check line's) was not
    enough: it misses a byte one up and the next one down with the same
    again further on (SP 518's RNBQKBNR and SP 326's NRBQKBRN, a move c2d3
    and d1c4), and a new game or a move went unsaved. CRC-32 misses no change
    that lies within 32 bits of the text, and runs in C: the console saves
    after every line typed, where a sum in Python went over every byte."""
    if crc32 is None:
        return None
    length, crc = 0, 0
    for piece in pieces:
        data = piece.encode()
        length += len(data)
        crc = crc32(data, crc)
    return length, crc


def _check(data):
    """None if data is a whole, undamaged save; else what is wrong with it."""
    at = data.rfind(b"\ncheck ") + 1  # the check line is the last line
    if at == 0 or not data.endswith(b"\n"):
        return "it is cut short (no check line)"
    try:
        length, a, b = [int(word) for word in data[at + 6:].split()]
    except ValueError:
        return "its check line is damaged"
    body = data[:at]
    if length != len(body):
        return "%d bytes where %d were saved" % (len(body), length)
    if (a, b) != _checksum(body):
        return "its checksum does not match"
    return None


def _separator(tail):
    """What to write before a new game at the end of games.pgn ending in `tail`.

    A whole last game ends with a result; anything else was cut short, and a
    `*` closes it so its tags and moves stay apart from the next game's.
    """
    words = tail.split()
    if not words:
        return b""
    if words[-1] not in RESULTS:
        return b"\n\n*\n\n"
    newlines = len(tail) - len(tail.rstrip(b"\n"))
    return b"\n" * max(0, 2 - newlines)


def _errno(e):
    return e.args[0] if e.args and isinstance(e.args[0], int) else None


def _why(e):
    if isinstance(e, MemoryError):
        return "out of memory"
    if _errno(e) == ENOSPC:
        return "no space left"
    return "%s" % (e,)


def today():
    """The date as PGN writes it ("2026.03.14"), or "" where the clock does
    not know it: a board without a set clock starts in 2021 or so."""
    import time
    year, month, day = time.localtime()[:3]
    return "%d.%02d.%02d" % (year, month, day) if year >= 2024 else ""


def load_game(text):
    """Rebuild a game from the text of Game.save_pieces(); ValueError if the text is damaged.

    A long game's save is read a line and a move at a time, never split whole:
    its moves as separate strings would take a board's heap many times over.
    """
    fields = {}
    for line in _parts(text, "\n"):
        name, _, value = line.strip().partition(" ")
        if name:
            fields[name] = value
    for name in ("rules", "fen", "moves"):
        if name not in fields:
            raise ValueError("saved game lacks its %s line" % name)
    game = Game(fields["rules"], fields["fen"])
    from micro960.rules.notation import parse_move
    for text in _parts(fields.pop("moves"), " "):
        game.push(parse_move(game.pos, text, game.legal_moves()))
    if "ended" in fields:
        result, _, reason = fields["ended"].partition(" ")
        game.ended = (result, reason)
    game.settings = fields.get("settings", "")
    game.date = fields.get("date")  # (older saves have none)
    if "clock" in fields:
        from micro960.rules.clock import load_clock
        game.clock = load_clock(fields["clock"])
    return game


def _parts(text, separator):
    """The non-empty parts of text between separators, one at a time."""
    start = 0
    while start < len(text):
        end = text.find(separator, start)
        if end < 0:
            end = len(text)
        if end > start:
            yield text[start:end]
        start = end + 1

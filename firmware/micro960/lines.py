"""Lines from standard input, waiting for them or not, edited as a terminal types them.

The UCI engine must notice `stop` in the middle of a search, so besides a
blocking readline() there is poll(), which returns a whole line only if one
has arrived. MicroPython polls the stream and reads one character at a time
(a larger read blocks on the Pico); CPython reads in a background thread.

Either way every character goes through a LineEditor, so a serial terminal
(screen, minicom, picocom, Thonny, `mpremote repl`) and a chess GUI are read
alike: CR, LF and CR LF each end one line; backspace and delete take back a
character, Ctrl-U the whole line; arrow keys and other ANSI escape sequences
are swallowed; other control characters are ignored.

A terminal on the Pico's serial port does not echo what is typed, so with
echo on the editor writes it back (and rubs out with backspace-space-
backspace). Only a person at the console wants that: main.py turns it on
from the board's ECHO setting once it knows the console is running, never
in UCI mode, and the PC's own terminal already echoes.
"""
import sys

from micro960.compat import IS_MICROPYTHON, const

LIMIT = 4096  # a UCI `position ... moves ...` line of a long game fits
CONSOLE_LIMIT = 120  # a console line: `new fen` and the longest FEN fit
_HISTORY = const(8)  # lines the up and down arrows recall (only when echoing)
START = 128  # the line buffer's first size
RAW_OVER = 255  # with `raw`, longer lines are handed over in the buffer itself

# Stands in a line a person typed for each character that is not ASCII (or
# each byte of one, on MicroPython): the console then refuses the line.
FOREIGN = 0x1A
ESC = "\x1b"
_BACKSPACE = const("\x08")
_DELETE = const("\x7f")
_KILL_LINE = const("\x15")  # Ctrl-U
BELL = "\x07"
RUB_OUT = "\b \b"

# Where the editor stands in an escape sequence.
_TEXT = const(0)
_ESCAPE = const(1)  # after ESC
_CSI = const(2)  # after ESC [ : parameters, then a final character @ to ~
_SS3 = const(3)  # after ESC O : one final character


class LineEditor:
    """Turns typed characters into lines, one character at a time.

        >>> editor = LineEditor()
        >>> [editor.feed(ch) for ch in "e5\\x08\\x1b[A4\\r\\n"][-2:]
        ['e4', None]

    At most `limit` characters of a line are kept, plus one more that marks
    it as too long (the console refuses a line longer than its limit); the
    rest are dropped, with a bell when echoing. So the buffer never grows
    past limit + 1 bytes, however long the input runs; it starts at
    `size` bytes (START unless told) and grows only when a longer line (a
    UCI game's moves) comes.
    """

    def __init__(self, echo=None, limit=LIMIT, size=START):
        self.echo = echo  # a write(text) function, or None for no echo
        self.mark_foreign = False  # a person types: mark what is not ASCII (FOREIGN)
        self.limit = limit
        self.buffer = bytearray(min(limit + 1, size))
        self.length = 0
        self.state = _TEXT
        self.after_cr = False  # an LF right after a CR ends no second line
        self.history = []
        self.recalled = 0  # how far back the arrows have gone
        # A line longer than RAW_OVER is returned as the line buffer itself,
        # with "\n" after the line unless it fills the buffer: the UCI engine
        # reads a long game's `position` line where it lies, so that no
        # string of it has to find room in a full heap. The buffer is valid
        # until the next character is fed. (Never with a reading thread.)
        self.raw = False

    def resize(self, limit):
        """Cut lines at `limit` characters from now on (the partial line too)."""
        self.limit = limit
        self.length = min(self.length, limit + 1)
        if len(self.buffer) > limit + 1:
            self.buffer = self.buffer[:limit + 1]

    def feed(self, ch):
        """Take one character; return the line it finishes (without its end), else None."""
        after_cr = self.after_cr
        self.after_cr = False
        code = ord(ch)
        if self.state != _TEXT and code >= 32 and (self.state != _ESCAPE or ch in "[O"):
            self._escape(ch)
            return None
        # A control character cuts any escape sequence short, and after a
        # lone Escape the next character is typed text, not swallowed.
        self.state = _TEXT
        if ch == "\r" or ch == "\n":
            if ch == "\n" and after_cr:
                return None
            self.after_cr = ch == "\r"
            return self._finish()
        if ch == ESC:
            self.state = _ESCAPE
        elif ch == _BACKSPACE or ch == _DELETE:
            if self.length:
                self._rub_out(1)
        elif ch == _KILL_LINE:
            self._rub_out(self.length)
        elif ch == "\t":
            self._add(32)
        elif 32 <= code < 127:
            self._add(code)
        elif code > 127 and self.mark_foreign and not (
                code < 0xC0 and self.length and self.buffer[self.length - 1] == FOREIGN):
            # Moves and commands are plain ASCII. Dropping a chess symbol
            # would turn "♘f3" into the pawn move f3: keep a mark that
            # makes the line refused instead (see FOREIGN). One mark for a
            # character, not one for each byte of its UTF-8 (MicroPython
            # reads bytes): the bytes after the first are below 0xC0.
            self._add(FOREIGN)
        # Other control characters are ignored, and so is what is not ASCII
        # on a line a program sends (UCI): a noisy serial line's bytes.
        return None

    def finish(self):
        """The end of input: the partial line if there is one, else None."""
        if self.length:
            return self._finish()
        return None

    def _finish(self):
        if self.raw and self.length > RAW_OVER:
            buffer = self.buffer
            if self.length < len(buffer):
                buffer[self.length] = 10  # "\n" ends the line
            self.length = 0
            return buffer
        line = str(memoryview(self.buffer)[:self.length], "ascii")  # one copy
        self.length = 0
        self.recalled = 0
        if self.echo:
            self.echo("\n")
            if line.strip():
                history = self.history
                if not history or history[-1] != line:
                    history.append(line)
                    if len(history) > _HISTORY:
                        history.pop(0)
        return line

    def _add(self, code):
        if self.length == len(self.buffer) <= self.limit:
            self._grow()
        if self.length > self.limit:
            if self.echo:
                self.echo(BELL)
            return
        self.buffer[self.length] = code
        self.length += 1
        if self.echo:
            self.echo(chr(code) if code != FOREIGN else "?")

    def _grow(self):
        """Double the buffer, up to limit + 1 bytes. With no room in the heap
        for that, the limit comes down to what the buffer holds: this line is
        then too long, like any longer than the limit, rather than a crash."""
        size = len(self.buffer)
        try:
            self.buffer.extend(bytes(min(size, self.limit + 1 - size)))
        except MemoryError:
            self.limit = size - 1

    def _rub_out(self, count):
        self.length -= count
        if self.echo and count:
            self.echo(RUB_OUT * count)

    def _escape(self, ch):
        state = self.state
        if state == _ESCAPE:
            self.state = _CSI if ch == "[" else _SS3 if ch == "O" else _TEXT
        elif state == _SS3 or "@" <= ch <= "~":
            self.state = _TEXT
            if ch == "A" or ch == "B":
                self._recall(1 if ch == "A" else -1)
        # else: a parameter of a CSI sequence (digits, ;): keep swallowing

    def _recall(self, step):
        """Up (step 1) and down (step -1) bring back earlier lines, when echoing."""
        if not self.echo:
            return
        history = self.history
        recalled = max(0, min(len(history), self.recalled + step))
        if recalled == self.recalled:
            self.echo(BELL)  # nothing further back (or forward)
            return
        self.recalled = recalled
        self._rub_out(self.length)
        line = history[-recalled] if recalled else ""
        for ch in line[:self.limit]:
            self._add(ord(ch))


class StdinLines:
    """Edited lines from `stream` (standard input unless given).

    echo: write typed characters back (to `out`, standard output unless
    given); limit: the longest line kept whole; size: the line buffer's first
    size; raw: hand long lines over in the line buffer, not as strings, on
    MicroPython (see LineEditor; text() makes a string of either).
    """

    def __init__(self, stream=None, echo=False, limit=LIMIT, out=None, size=START, raw=False):
        stream = stream or sys.stdin
        self.out = out or _write
        self.editor = LineEditor(self.out if echo else None, limit, size)
        if raw:
            self.hand_over_long_lines()
        if IS_MICROPYTHON:
            self._source = _PolledLines(stream, self.editor)
        else:  # in a module of its own, which a board never loads
            from .threadedlines import ThreadedLines
            self._source = ThreadedLines(stream, self.editor)

    def hand_over_long_lines(self):
        """From now on hand long lines over in the line buffer (see
        LineEditor), on MicroPython: CPython's reading thread would write
        into the buffer while the line is read."""
        self.editor.raw = IS_MICROPYTHON

    def interactive(self, echo):
        """A person types from now on (the console): echo if `echo`, and cut
        lines console-short so the partial line stays small."""
        self.editor.echo = self.out if echo else None
        self.editor.mark_foreign = True
        self.editor.resize(CONSOLE_LIMIT)

    @property
    def limit(self):
        """The longest line kept whole: a longer one comes cut to limit + 1 characters."""
        return self.editor.limit

    def readline(self):
        """The next line (without its end), waiting for it; None at end of input."""
        return self._source.readline()

    def poll(self):
        """The next line if a whole one has arrived, else None."""
        return self._source.poll()

    @property
    def ended(self):
        """True once the input has ended: poll() will give no more lines."""
        return self._source.ended


def text(line):
    """A line as a string, also one handed over raw (see LineEditor)."""
    if isinstance(line, str):
        return line
    return str(memoryview(line)[:raw_end(line)], "ascii")


def raw_end(line):
    """Where a line handed over raw ends: at its "\n" if it has one."""
    end = line.find(b"\n")
    return len(line) if end < 0 else end


def write_line(text):
    """A line to standard output, flushed at once: a GUI waits for it."""
    _write(text + "\n")


def clip(text):
    """A line cut to 60 characters, to quote in a message."""
    text = text.strip()
    return text if len(text) <= 60 else text[:57] + "..."


def _write(text):
    sys.stdout.write(text)
    flush = getattr(sys.stdout, "flush", None)
    if flush:
        flush()


class _PolledLines:
    def __init__(self, stream, editor):
        import select
        self.stream = stream
        self.editor = editor
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)
        self.ended = False
        # Bytes, where the stream has them: reading text, MicroPython takes a
        # byte that is not UTF-8 (line noise) for the start of a long
        # character, swallows what follows and raises UnicodeError.
        self.bytes = getattr(stream, "buffer", None)

    def _read_char(self):
        """One character, "" at the end of input. (A byte that is not ASCII
        comes as a character the editor ignores, as it does on CPython.)"""
        if self.bytes is None:
            try:
                return self.stream.read(1)
            except UnicodeError:
                return "\x80"
        byte = self.bytes.read(1)
        if not byte:
            return ""
        code = byte[0]
        if code < 128:
            return chr(code)
        # MicroPython's chr() interns what is not ASCII as a new name (a
        # qstr), kept for good: line noise filled the heap with them, until
        # growing their pool failed in a fragmented heap. The editor tells
        # only a character's first byte (0xC0 up) from the rest.
        return "\xc0" if code >= 0xC0 else "\x80"

    def _read(self, timeout):
        """Read what is ready (waiting up to `timeout` ms for the first
        character, -1 for ever); a finished line, or None."""
        while not self.ended and self._ready(timeout):
            ch = self._read_char()
            if not ch:
                self.ended = True
                break
            line = self.editor.feed(ch)
            if line is not None:
                return line
            timeout = 0
        if self.ended:
            return self.editor.finish()
        return None

    def _ready(self, timeout):
        """Whether a character waits (within `timeout` ms). ipoll, not poll:
        poll() makes a new list (96 bytes) each call, and a search polls
        every 16 nodes; the collector ran to clear them, and on the unix
        port a Ctrl-C that lands in a collection leaves the heap locked."""
        for _ in self.poller.ipoll(timeout):
            return True
        return False

    def poll(self):
        return self._read(0)

    def readline(self):
        while not self.ended:
            line = self._read(-1)
            if line is not None:
                return line
        return self._read(0)

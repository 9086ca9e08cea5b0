"""`micro960 bridge`: the Pico as a UCI engine for chess GUIs on the PC.

    micro960 bridge [--port PORT] [--wait SECONDS] [--timeout SECONDS]

The bridge is a UCI engine on standard input and output. It relays each line
the GUI sends to the board's USB serial port and each line the board answers
back to the GUI, unchanged (a line from the board that is not UCI, such as an
error message, is passed on inside `info string`). What it adds is what a
cable and a small board need:

Getting UCI. The board's main.py starts the UCI engine when the first line
it reads is `uci`, and its console game switches to UCI on a `uci` line at
any time; a board already in UCI mode answers `uci` with `uciok` too. So the
bridge first just sends `uci`. If no `uciok` comes (the board is at the
MicroPython prompt, in the middle of a long search, or running something
else), it does what mpremote does: Ctrl-C twice to interrupt whatever runs,
Ctrl-B to leave the raw prompt, Ctrl-D for a soft reset, after which
MicroPython runs main.py afresh, and then `uci` again. The `uci` line is
tried first because it needs no REPL and keeps the board as it is; the reset
gets the board out of anything else.

Surviving a reset. The bridge remembers the options the GUI set, the last
`position` and any `go` still waiting for its `bestmove`. A reset shows up
as the board's start-up line (`micro960 on ...: press Enter to play, or send
uci.`), MicroPython's `MPY: soft reboot`, a Python traceback (main.py
stopped: the error is shown in `info string` lines and the board soft-reset),
or the serial port failing (a hard reset or a pulled cable takes the USB
device away; the bridge opens the port again when it comes back). Then it
gets UCI again, sends the options and the position, and sends the `go` again
with the time already used taken off its clocks, so the game goes on where it
was. A board that hangs (no `bestmove` 3 x --timeout after the search's time
ran out) is answered for, as below, and then interrupted and soft-reset.

A vanished board. While the board is away the GUI is told so in `info
string` lines and is never left hanging: `isready` is answered at once (the
bridge is ready to take commands; they are replayed to the board when it is
back), and a `go` waits up to --wait seconds for the board to come back.
After that the bridge answers `bestmove` with the first move of the last
principal variation the board sent for that `go` (the board's own choice so
far, legal in the position), or with `0000` (no move) if the board sent none:
a GUI then scores the game as the engine's loss instead of waiting forever.

`quit` ends the bridge. It is not passed on: the board stays in UCI mode,
idle (a search still running is stopped), so the next bridge gets `uciok` at
once instead of through a reset.

XBoard. A GUI whose first line is `xboard` gets the same bridge in the XBoard
protocol (XBoardBridge): the board is brought to XBoard with `xboard` and
`protover 2` (answered by its `feature` line) and the same reset as above.
The bridge keeps the game as the GUI and the board played it (the set-up
commands since `new`, every move of either side, who the engine plays); a
restarted board is told it all again in force mode and then to play on. While
the board is away, `ping` is answered at once and the rest is told to the
board when it is back; lines from the board that are not XBoard's reach the
GUI as `#` comments.
"""
import argparse
import os
import queue
import sys
import threading
import time

BAUD = 115200  # any rate but 1200 works over USB: 1200 baud makes a Pico reboot into BOOTSEL

# What the board says when it (re)starts.
BANNER = "micro960 on "  # main.py, console mode
SOFT_REBOOT = "soft reboot"  # MicroPython, "MPY: soft reboot"
TRACEBACK = "Traceback (most recent call last)"

# The lines a UCI engine writes; anything else from the board is passed on
# inside `info string`, so a GUI never sees a line it cannot parse.
UCI_OUTPUT = ("id", "uciok", "readyok", "bestmove", "copyprotection", "registration", "info",
              "option")

INTERRUPT = b"\x03\x03"  # Ctrl-C: KeyboardInterrupt in main.py; a fresh prompt at the REPL
FRIENDLY_PROMPT = b"\x02"  # Ctrl-B: leave the raw REPL (a soft reset there skips main.py)
SOFT_RESET = b"\x04"  # Ctrl-D at the prompt: soft reset, main.py runs again

# How long the board may take to answer `uci` (--timeout): a Pico needs a
# second or two to import the engine from flash. The other steps of getting
# UCI are given multiples of it.
ANSWER_WAIT = 4.0
RETRY_EVERY = 0.5  # how often a vanished port is looked for
DISCOVER_EVERY = 2.0  # ... and the USB devices searched, when the port was found that way
STOP_ON_QUIT_WAIT = 2.0
CRASH_LINES = 12  # of a traceback and what MicroPython says after it

# Where the link to the board stands.
DOWN = "down"  # no port open
SYNC_UCI = "uci"  # sent `uci`, waiting for `uciok`
SYNC_RESET = "reset"  # sent Ctrl-C Ctrl-B Ctrl-D, waiting for the board to restart
SYNC_UCI_AGAIN = "uci-again"  # sent `uci` after the reset
SYNC_READY = "ready"  # sent the options, the position and `isready`; waiting for `readyok`
READY = "relay"  # relaying


class BridgeError(Exception):
    """The bridge cannot start; the message says why."""


class Link:
    """An open serial port to the board. A thread reads it and puts
    ("device", link, line) and, when the port fails, ("lost", link, why) on `events`."""

    def __init__(self, port, events):
        import serial
        self.port = port
        self.events = events
        self.closed = False
        # Opening raises DTR, without which MicroPython sends the host nothing.
        self.serial = serial.Serial(port, BAUD, timeout=0.2, write_timeout=2)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        partial = b""
        try:
            while not self.closed:
                data = self.serial.read(self.serial.in_waiting or 1)
                if not data:
                    continue
                partial += data.replace(b"\r", b"\n")
                *lines, partial = partial.split(b"\n")
                for line in lines:
                    if line.strip():
                        self.events.put(("device", self, line.decode("utf-8", "replace")))
        except Exception as e:  # the port failed: unplugged, reset, gone
            if not self.closed:
                self.events.put(("lost", self, _reason(e)))

    def send(self, data):
        """Write bytes or a line; False if the port failed."""
        if isinstance(data, str):
            data = (data + "\n").encode()
        try:
            self.serial.write(data)
            self.serial.flush()
            return True
        except Exception as e:
            if not self.closed:
                self.events.put(("lost", self, _reason(e)))
            return False

    def close(self):
        self.closed = True
        try:
            self.serial.close()
        except Exception:
            pass


def _reason(error):
    text = str(error).strip() or type(error).__name__
    return text if len(text) <= 100 else text[:97] + "..."


class PendingGo:
    """A `go` the GUI is waiting on: its line, and how far the board has got with it."""

    def __init__(self, line):
        self.line = line
        self.started = time.monotonic()
        self.sent = False  # to the board now connected
        self.stop = False  # the GUI sent stop
        self.best = None  # first move of the last pv the board sent
        self.give_up = None  # when to answer without the board
        self.budget = None  # the most time in seconds the search may take, if it is limited
        self.overdue = None  # when a board that has not answered is taken to hang
        self.sent_at = None

    def resumed(self):
        """The `go` line with the time used so far taken off its clocks."""
        used = int((time.monotonic() - self.started) * 1000)
        words = self.line.split()
        for i in range(len(words) - 1):
            if words[i] in ("movetime", "wtime", "btime") and _is_int(words[i + 1]):
                words[i + 1] = str(max(1, int(words[i + 1]) - used))
        return " ".join(words)


def time_budget(go, position):
    """The most seconds a search for `go` may take: its movetime, or the
    clock of the side to move; None when only depth, nodes or stop end it."""
    words = go.split()
    limits = {}
    for i in range(len(words) - 1):
        if _is_int(words[i + 1]):
            limits[words[i]] = max(0, int(words[i + 1]))
    if "infinite" in words or "ponder" in words:
        return None
    if "movetime" in limits:
        return limits["movetime"] / 1000
    clock = "wtime" if side_to_move(position) == "w" else "btime"
    if clock in limits:
        return (limits[clock] + limits.get(clock[0] + "inc", 0)) / 1000
    return None


def side_to_move(position):
    """'w' or 'b' after a `position startpos|fen FEN [moves ...]` line."""
    words = (position or "position startpos").split()
    moves = words.index("moves") if "moves" in words else len(words)
    side = words[3] if len(words) > 3 and words[1] == "fen" and moves > 3 else "w"
    played = len(words) - moves - 1 if moves < len(words) else 0
    return side if played % 2 == 0 else {"w": "b", "b": "w"}.get(side, "w")


def _is_int(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


class Bridge:
    def __init__(self, port, discovered=False, wait=10.0, timeout=ANSWER_WAIT, out=None):
        self.port = port
        self.discovered = discovered  # found by USB id: look again if it goes
        self.wait = wait
        self.timeout = timeout
        self.out = out or _write
        self.events = queue.Queue()
        self.link = None
        self.phase = DOWN
        self.deadline = None  # of the current phase
        self.next_attempt = 0.0  # when DOWN: when to look for the port again
        self.next_discovery = 0.0
        self.starting = True  # nothing reached the board yet
        self.held = []  # GUI lines that came before the board first answered
        self.identity = []  # id and option lines of the last `uci` answer, and uciok
        self.heard = []  # ... being collected
        self.options = {}  # option name (lower case) -> its setoption line, in order
        self.position = None
        self.pending = None
        self.crash_lines = 0  # lines of an error still to pass on
        self.asked = False  # `uci` sent in this phase
        self.done = False
        self.problem = None  # why the first connection failed

    # ------------------------------------------------------------- the loop

    def run(self, stdin=None):
        """Relay until quit or the end of input; the exit code."""
        self._connect()
        if self.link is None:
            raise BridgeError(self.problem)
        threading.Thread(target=self._read_gui, args=(stdin or sys.stdin,), daemon=True).start()
        while not self.done:
            try:
                event = self.events.get(timeout=self._timeout())
            except queue.Empty:
                event = None
            if event is not None:
                self._dispatch(event)
            self._tick()
            if self.starting and self.phase == DOWN:
                raise BridgeError(self.problem)
        if self.link:
            self.link.close()
        return 0

    def _read_gui(self, stdin):
        for line in iter(stdin.readline, ""):
            self.events.put(("gui", None, line.rstrip("\r\n")))
        self.events.put(("gui", None, None))

    def _timeout(self):
        now = time.monotonic()
        times = [now + 0.5]
        if self.phase == DOWN:
            times.append(self.next_attempt)
        elif self.deadline is not None:
            times.append(self.deadline)
        pending = self.pending
        if pending and pending.give_up is not None:
            times.append(pending.give_up)
        if pending and pending.overdue is not None and self.phase == READY:
            times.append(pending.overdue)
        return max(0.0, min(times) - now)

    def _dispatch(self, event):
        kind, link, line = event
        if kind == "gui":
            if line is None:
                self.done = True  # the GUI went away: as quit
            else:
                self._from_gui(line)
        elif link is self.link:  # not an old connection's leftovers
            if kind == "device":
                self._from_device(line)
            else:
                self._lost(line)

    def _tick(self):
        now = time.monotonic()
        if self.phase == DOWN:
            if now >= self.next_attempt:
                self._connect()
        elif self.deadline is not None and now >= self.deadline:
            self._phase_timed_out()
        pending = self.pending
        if pending and pending.give_up is not None and now >= pending.give_up:
            self._answer_without_board("the board did not come back within %g s" % self.wait)
        elif (self.phase == READY and pending and pending.overdue is not None
              and now >= pending.overdue):
            self.info("no bestmove %.1f s after the search's time ran out: the board hangs; "
                      "restarting it" % (now - pending.sent_at - pending.budget))
            self._answer_without_board("the board hangs")
            self._sync(reset=True)

    # ---------------------------------------------------------- connecting

    def _connect(self):
        now = time.monotonic()
        self.next_attempt = now + RETRY_EVERY
        port = self.port
        if self.discovered and now >= self.next_discovery and not os.path.exists(port):
            self.next_discovery = now + DISCOVER_EVERY
            found = discover(quiet=True)
            if len(found) == 1:
                port = self.port = found[0]
        try:
            link = Link(port, self.events)
        except Exception as e:
            self.problem = "cannot open the serial port %s: %s" % (port, _reason(e))
            return
        self.link = link
        self._sync()

    def _sync(self, reset=False):
        """Get UCI from the board; then restore the GUI's options, position and pending go."""
        self.heard = []
        if reset:
            self._reset_board()
        else:
            self._ask(SYNC_UCI, self.timeout)

    def _ask(self, phase, seconds):
        self._set_phase(phase, seconds)
        self.asked = True
        self.link.send("uci")

    def _reset_board(self):
        link = self.link
        link.send(INTERRUPT)
        time.sleep(0.2)
        link.send(FRIENDLY_PROMPT)
        time.sleep(0.1)
        link.send(SOFT_RESET)
        self._set_phase(SYNC_RESET, self.timeout + 1)

    def _set_phase(self, phase, seconds=None):
        self.phase = phase
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def _phase_timed_out(self):
        if self.phase == SYNC_UCI:
            self._reset_board()
        elif self.phase == SYNC_RESET:  # no start-up line: a board in UCI mode prints none
            self._ask(SYNC_UCI_AGAIN, 2 * self.timeout)
        elif self.phase == SYNC_READY:
            self._reset_board()
        elif self.phase == SYNC_UCI_AGAIN:
            self.problem = ("the board on %s does not answer uci, even after a soft reset. Is "
                            "micro960 on it (`micro960 flash`)?" % self.link.port)
            self._drop(self.problem)

    def _lost(self, why):
        self.problem = "lost the board on %s (%s)" % (self.link.port, why)
        self._drop(self.problem + "; waiting for it to come back")

    def _drop(self, message):
        self.link.close()
        self.link = None
        self._set_phase(DOWN)
        self.next_attempt = time.monotonic() + RETRY_EVERY
        if self.starting:
            return
        self.info(message)
        if self.pending:
            self.pending.sent = False
            if self.pending.give_up is None:
                self.pending.give_up = time.monotonic() + self.wait

    def _restore(self):
        """After `uciok`: the GUI's options and position, then isready."""
        for line in self.options.values():
            self.link.send(line)
        if self.position:
            self.link.send(self.position)
        self.link.send("isready")
        self._set_phase(SYNC_READY, 2 * self.timeout)

    def _ready(self):
        was_starting = self.starting
        self._set_phase(READY)
        self.starting = False
        if not was_starting:
            self.info("the board on %s is back; game restored" % self.link.port)
        pending = self.pending
        if pending:
            pending.give_up = None
            self._start(pending, pending.resumed())
            if pending.stop:
                self._send("stop")
        held, self.held = self.held, []
        for line in held:
            self._from_gui(line)

    # ------------------------------------------------------ from the board

    def _from_device(self, line):
        phase = self.phase
        if self.crash_lines and phase != READY:
            if line.startswith(BANNER) or SOFT_REBOOT in line:
                self.crash_lines = 0
            else:
                self.crash_lines -= 1
                self.out("info string board: " + line.strip())
        if phase == READY:
            self._relay(line)
        elif phase in (SYNC_UCI, SYNC_UCI_AGAIN):
            if line == "uciok":
                self.identity = self.heard + ["uciok"]
                self._restore()
            elif line.startswith("id ") or line.startswith("option "):
                self.heard.append(line)
            elif SOFT_REBOOT in line or (line.startswith(BANNER) and not self.asked):
                self._ask(phase, self.timeout)  # a reboot loses what was sent before it
        elif phase == SYNC_RESET:
            if line.startswith(BANNER) or SOFT_REBOOT in line:
                self._ask(SYNC_UCI_AGAIN, 2 * self.timeout)
        elif phase == SYNC_READY:
            if line == "readyok":
                self._ready()
            elif line.startswith(BANNER) or SOFT_REBOOT in line:
                self.info("the board restarted again")
                self._sync()

    def _relay(self, line):
        if line.startswith(BANNER) or SOFT_REBOOT in line:
            self.info("the board restarted (it said: %s); restoring the game" % line.strip())
            self._sync()
            return
        if line.startswith(TRACEBACK):
            self.info("the board's program stopped with an error; restarting it")
            self.crash_lines = CRASH_LINES  # show the error in the lines that follow
            self.out("info string board: " + line.strip())
            self.heard = []
            self.asked = False
            self._set_phase(SYNC_UCI, 0.5)  # let it finish; then Ctrl-C ... Ctrl-D
            return
        words = line.split()
        word = words[0]
        pending = self.pending
        if word == "bestmove":
            if pending is None:  # a late answer to a go the bridge answered already
                self.info("ignored the board's late " + line)
                return
            self.pending = None
        elif word == "info" and pending and "pv" in words and words[1] != "string":
            at = words.index("pv")
            if at + 1 < len(words):
                pending.best = words[at + 1]
        self.out(line if word in UCI_OUTPUT else "info string board: " + line.strip())

    # -------------------------------------------------------- from the GUI

    def _from_gui(self, line):
        words = line.split()
        if not words:
            return
        command = words[0]
        if command == "quit":
            self._quit()
            return
        if self.starting:
            self.held.append(line)
            return
        self._remember(command, words, line)
        if self.phase == READY:
            if command == "go":
                self._start(self.pending, line)
            else:
                self._send(line)
            return
        # The board is away or being brought back: answer what cannot wait.
        if command == "uci":
            for known in self.identity:
                self.out(known)
        elif command == "isready":
            if self.phase == DOWN:
                self.info("the board is not connected; waiting for it on %s" % self.port)
            self.out("readyok")
        elif command == "go" and self.phase == DOWN:
            self.info("the board is not connected; waiting up to %g s for it" % self.wait)
            self.pending.give_up = time.monotonic() + self.wait
        elif command == "stop" and self.phase == DOWN and self.pending:
            self._answer_without_board("stopped while the board is away")

    def _remember(self, command, words, line):
        """What a board that restarts must be told again."""
        if command == "setoption" and len(words) > 2:
            end = words.index("value") if "value" in words else len(words)
            name = " ".join(words[2:end]).lower()
            self.options.pop(name, None)
            self.options[name] = line
        elif command == "position":
            self.position = line
        elif command == "ucinewgame":
            self.position = None
        elif command == "go":
            self.pending = PendingGo(line)
        elif command == "stop" and self.pending:
            self.pending.stop = True

    def _send(self, line):
        self.link.send(line)

    def _start(self, pending, line):
        """Send a go; a board that has not answered it well after its time is hung."""
        self._send(line)
        pending.sent = True
        pending.sent_at = time.monotonic()
        pending.budget = time_budget(line, self.position)
        if pending.budget is not None:
            pending.overdue = time.monotonic() + pending.budget + 3 * self.timeout

    def _answer_without_board(self, why):
        pending, self.pending = self.pending, None
        move = pending.best or "0000"
        if pending.best:
            self.info("%s; playing the board's best move so far" % why)
        else:
            self.info("%s; the board gave no move for it, so none is given" % why)
        self.out("bestmove " + move)

    def _quit(self):
        """Leave the board in UCI mode and idle, for the next bridge."""
        if self.phase == READY and self.pending and self.pending.sent:
            self._send("stop")
            deadline = time.monotonic() + STOP_ON_QUIT_WAIT
            while self.pending and time.monotonic() < deadline:
                try:
                    kind, link, line = self.events.get(timeout=0.1)
                except queue.Empty:
                    continue
                if kind == "device" and link is self.link and line.startswith("bestmove"):
                    self.pending = None
        self.done = True

    def info(self, text):
        self.out("info string micro960 bridge: " + text)


# What an XBoard engine writes (thinking lines start with a number); anything
# else from the board reaches the GUI as a `#` comment, which XBoard ignores.
XBOARD_OUTPUT = ("feature", "move", "pong", "Illegal", "Error", "tell", "Hint:", "stat01:",
                 "offer", "resign", "1-0", "0-1", "1/2-1/2", "#", "askuser")
# The GUI's commands that set up a game, kept (the last of each) for a restarted board.
XBOARD_SETTINGS = ("variant", "setboard", "level", "st", "sd", "time", "otim", "post",
                   "nopost", "hard", "easy", "memory")


class XBoardBridge(Bridge):
    """The bridge for a GUI that speaks XBoard (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        Bridge.__init__(self, *args, **kwargs)
        self.settings = {}  # command -> its last line since `new`, in order
        self.moves = []  # every move of the game since `new` or `setboard`
        self.white_first = True  # the side to move at the start of self.moves
        self.engine_plays = "black"  # the engine's colour, None in force mode
        self.analyzing = False
        self.pings = 0  # the bridge's own pings to a restarted board

    def _ask(self, phase, seconds):
        self._set_phase(phase, seconds)
        self.asked = True
        self.link.send("xboard")
        self.link.send("protover 2")

    def _from_device(self, line):
        phase = self.phase
        if phase == READY:
            self._relay_xboard(line)
        elif phase in (SYNC_UCI, SYNC_UCI_AGAIN):
            if line.startswith("feature") and "done=1" in line:
                self.identity = [line]
                self._restore()
            elif SOFT_REBOOT in line or (line.startswith(BANNER) and not self.asked):
                self._ask(phase, self.timeout)
        elif phase == SYNC_RESET:
            if line.startswith(BANNER) or SOFT_REBOOT in line:
                self._ask(SYNC_UCI_AGAIN, 2 * self.timeout)
        elif phase == SYNC_READY:
            if line == "pong %d" % self.pings:
                self._ready()
            elif line.startswith(BANNER) or SOFT_REBOOT in line:
                self._sync()

    def _restore(self):
        """The game again: its settings, its moves in force mode, then who plays."""
        send = self.link.send
        send("new")
        for line in self.settings.values():
            send(line)
        send("force")
        for move in self.moves:
            send("usermove " + move)
        self.pings += 1
        send("ping %d" % self.pings)  # answered once all this is done
        self._set_phase(SYNC_READY, 2 * self.timeout)

    def _ready(self):
        """The board is back: it plays on (its move, if the game was waiting for one)."""
        white_to_move = self.white_first == (len(self.moves) % 2 == 0)
        if self.analyzing:
            self.link.send("analyze")
        elif self.engine_plays == ("white" if white_to_move else "black"):
            self.link.send("go")
        elif self.engine_plays:
            self.link.send("playother")
        Bridge._ready(self)

    def _relay_xboard(self, line):
        if line.startswith(BANNER) or SOFT_REBOOT in line or line.startswith(TRACEBACK):
            self.info("the board restarted (it said: %s); restoring the game" % line.strip())
            self.heard = []
            self.asked = False
            self._set_phase(SYNC_UCI, 0.5)  # let it finish; then Ctrl-C ... Ctrl-D
            return
        words = line.split()
        if words[0] == "move" and len(words) > 1:
            self.moves.append(words[1])
        known = words[0].startswith(XBOARD_OUTPUT) or words[0].lstrip("-")[:1].isdigit()
        self.out(line if known else "# board: " + line.strip())

    def _from_gui(self, line):
        words = line.split()
        if not words:
            return
        command = words[0]
        if command == "quit":
            self.done = True  # the board stays in XBoard mode, idle, for the next bridge
            return
        if self.phase == READY:
            self._remember(command, words, line)
            self._send(line)
        elif self.phase == DOWN and not self.starting and command in ("ping", "protover"):
            self.info("the board is away; waiting for it on %s" % self.port)
            if command == "ping":
                self.out("pong " + " ".join(words[1:]))
            for known in self.identity if command == "protover" else ():
                self.out(known)
        else:
            self.held.append(line)  # told to the board once it is back (see _ready)

    def _remember(self, command, words, line):
        if command == "new":
            self.settings, self.moves = {}, []
            self.white_first, self.engine_plays, self.analyzing = True, "black", False
        elif command in XBOARD_SETTINGS:
            self.settings.pop(command, None)
            self.settings[command] = line
            if command == "setboard":
                self.moves = []
                self.white_first = len(words) < 3 or words[2] != "b"
        elif command == "usermove" and len(words) > 1:
            self.moves.append(words[1])
        elif command in ("undo", "remove"):
            del self.moves[len(self.moves) - (1 if command == "undo" else 2):]
        elif command == "force":
            self.engine_plays = None
        elif command in ("go", "playother"):
            white_to_move = self.white_first == (len(self.moves) % 2 == 0)
            self.engine_plays = "white" if white_to_move == (command == "go") else "black"
        elif command == "analyze":
            self.analyzing = True
        elif command == "exit":
            self.analyzing = False

    def _tick(self):
        now = time.monotonic()
        if self.phase == DOWN and now >= self.next_attempt:
            self._connect()
        elif self.deadline is not None and now >= self.deadline:
            self._phase_timed_out()

    def info(self, text):
        self.out("# micro960 bridge: " + text)


class _FirstLine:
    """A stream whose first line was read already (to tell the GUI's protocol)."""

    def __init__(self, first, stream):
        self.first = first
        self.stream = stream

    def readline(self):
        if self.first is not None:
            line, self.first = self.first, None
            return line
        return self.stream.readline()


def _write(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# ------------------------------------------------------------------- ports

def discover(quiet=False):
    """The serial ports of attached Raspberry Pi boards, as `micro960 flash` finds them."""
    from . import flash
    try:
        return flash.find_picos(flash.mpremote_executable())
    except Exception:
        if quiet:
            return []
        raise


def choose_port(port):
    """(port, discovered): the given port, or the one Pico attached."""
    if port:
        return port, False
    ports = discover()
    if not ports:
        raise BridgeError(
            "no Raspberry Pi Pico found (no serial port with USB vendor id 2e8a). Plug it in "
            "with a USB data cable, or name the port: --port /dev/ttyACM0 (COM3 on Windows).")
    if len(ports) > 1:
        raise BridgeError("several Raspberry Pi boards found (%s): choose one with --port."
                          % ", ".join(ports))
    return ports[0], True


# --------------------------------------------------------------------- cli

def build_parser():
    parser = argparse.ArgumentParser(
        prog="micro960 bridge", allow_abbrev=False,
        description="A UCI (or XBoard) engine on stdin/stdout that is the micro960 on a "
                    "Raspberry Pi Pico, "
                    "through its USB serial port: give this command to a chess GUI as the "
                    "engine.")
    parser.add_argument("--port", help="the board's serial port, e.g. /dev/ttyACM0 or COM3 "
                                       "(default: the Raspberry Pi board attached over USB, "
                                       "found by its USB id)")
    parser.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                        help="how long a `go` waits for a vanished board to come back before "
                             "it is answered without it (default 10)")
    parser.add_argument("--timeout", type=float, default=ANSWER_WAIT, metavar="SECONDS",
                        help="how long the board may take to answer `uci` before it is "
                             "interrupted and soft-reset (default %g)" % ANSWER_WAIT)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        port, discovered = choose_port(args.port)
        first = sys.stdin.readline()  # the GUI's first line says its protocol
        kind = XBoardBridge if first.strip() == "xboard" else Bridge
        return kind(port, discovered, wait=args.wait, timeout=args.timeout).run(
            _FirstLine(first, sys.stdin))
    except BridgeError as e:
        sys.stderr.write("micro960 bridge: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        return 130

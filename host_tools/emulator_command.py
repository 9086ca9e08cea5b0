"""`micro960 emulator`: play the real firmware on an emulated Pico, no board needed.

    micro960 emulator [--board NAME]

The emulated Pico of host_tools/emulator.py (stock MicroPython on the
RP2040 emulator, its flash holding the bundle `micro960 flash` copies)
boots, and this terminal is its USB serial console, as a terminal program
on a real Pico's port would be: what you type goes to the board a key at a
time (the board echoes it and edits the line), what it says is shown as it
comes. Ctrl-C or Ctrl-D quits; so does the game's `quit`, which ends
micro960's program on the board. While the board waits for a key its
clock runs as this machine's (EmulatedPico's real_time), so a game clock
counts the player's thinking; while it computes, its clock runs as slowly
as the emulator does.

With standard input not a terminal (a pipe, a file) its lines are sent as
they come, as if typed at once: a line that arrives while the engine thinks
makes it move now (quit, stop, an empty line) or is refused, as on the
console. When the input ends, `quit` is sent for it.
"""
import argparse
import os
import select
import signal
import sys

from . import emulator

# MicroPython starts a line with this when the program it booted (main.py)
# has ended, and its prompt follows: the emulator stops there.
MICROPYTHON_BANNER = b"MicroPython v"
CTRL_C, CTRL_D = b"\x03", b"\x04"

# How fast the emulator runs a Pico at micro960's 200 MHz on a PC (the
# bench's search: 5.6 s of the device's time in some 33 s here).
SPEED = "about 1/6 of a real Pico's speed"

DESCRIPTION = (
    "Play the real firmware on an emulated Raspberry Pi Pico, no board needed: stock "
    "MicroPython 1.28 on the RP2040 emulator rp2040js (Node.js), with micro960 on its flash "
    "as `micro960 flash` installs it, and this terminal on its USB serial console. Type as "
    "on a real Pico's console; Ctrl-C or Ctrl-D quits, and so does the game's quit. The "
    "emulator runs at %s on a PC (less on a busy one), "
    "flash-cache stalls and all: the engine's thinking time is counted on the board's "
    "clock, which runs that much slower while the board computes, so a move takes about "
    "six times longer here; while the board waits for you its clock runs in real time "
    "(a game clock counts your thinking). Each run starts from a freshly flashed board: "
    "nothing is kept from the last. Piped input is sent line by line as it comes, and "
    "`quit` at its end: printf 'e4\\nquit\\n' | micro960 emulator." % SPEED)


def rp2040_boards():
    """The boards of boards/ with an RP2040, the chip the emulator is."""
    from . import flash
    return [name for name in flash.board_names()
            if flash.board_config(name).MPY_ARCH == "armv6m"]


def build_parser():
    parser = argparse.ArgumentParser(prog="micro960 emulator", allow_abbrev=False,
                                     description=DESCRIPTION)
    parser.add_argument("--board", choices=rp2040_boards(), default="pico",
                        help="the board configuration in boards/ its flash holds, one with an "
                             "RP2040 as the emulated chip is (default pico)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    reason = emulator.missing()
    if reason:
        sys.stderr.write("micro960 emulator: %s\n" % reason)
        return 1
    terminal = os.isatty(sys.stdin.fileno())
    say("building micro960 for board %s and booting it on an emulated Pico "
        "(%s)%s" % (
            args.board, SPEED, "; Ctrl-C or Ctrl-D quits" if terminal else ""))
    relay = Relay()
    pico = None
    try:
        pico = emulator.EmulatedPico(args.board, on_output=relay.show, real_time=True)
        if terminal:
            return keys(pico, relay)
        return lines(pico, relay)
    except KeyboardInterrupt:
        if terminal:
            sys.stdout.write("\n")  # below what the board said last
        return quit_note(0)
    finally:
        if pico:
            pico.close()


def say(text):
    sys.stderr.write("micro960 emulator: %s\n" % text)
    sys.stderr.flush()


def quit_note(code):
    sys.stdout.flush()
    say("the emulated Pico is switched off")
    return code


class Relay:
    """Shows what the board says as it comes, up to the end of its program:
    MicroPython's banner and prompt after it are not the game's."""

    def __init__(self):
        self.held = b""  # the start of a line that may be the banner's
        self.line_start = True
        self.ended = False

    def show(self, data):
        if self.ended:
            return
        data = self.held + data
        self.held = b""
        shown = len(data)
        for start in self.line_starts(data):
            begun = data[start:start + len(MICROPYTHON_BANNER)]
            if begun == MICROPYTHON_BANNER:
                self.ended = True
                shown = start
                break
            if start + len(begun) == len(data) and MICROPYTHON_BANNER.startswith(begun):
                self.held = data[start:]  # the rest will tell
                shown = start
                break
        try:
            out = sys.stdout.buffer
            out.write(data[:shown])
            out.flush()
        except OSError:  # nothing reads what it says any more (a closed pipe)
            self.ended = True
            return
        if shown:
            self.line_start = data[shown - 1:shown] in (b"\r", b"\n")

    def line_starts(self, data):
        if self.line_start:
            yield 0
        for at, byte in enumerate(data):
            if byte in b"\r\n":
                yield at + 1


def stopped(pico, relay):
    """Why to stop now: the board's program ended or the emulator did; else None."""
    if relay.ended:
        return quit_note(0)
    code = pico.process.poll()
    if code == -signal.SIGINT:  # Ctrl-C reached the emulator too, which is quitting
        raise KeyboardInterrupt
    if code not in (None, emulator.REBOOT):
        say("the emulator stopped (exit code %s)" % code)
        return 1
    return None


def keys(pico, relay):
    """A person at this terminal: every key goes to the board as it is
    typed (the board echoes it), Ctrl-C and Ctrl-D quit."""
    import termios
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    # No line editing and no echo here: the board's console does both, as
    # it does for a terminal program on a real Pico. Ctrl-C still raises
    # KeyboardInterrupt (ISIG is kept), which quits.
    mode[3] &= ~(termios.ICANON | termios.ECHO)
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSADRAIN, mode)
    try:
        while True:
            code = stopped(pico, relay)
            if code is not None:
                return code
            if not select.select([fd], [], [], 0.1)[0]:
                continue
            data = os.read(fd, 1024)
            if not data or CTRL_D in data or CTRL_C in data:
                sys.stdout.write("\n")
                return quit_note(0)
            pico.write(data)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def lines(pico, relay):
    """Piped input: sent as it comes; at its end, `quit`."""
    fd = sys.stdin.fileno()
    last = b"\n"
    while True:
        code = stopped(pico, relay)
        if code is not None:
            return code
        if fd is not None and select.select([fd], [], [], 0.1)[0]:
            data = os.read(fd, 1024)
            if data:
                pico.write(data)
                last = data[-1:]
                continue
            fd = None
            pico.send(("" if last in b"\r\n" else "\r") + "quit")
        elif fd is None:
            select.select([], [], [], 0.1)

"""`micro960 emulator` as a player uses it: the real firmware on the emulated
Pico, its console on a pipe or on a terminal (a pseudo-terminal here).

Skipped, with the reason, where Node.js or rp2040js is missing (as
tests/test_pico.py). Each test boots the board once: some seconds.
"""
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time

import pytest

from host_tools import emulator

from conftest import REPO, tool_missing

COMMAND = [sys.executable, "-m", "host_tools", "emulator"]
SWITCHED_OFF = "micro960 emulator: the emulated Pico is switched off"


@pytest.fixture(autouse=True)
def emulator_present():
    if emulator.missing():
        tool_missing(emulator.missing())


def test_a_piped_move_gets_the_engines_reply():
    """printf 'e4\\nquit\\n' | micro960 emulator: the console starts on the
    first line, plays it, and the engine answers (quit, arriving while it
    thinks, makes it move at once); then the emulator stops by itself, and
    MicroPython's prompt after the program's end is not shown."""
    done = subprocess.run(COMMAND, cwd=REPO, input="e4\nquit\n", capture_output=True,
                          text=True, timeout=180)
    out = done.stdout.replace("\r\n", "\n")
    assert done.returncode == 0, (out[-1000:], done.stderr)
    assert "1. e4\n" in out and "\nmicro960 plays 1..." in out, out[-1000:]
    assert out.endswith("White to move\n"), out[-300:]
    assert "MicroPython v" not in out and ">>>" not in out, out[-300:]
    assert done.stderr.endswith(SWITCHED_OFF + "\n"), done.stderr


def test_the_end_of_piped_input_quits():
    """Input that ends without quit: the emulator sends quit for it, and
    does not wait for ever."""
    done = subprocess.run(COMMAND + ["--board", "picow"], cwd=REPO, input="e4\n",
                          capture_output=True, text=True, timeout=180)
    out = done.stdout.replace("\r\n", "\n")
    assert done.returncode == 0, (out[-1000:], done.stderr)
    assert "micro960 on Raspberry Pi Pico W: press Enter" in out, out[:500]
    assert "\nmicro960 plays 1..." in out, out[-1000:]


class Terminal:
    """micro960 emulator on a pseudo-terminal, as a person's terminal runs it."""

    def __init__(self):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, on the terminal's far side
            os.chdir(REPO)
            os.execv(sys.executable, COMMAND)
        self.said = b""
        self.seen = 0  # until() looks for its text after what it found last

    def until(self, text, timeout=120):
        deadline = time.monotonic() + timeout
        while text.encode() not in self.said[self.seen:]:
            if not select.select([self.fd], [], [], max(0, deadline - time.monotonic()))[0]:
                raise AssertionError("no %r within %s s: %r" % (text, timeout, self.said[-500:]))
            try:
                self.said += os.read(self.fd, 4096)
            except OSError:  # the command has ended and closed the terminal
                raise AssertionError("no %r: %r" % (text, self.said[-500:]))
        self.seen = self.said.index(text.encode(), self.seen) + len(text)

    def type(self, keys):
        os.write(self.fd, keys.encode())

    def exit_code(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, 9)
        raise AssertionError("still running: %r" % self.said[-500:])

    def close(self):
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.fixture
def terminal():
    term = Terminal()
    yield term
    term.close()


def test_a_move_on_a_clock_on_a_terminal_then_ctrl_d_quits(terminal):
    """Keys go to the board as typed (the board echoes them), the board's
    console answers live; the player's clock runs while the board waits for
    their move, as on a Pico (the emulator's own clock would stand still);
    Ctrl-D quits, and the terminal is as it was."""
    before = termios.tcgetattr(terminal.fd)
    terminal.until("press Enter")
    assert not termios.tcgetattr(terminal.fd)[3] & termios.ECHO  # the board echoes
    terminal.type("\r")
    terminal.until("White to move")
    terminal.type("clock 5\r")
    terminal.until("White 5:00, Black 5:00.")
    time.sleep(4)
    terminal.type("clock\r")
    terminal.until("Black 5:00.", timeout=30)
    white = re.findall(rb"Clock 5: White (\d+):(\d\d), Black 5:00", terminal.said)[-1]
    assert 4 * 60 + 50 <= int(white[0]) * 60 + int(white[1]) <= 4 * 60 + 56, terminal.said[-300:]
    terminal.type("e4\r")
    terminal.until("Black to move")
    terminal.type("\r")  # Enter while the engine thinks: it moves now
    terminal.until("micro960 plays 1...")
    terminal.type("\x04")
    terminal.until(SWITCHED_OFF)
    assert terminal.exit_code() == 0
    assert b"e4" in terminal.said  # echoed by the board
    assert termios.tcgetattr(terminal.fd) == before


def test_ctrl_c_quits_cleanly(terminal):
    terminal.until("press Enter")
    terminal.type("\x03")
    terminal.until(SWITCHED_OFF)
    assert terminal.exit_code() == 0
    assert b"Traceback" not in terminal.said, terminal.said

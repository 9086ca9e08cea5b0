"""The console at a serial terminal: real standard input (a pipe, or a
pseudo-terminal in raw mode as a Pico's USB serial port is), on MicroPython
(polled a character at a time) and on CPython (a reader thread).

And firmware/main.py end to end on the MicroPython unix port: with a board
whose ECHO is on, the console echoes what is typed, and UCI never does.
"""
import fcntl
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

import pytest

from host_tools import runtime

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"

READER = '''
import sys
sys.path.insert(0, %r)
from micro960.lines import StdinLines
lines = StdinLines(echo=%r)
first = lines.poll()  # a line only if one has arrived: never waits
print("poll: None" if first is None else "<%%s>" %% first)
while True:
    line = lines.readline()
    if line is None:
        break
    print("<%%s>" %% line)
print("end")
'''

TYPED = "e5\x7f4\r\nN\x1b[Df3\r\n\r\nnew\t519\x088\x1bOB\rquit"
LINES = ["e4", "Nf3", "", "new 518", "quit"]


def command(python, echo):
    code = READER % (str(FIRMWARE), echo)
    if python == "micropython":
        return [runtime.micropython_executable(), "-X", "heapsize=64K", "-c", code]
    return [sys.executable, "-c", code]


def lines_of(output):
    return [line[1:-1] for line in output.split("\n") if line.startswith("<")]


@pytest.mark.parametrize("python", ["micropython", "cpython"])
def test_lines_from_a_pipe(python):
    result = subprocess.run(command(python, False), input=TYPED, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert lines_of(result.stdout) == LINES  # the first by poll() or by readline()
    assert result.stdout.endswith("end\n")


def read_until(fd, text, timeout=20):
    """What the child wrote to the terminal, up to and including `text`."""
    seen = b""
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError("no %r in %r" % (text, seen))
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            chunk = b""
        if not chunk:
            raise AssertionError("no %r in %r" % (text, seen))
        seen += chunk
    return seen.decode()


@pytest.mark.parametrize("python", ["micropython", "cpython"])
def test_a_raw_terminal_with_echo_after_a_long_pause(python):
    master, slave = pty.openpty()
    tty.setraw(slave)  # a Pico's serial port: no line editing, no echo from the terminal
    child = subprocess.Popen(command(python, True), stdin=slave, stdout=slave,
                             stderr=subprocess.PIPE)
    os.close(slave)
    try:
        read_until(master, "poll: None")  # nothing was sent: poll() does not wait for it
        time.sleep(1.5)  # the player thinks; the reader just waits
        os.write(master, b"e5\x7f4\r")
        seen = read_until(master, "<e4>")
        # Echoed as typed, rubbed out with backspace-space-backspace, then the line.
        assert "e5\b \b4\n<e4>" in seen
        os.write(master, b"\nNf3\x1b[D\r")  # the LF of the CR LF above ends no line
        seen = read_until(master, "<Nf3>")
        assert "<>" not in seen and "Nf3\n<Nf3>" in seen
        os.write(master, b"\x1b[A\x1b[A\r")  # up, up: the line before last
        assert "Nf3" + "\b \b" * 3 + "e4\n<e4>" in read_until(master, "<e4>")
        os.write(master, b"\x04")  # Ctrl-D is ignored, not the end of input
        os.write(master, b"quit\r")
        assert "quit\n<quit>" in read_until(master, "<quit>")
    finally:
        child.kill()
        child.wait(timeout=10)
        os.close(master)


INTERRUPTED = '''
import os, signal, sys, time
sys.path.insert(0, %r)
from micro960.lines import StdinLines
read, write = os.pipe()
lines = StdinLines(os.fdopen(read))
armed = [False]

def ctrl_c(signum, frame):  # one KeyboardInterrupt each time the loop below arms it
    if armed[0]:
        armed[0] = False
        raise KeyboardInterrupt

signal.signal(signal.SIGALRM, ctrl_c)
signal.setitimer(signal.ITIMER_REAL, 0.0005, 0.0005)
stops = 0
end = time.monotonic() + 2
while time.monotonic() < end:
    try:
        armed[0] = True
        while True:  # a search polling for input, as the console's does
            lines.poll()
    except KeyboardInterrupt:
        stops += 1
signal.setitimer(signal.ITIMER_REAL, 0, 0)
os.write(write, b"fen\\n")
print(stops, lines.readline())
'''


def test_a_ctrl_c_while_a_search_polls_leaves_the_input_readable():
    """CPython's reader thread hands text over through a queue. queue.Queue
    took a lock in Python code, and a Ctrl-C landing just after it was taken
    left it held: the next readline waited for ever (a test's `fen` after
    Ctrl-C during pondering once got no answer). Thousands of interrupts at
    random points of polling, then a line must still come. (MicroPython
    polls the stream itself, with no lock and no thread.)"""
    result = subprocess.run([sys.executable, "-c", INTERRUPTED % str(FIRMWARE)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    stops, line = result.stdout.split()
    assert int(stops) > 500 and line == "fen"


POLLED = '''
import sys
sys.path.insert(0, %r)
from micropython import heap_lock, heap_unlock
from micro960.lines import StdinLines
lines = StdinLines()
lines.poll()  # the first makes the result ipoll reuses
heap_lock()  # any allocation now raises MemoryError
try:
    for _ in range(1000):  # a search's polls over 16,000 nodes
        lines.poll()
finally:
    heap_unlock()
print("polled")
print(lines.readline())
'''


def test_polling_for_a_line_allocates_nothing_on_micropython():
    """A search polls the input every 16 nodes. On the unix port a Ctrl-C
    is raised from the signal handler wherever the program is, and one that
    lands in a garbage collection leaves the heap locked for good (a CI run
    of test_play_thinking's Ctrl-C test died so): polls that allocate nothing
    give the collector no reason to run during a search. (On a board it
    saves the collections' time.)"""
    with subprocess.Popen([runtime.micropython_executable(), "-X", "heapsize=64K", "-c",
                           POLLED % str(FIRMWARE)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as child:
        polled = child.stdout.readline()  # nothing is typed until the polls are over
        out = polled + child.communicate("fen\n", timeout=60)[0]
    assert child.returncode == 0 and out == "polled\nfen\n", out


def run_main(tmp_path, typed):
    """firmware/main.py on MicroPython with a board that echoes; its output.
    As on a board, main.py is source and the package is compiled (.mpy)."""
    (tmp_path / "board.py").write_text('NAME = "test board"\nECHO = True\nHASH_KB = 4\n')
    shutil.copy(FIRMWARE / "main.py", tmp_path / "main.py")
    games = tmp_path / "games"
    env = {"MICROPYPATH": "%s:%s" % (tmp_path, runtime.build_firmware()),
           "MICRO960_GAMES": str(games)}
    result = runtime.run_micropython([tmp_path / "main.py"], heap="224K", input=typed,
                                     env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_main_echoes_the_console_on_a_board_with_echo(tmp_path):
    output = run_main(tmp_path, "\rboth\rnew 518\re5\x084\r\x1b[A\x15quit\r")
    assert "micro960 on test board: press Enter to play, or send uci or xboard." in output
    # Each line comes back as typed (the rub-out included) before the console answers.
    assert "both\nTwo players" in output
    assert "new 518\nNew chess960 game. Start position SP 518" in output
    assert "e5\b \b4\n1. e4\n" in output
    assert "Last move: 1. e4" in output
    # The up arrow brought back e4, Ctrl-U rubbed it out, then quit.
    assert "e4\b \b\b \bquit\n" in output


def test_main_never_echoes_in_uci_mode(tmp_path):
    output = run_main(tmp_path, "uci\r\nisready\r\nposition startpos moves e2e4\r\n"
                                "go depth 1\r\nisready\r\nquit\r\n")
    lines = output.split("\n")
    assert "uciok" in lines and "readyok" in lines
    assert any(line.startswith("bestmove ") for line in lines)
    assert not any(line.startswith(("uci", "isready", "position", "go ", "quit"))
                   and line != "uciok" for line in lines), output


@pytest.mark.parametrize("python", ["micropython", "cpython"])
def test_micro960_play_with_ansi_colours(python, tmp_path):
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", python, "--color", "both",
            "--sp", "518", "--ansi"]
    env = dict(os.environ, MICRO960_GAMES=str(tmp_path))
    # CR LF line ends and an arrow key, as a terminal program might pass them on.
    result = subprocess.run(play, input="e4\r\n\x1b[Acolor off\r\nquit\r\n", text=True,
                            capture_output=True, cwd=REPO, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout
    assert "error" not in output, output
    first, _, rest = output.partition("1. e4\n")
    assert "\x1b[43m" in first and "\x1b[46m" not in first  # coloured; no move yet
    assert "\x1b[46m\x1b[1;97m P " in rest  # the pawn on e4, highlighted
    assert "Last move: 1. e4\nBlack to move" in rest
    assert rest.split("Black to move")[1].lstrip("\n").startswith("  +-----------------+")
    bad = subprocess.run(play[:-1] + ["--ansi", "yes"], input="", text=True,
                         capture_output=True, cwd=REPO, env=env, timeout=120)
    assert bad.returncode == 2 and "error: unknown option yes" in bad.stdout


def test_main_answers_xboard_like_uci(tmp_path):
    output = run_main(tmp_path, "xboard\r\nprotover 2\r\nnew\r\nsd 1\r\nusermove e2e4\r\n"
                                "ping 9\r\nquit\r\n")
    lines = output.split("\n")
    assert any(line.startswith("feature ") and "done=1" in line for line in lines), output
    assert any(line.startswith("move ") for line in lines) and "pong 9" in lines, output
    assert not any(line.startswith(("xboard", "protover", "usermove")) for line in lines), output


def as_a_terminal_runs_it():
    """In the child: the pseudo-terminal is its controlling terminal, so a
    Ctrl-C typed there is SIGINT to the whole foreground job (make and its
    children), as in a terminal window; and SIGINT is not ignored, as it is
    in a shell's background job."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def test_ctrl_c_at_the_prompt_under_make_play_saves_and_reports_no_error(tmp_path):
    """`make play` once ended on a Ctrl-C at the prompt with `make: *** [...]
    Error 130` and no word of the game (issue 40). Now the program says
    where the game is saved and ends with status 0; make, which got the
    same SIGINT, then ends by it as it always does, reporting nothing."""
    if not shutil.which("make"):
        pytest.skip("no make")
    if subprocess.run(["make", "-q", ".venv/requirements.stamp"], cwd=REPO).returncode:
        pytest.skip("make setup first: make play would install the requirements now")
    master, slave = pty.openpty()
    env = dict(os.environ, MICRO960_GAMES=str(tmp_path))
    # (two players: no engine to wait for, nor its thinking on your time,
    # which the first Ctrl-C would stop; test_play_thinking has that)
    make = subprocess.Popen(["make", "play", "ARGS=--sp 518 --color both"], cwd=REPO, env=env,
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                            preexec_fn=as_a_terminal_runs_it)
    os.close(slave)
    try:
        read_until(master, "White to move", timeout=60)  # at the prompt
        os.write(master, b"e4\r")
        read_until(master, "Black to move", timeout=60)
        os.write(master, b"\x03")  # Ctrl-C, as typed
        said = read_until(master, "next time.", timeout=30)
        make.wait(timeout=30)
        try:  # what make said after (EIO once nothing holds the terminal open)
            said += os.read(master, 4096).decode() if select.select([master], [], [], 1)[0] \
                else ""
        except OSError:
            pass
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
        make.wait(timeout=10)
        os.close(master)
    saved = tmp_path / "game.txt"
    assert "^C\r\nGame saved in %s; micro960 play takes it up again next time." % saved in said, \
        said
    assert "make: ***" not in said and "Error" not in said, said
    assert make.returncode in (0, -signal.SIGINT), (make.returncode, said)
    assert "\nmoves e2e4\n" in saved.read_text()

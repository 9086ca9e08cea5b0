"""`micro960 bridge` end to end: python-chess as the GUI, the bridge, and a
"Pico" that is the real firmware (firmware/main.py and the compiled .mpy
modules) running on the MicroPython unix port with a Pico-sized heap.

The Pico's USB serial port is played by two pseudo-terminals. The board
process has the slave of one as its stdin and stdout, in raw mode like a USB
CDC port; the bridge opens the slave of the other through a symlink, as a
user would open /dev/serial/by-id/usb-MicroPython_...; a thread copies bytes
between the two masters. So the test can reset the board (kill the process
and start main.py again behind the same port) or pull the cable (close the
bridge's side, which makes its port fail and its device node vanish, and
plug a new one in later), freeze it (SIGSTOP: a hung board) or make main.py
die with a traceback (SIGINT), and it sees every byte the bridge sends.

What a real Pico does that this cannot show: its REPL. The tests check that
the bridge sends Ctrl-C, Ctrl-C, Ctrl-B, Ctrl-D when `uci` gets no answer,
but not that a Pico then soft-resets and runs main.py again (the unix port
has no soft reset: the "board" here is restarted by the test instead). Nor
USB itself: re-enumeration after a hard reset, DTR, the port coming back
under another name.
"""
import errno
import logging
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time
import tty
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

import chess
import chess.engine
import pytest

from host_tools import runtime

REPO = Path(__file__).resolve().parent.parent
HEAP = "224K"  # 192K before the network's weights (24.7 KB)
# Chess960: the king on b1 castles a-side (Kc1, Rd1) and mates. Only an
# engine told UCI_Chess960 writes it b1a1 (king takes rook).
CASTLING_MATE = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"


class Pico:
    """The firmware on the unix port, behind a serial port at self.port."""

    def __init__(self, folder):
        self.folder = folder
        shutil.copyfile(REPO / "firmware" / "main.py", folder / "main.py")
        shutil.copyfile(REPO / "boards" / "pico" / "board.py", folder / "board.py")
        self.port = folder / "ttyACM0"
        self.env = dict(os.environ, MICROPYPATH=str(runtime.build_firmware()),
                        MICRO960_GAMES=str(folder / "games"))
        self.board_end, self.board_fd = pty.openpty()  # the board's side
        tty.setraw(self.board_fd)
        self.host_end = self.host_fd = None
        self.lock = threading.Lock()
        self.received = []  # lines sent to the board
        self.raw = bytearray()  # ... and every byte of them, control characters too
        self.said = []  # lines the board wrote
        self.process = None
        self.running = True
        self.plug()
        self.start()
        self.relay = threading.Thread(target=self._relay, daemon=True)
        self.relay.start()

    # The board and its cable.

    def start(self):
        """Power on: main.py starts, with nothing left in its input."""
        termios.tcflush(self.board_fd, termios.TCIFLUSH)
        self.process = subprocess.Popen(
            [runtime.micropython_executable(), "-X", "heapsize=" + HEAP, "main.py"],
            stdin=self.board_fd, stdout=self.board_fd, stderr=self.board_fd, cwd=self.folder,
            env=self.env, start_new_session=True)

    def power_off(self):
        self.process.kill()
        self.process.wait()

    def reset(self):
        """The reset button, with the port staying: main.py starts again."""
        self.power_off()
        self.start()

    def plug(self):
        """A new device node for the bridge to open, behind the same name."""
        host_end, host_fd = pty.openpty()
        tty.setraw(host_fd)  # no echo before the bridge opens it
        os.set_blocking(host_end, False)
        with self.lock:
            self.host_end, self.host_fd = host_end, host_fd
        if self.port.is_symlink():
            self.port.unlink()
        self.port.symlink_to(os.ttyname(host_fd))

    def unplug(self):
        """The cable pulled: the bridge's port fails and its node goes."""
        with self.lock:
            host_end, host_fd = self.host_end, self.host_fd
            self.host_end = self.host_fd = None
        self.port.unlink()
        os.close(host_end)
        os.close(host_fd)

    def type(self, line):
        """A person at a terminal on the board's port."""
        os.write(self.board_end, line.encode() + b"\r")

    def _relay(self):
        partial = {self.board_end: b"", "host": b""}
        while self.running:
            with self.lock:
                host_end = self.host_end
            ends = [self.board_end] + ([host_end] if host_end is not None else [])
            try:
                ready = select.select(ends, [], [], 0.05)[0]
            except (OSError, ValueError):
                continue  # the host end was closed while waiting
            for end in ready:
                try:
                    data = os.read(end, 4096)
                except BlockingIOError:
                    continue
                except OSError as e:
                    if e.errno not in (errno.EIO, errno.EBADF):
                        raise
                    continue
                if end == self.board_end:
                    self._keep(partial, end, data, self.said)
                    try:
                        if host_end is not None:
                            os.write(host_end, data)
                    except OSError:
                        pass  # nobody listening: the bytes are lost, as on USB
                else:
                    self.raw += data
                    self._keep(partial, "host", data, self.received)
                    os.write(self.board_end, data)

    @staticmethod
    def _keep(partial, key, data, lines):
        text = partial[key] + data.replace(b"\r", b"\n")
        *done, partial[key] = text.split(b"\n")
        lines.extend(line.decode("utf-8", "replace") for line in done if line.strip())

    def wait_until_said(self, text, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.said):
                return
            time.sleep(0.02)
        raise AssertionError("the board never said %r; it said %r" % (text, self.said[-10:]))

    def close(self):
        self.running = False
        self.relay.join()
        if self.process.poll() is None:
            self.power_off()
        for fd in (self.board_end, self.board_fd, self.host_end, self.host_fd):
            if fd is not None:
                os.close(fd)


@pytest.fixture
def pico(tmp_path):
    board = Pico(tmp_path)
    yield board
    board.close()


def bridge(pico, *options):
    return chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "host_tools", "bridge", "--port", str(pico.port)] + list(options),
        cwd=REPO, timeout=20)


@pytest.fixture
def lines_to_gui(caplog):
    """The lines the bridge writes to the GUI, from python-chess's debug log."""
    caplog.set_level(logging.DEBUG, logger="chess.engine")

    def lines():
        return [record.getMessage().split(" >> ", 1)[1] for record in caplog.records
                if " >> " in record.getMessage()]
    return lines


def eventually(condition, timeout=5):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within %s s" % timeout
        time.sleep(0.02)


def finished(search, timeout=15):
    """The bestmove of a running analysis, failing rather than hanging without one."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(search.wait).result(timeout)
    except FutureTimeout:
        raise AssertionError("no bestmove within %s s" % timeout)
    finally:
        pool.shutdown(wait=False)


def play(engine, board, plies, limit=chess.engine.Limit(time=0.1)):
    for _ in range(plies):
        move = engine.play(board, limit).move
        assert move in board.legal_moves, move
        board.push(move)


def test_plays_chess960_through_the_board_even_from_the_middle_of_a_console_game(pico):
    # Someone was playing on the serial console: main.py runs the console game.
    pico.type("new 0")
    pico.wait_until_said("Type help for commands.")
    engine = bridge(pico)
    try:
        assert engine.id["name"].startswith("micro960")
        assert "UCI_Chess960" in engine.options and "HashKB" in engine.options
        board = chess.Board.from_chess960_pos(123)
        play(engine, board, 4)
        # Castling goes through as king-takes-rook both ways.
        castle = engine.play(chess.Board(CASTLING_MATE, chess960=True),
                             chess.engine.Limit(depth=2)).move
        assert castle == chess.Move.from_uci("b1a1")
        assert "setoption name UCI_Chess960 value true" in pico.received
        moves = " ".join(move.uci() for move in board.move_stack[:-1])  # before the last go
        assert any(line.startswith("position fen ") and line.endswith(" moves " + moves)
                   for line in pico.received)
    finally:
        engine.quit()
    assert engine.protocol.returncode.result() == 0
    # quit is not passed on: the board stays in UCI mode for the next bridge,
    # which gets UCI from it at once, with no reset.
    assert "quit" not in pico.received and pico.process.poll() is None
    assert pico.received.count("uci") == 2  # the bridge's own, then python-chess's
    engine = bridge(pico)
    try:
        play(engine, board, 1)
    finally:
        engine.quit()
    assert pico.received.count("uci") == 4 and b"\x03" not in pico.raw


def test_a_reset_mid_search_is_survived_and_the_game_goes_on(pico, lines_to_gui):
    engine = bridge(pico)
    try:
        board = chess.Board.from_chess960_pos(700)
        play(engine, board, 2)
        before = list(pico.received)
        started = time.monotonic()
        with engine.analysis(board, chess.engine.Limit(time=1.5)) as search:
            for info in search:
                if "pv" in info:
                    break
            pico.reset()
            best = finished(search)
        assert time.monotonic() - started < 8
        assert best.move in board.legal_moves
        # The restarted board was given UCI, the options, the position and the go again.
        again = pico.received[len(before):]
        go = again.index("go movetime 1500")
        position = again[go - 1]
        assert position.startswith("position fen ") and position.endswith(
            " moves " + " ".join(move.uci() for move in board.move_stack))
        tail = again[go + 1:]
        assert tail[:4] == ["uci", "setoption name UCI_Chess960 value true", position,
                            "isready"], tail
        assert tail[4].startswith("go movetime ") and 1 <= int(tail[4].split()[2]) < 1500
        assert any("the board restarted" in line for line in lines_to_gui())
        # python-chess does not send UCI_Chess960 again: the bridge's copy counts.
        castle = engine.play(chess.Board(CASTLING_MATE, chess960=True),
                             chess.engine.Limit(depth=2)).move
        assert castle == chess.Move.from_uci("b1a1")
        play(engine, board, 2)
    finally:
        engine.quit()


def test_a_vanished_board_is_reported_and_the_gui_never_hangs(pico, lines_to_gui):
    engine = bridge(pico, "--wait", "1")
    try:
        board = chess.Board.from_chess960_pos(5)
        play(engine, board, 1)

        # Pulled mid-search: after --wait the board's best move so far is played.
        with engine.analysis(board, chess.engine.Limit(time=20)) as search:
            for info in search:
                if "pv" in info:
                    break
            pico.unplug()
            pico.power_off()
            started = time.monotonic()
            best = finished(search)
        assert 0.8 < time.monotonic() - started < 5
        assert best.move == search.info["pv"][0]  # the last pv the board sent
        assert best.move in board.legal_moves
        said = lines_to_gui()
        assert any(line.startswith("info string micro960 bridge: lost the board on ")
                   for line in said), said

        # Still away: isready is answered, a go ends in no move rather than never.
        engine.ping()
        started = time.monotonic()
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move == chess.Move.null()
        assert time.monotonic() - started < 4
        assert "info string micro960 bridge: the board is not connected; waiting up to 1 s " \
               "for it" in lines_to_gui()

        # Plugged in again: the bridge finds it, restores the game and plays on.
        before = len(pico.received)
        pico.plug()
        pico.start()
        play(engine, board, 2)
        again = pico.received[before:]
        assert again[:2] == ["uci", "setoption name UCI_Chess960 value true"], again
        assert any("is back; game restored" in line for line in lines_to_gui())
    finally:
        engine.quit()


def test_a_hung_board_is_restarted_and_the_gui_still_gets_a_move(pico, lines_to_gui):
    engine = bridge(pico, "--timeout", "0.5", "--wait", "1")
    try:
        board = chess.Board.from_chess960_pos(959)
        play(engine, board, 1)
        with engine.analysis(board, chess.engine.Limit(time=1)) as search:
            for info in search:
                if "pv" in info:
                    break
            pico.process.send_signal(signal.SIGSTOP)  # hangs: no output, input not read
            started = time.monotonic()
            best = finished(search)
        # 1 s + 3 x 0.5 s until it counts as hung: the board's last pv move is
        # played, and the board interrupted and reset.
        assert 2 < time.monotonic() - started < 6
        assert best.move == search.info["pv"][0]
        assert any("the board hangs; restarting it" in line for line in lines_to_gui())
        eventually(lambda: b"\x03\x03\x02\x04" in pico.raw)  # Ctrl-C Ctrl-C Ctrl-B Ctrl-D
        pico.process.send_signal(signal.SIGCONT)  # it wakes up, and answers uci at last
        play(engine, board, 2, chess.engine.Limit(time=0.2))
    finally:
        engine.quit()


def test_a_crash_on_the_board_is_shown_and_the_game_restored(pico, lines_to_gui):
    engine = bridge(pico, "--timeout", "0.5")
    try:
        board = chess.Board.from_chess960_pos(42)
        play(engine, board, 1)
        # main.py dies with a traceback (here a KeyboardInterrupt); the board
        # starts it again, as a Pico does after the bridge's Ctrl-D.
        pico.process.send_signal(signal.SIGINT)
        assert pico.process.wait(timeout=5) != 0
        pico.start()
        play(engine, board, 2)
        said = lines_to_gui()
        assert "info string micro960 bridge: the board's program stopped with an error; " \
               "restarting it" in said
        assert "info string board: Traceback (most recent call last):" in said
        assert any(line.startswith("info string board: KeyboardInterrupt") for line in said)
        assert pico.received.count("setoption name UCI_Chess960 value true") == 2
    finally:
        engine.quit()


def test_a_board_that_never_answers_is_interrupted_reset_and_reported(pico):
    pico.power_off()  # the port is there, nothing answers on it
    started = time.monotonic()
    with subprocess.Popen(
            [sys.executable, "-m", "host_tools", "bridge", "--port", str(pico.port),
             "--timeout", "0.3"], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True) as bridge_process:
        bridge_process.stdin.write("uci\n")  # and the GUI waits, its pipe open
        bridge_process.stdin.flush()
        assert bridge_process.wait(timeout=10) == 1
        out, err = bridge_process.stdout.read(), bridge_process.stderr.read()
    assert time.monotonic() - started < 6
    assert out == ""
    assert err == (
        "micro960 bridge: the board on %s does not answer uci, even after a soft reset. Is "
        "micro960 on it (`micro960 flash`)?\n" % pico.port)
    # uci; Ctrl-C twice, Ctrl-B (leave the raw REPL), Ctrl-D (soft reset); uci again.
    assert bytes(pico.raw) == b"uci\n\x03\x03\x02\x04uci\n"


def test_the_time_a_search_may_take():
    from host_tools.bridge import side_to_move, time_budget
    assert side_to_move("position startpos") == "w"
    assert side_to_move("position startpos moves e2e4") == "b"
    assert side_to_move("position fen %s moves c2c4 c7c5" % CASTLING_MATE.replace(" w ", " b ")) \
        == "b"
    assert side_to_move("position fen %s moves b1a1" % CASTLING_MATE) == "b"
    after_e4 = "position startpos moves e2e4"
    assert time_budget("go movetime 1500", after_e4) == 1.5
    assert time_budget("go wtime 60000 btime 30000 winc 1000 binc 2000", after_e4) == 32
    assert time_budget("go wtime 60000 btime 30000", "position startpos") == 60
    assert time_budget("go depth 5", after_e4) is None
    assert time_budget("go infinite", after_e4) is None


def test_no_board_no_bridge(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "bridge", "--port", str(tmp_path / "ttyACM9")],
        cwd=REPO, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert result.stderr.startswith("micro960 bridge: cannot open the serial port ")
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_an_xboard_gui_plays_through_the_board_and_a_reset_is_survived(pico, caplog):
    """A GUI whose first line is xboard gets the XBoard protocol from the board;
    after a reset the board is told the game again (in force mode) and plays on."""
    engine = chess.engine.SimpleEngine.popen_xboard(
        [sys.executable, "-m", "host_tools", "bridge", "--port", str(pico.port)],
        cwd=REPO, timeout=20)
    try:
        assert engine.id["name"].startswith("micro960")
        board = chess.Board.from_chess960_pos(123)
        play(engine, board, 4, chess.engine.Limit(depth=2))
        pico.reset()
        time.sleep(0.5)
        play(engine, board, 4, chess.engine.Limit(depth=2))
        # The restarted board heard the game again: its set-up, then the four
        # moves in force mode, then (once it answered ping) whom it plays:
        # Black, as before the reset (playother); then the GUI's own go.
        restart = len(pico.received) - 1 - pico.received[::-1].index("protover 2")
        again = pico.received[restart:]
        first = []  # as the bridge tells them: castling as O-O or O-O-O
        replay = chess.Board.from_chess960_pos(123)
        for move in board.move_stack[:4]:
            if replay.is_castling(move):
                first.append("O-O" if replay.is_kingside_castling(move) else "O-O-O")
            else:
                first.append(move.uci())
            replay.push(move)
        force = again.index("force")
        assert again[force + 1:force + 5] == ["usermove " + move for move in first], again
        assert again[force + 5].startswith("ping ") and again[force + 6] == "playother", again
        assert "go" in again[force + 7:], again
        assert any(line.startswith("setboard ") for line in again[:force])
        castle = engine.play(chess.Board(CASTLING_MATE, chess960=True),
                             chess.engine.Limit(depth=2)).move
        assert castle == chess.Move.from_uci("b1a1")
    finally:
        engine.quit()
    assert "quit" not in pico.received

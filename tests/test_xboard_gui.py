"""The real XBoard (Debian's xboard) runs micro960 as both its engines, under a
headless X server (Xvfb): a Chess960 game from a set-up XBoard loads itself.

XBoard's debug log holds every line it sent and read. The moves the engines
sent must replay legally (python-chess, Chess960 rules) from the position
XBoard sent with setboard, and neither engine may ever answer `Illegal move`
or `Error`. The test ends with a screenshot of the board (MICRO960_SCREENSHOT
names the PNG to keep; README's picture was made so). It skips where xboard,
Xvfb or xwd is not installed (.ci/run installs them).
"""
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from conftest import need_tool

REPO = Path(__file__).resolve().parent.parent
SP_0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"


def tool(name):
    return need_tool(name, "xboard xvfb x11-apps")


@pytest.fixture
def display():
    xvfb = tool("Xvfb")
    for number in range(99, 120):
        if not os.path.exists("/tmp/.X11-unix/X%d" % number):
            break
    server = subprocess.Popen([xvfb, ":%d" % number, "-screen", "0", "800x600x24"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    yield ":%d" % number
    server.kill()
    server.wait()


def engine(runtime):
    return "%s -m host_tools xboard --runtime %s" % (sys.executable, runtime)


def test_xboard_plays_a_chess960_game_between_both_runtimes(display, tmp_path):
    xboard = tool("xboard")
    tool("xwd")
    (tmp_path / "start.fen").write_text(SP_0 + "\n")
    log = tmp_path / "xboard.log"
    env = dict(os.environ, DISPLAY=display)
    gui = subprocess.Popen(
        [xboard, "-variant", "fischerandom", "-lpf", str(tmp_path / "start.fen"),
         "-mode", "TwoMachines", "-fcp", engine("cpython"), "-fd", str(REPO),
         "-scp", engine("micropython"), "-sd", str(REPO), "-tc", "0:12", "-inc", "0",
         "-debug", "-nameOfDebugFile", str(log)],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            time.sleep(2)
            text = log.read_text(errors="replace") if log.exists() else ""
            if len(re.findall(r"<(first|second): move ", text)) >= 24 or \
                    re.search(r">first\s*: result ", text):  # enough, or the game ended
                break
        shot = tmp_path / "xboard.png"
        picture = subprocess.run(["xwd", "-root", "-silent"], env=env, capture_output=True)
        if shutil.which("convert"):
            subprocess.run(["convert", "xwd:-", "png:%s" % shot], input=picture.stdout)
        if os.getenv("MICRO960_SCREENSHOT") and shot.exists():
            shutil.copy(shot, os.getenv("MICRO960_SCREENSHOT"))
    finally:
        gui.kill()
        gui.wait()
    text = log.read_text(errors="replace")
    said = re.findall(r"<(?:first|second)\s*: (.*)", text)
    assert not [line for line in said if line.startswith(("Illegal move", "Error"))], said
    setboard = re.findall(r">first\s*: setboard (.*)", text)
    assert setboard and setboard[-1].split()[0] == SP_0.split()[0], setboard
    board = chess.Board(setboard[-1], chess960=True)
    moves = re.findall(r"<(?:first|second)\s*: move (\S+)", text)
    assert len(moves) >= 10, moves
    for move in moves:
        board.push(board.parse_xboard(move))  # raises if illegal
    for player in ("first", "second"):
        thinking = thinking_between_moves(text, player)
        assert max(runs(lines) for lines, _ in thinking) <= 2, (player, thinking)
        assert pondering_is_scored_from_the_engines_side(thinking), (player, thinking)


THINKING = re.compile(r"(\d+) (-?\d+) \d+ \d+ (.*)")


def thinking_between_moves(text, player):
    """[(thinking lines, the move after them)] of XBoard's first or second
    engine: each line as (depth, score, pv words); None for the move after
    the last lines."""
    said = re.findall(r"<%s\s*: (.*)" % player, text)
    thinking, lines = [], []
    for line in said:
        match = THINKING.match(line)
        if line.startswith("move "):
            thinking.append((lines, line.split()[1]))
            lines = []
        elif match:
            lines.append((int(match.group(1)), int(match.group(2)), match.group(3).split()))
    return thinking + [(lines, None)]


def runs(lines):
    """How many runs of rising depth: each search starts one."""
    depths = [depth for depth, _, _ in lines]
    return sum(1 for i, depth in enumerate(depths) if i == 0 or depth <= depths[i - 1])


def pondering_is_scored_from_the_engines_side(thinking):
    """The engine's last line before its move (depth d, score s, pv m1 m2
    ...) and its pondering's line of depth d - 1 that starts with m2 are the
    same search a ply on: their scores have the same sign where they are of
    the same size (they had opposite signs, the opponent's view, before)."""
    same = opposite = 0
    for (lines, move), (after, _) in zip(thinking, thinking[1:]):
        if not lines or move is None:
            continue
        depth, score, pv = lines[-1]
        for ponder_depth, ponder_score, ponder_pv in after:
            if ponder_depth == depth - 1 and ponder_pv[:1] == pv[1:2] and score and \
                    abs(ponder_score) == abs(score):
                same += ponder_score == score
                opposite += ponder_score != score
                break
    return same > opposite

"""The console keeps the game: saved after every move, taken up again at the
next start, archived to games.pgn when it ends."""
import subprocess
import sys
from pathlib import Path

import pytest

from micro960.text.console import Console
from micro960.engine.search import Limits
from micro960.device.storage import GameStore

REPO = Path(__file__).resolve().parent.parent


def console(folder, said):
    c = Console("chess960", 518, out=said.append, engine_side=None, hash_kb=4)
    c.limits = Limits(nodes=200)
    return c, c.resume(GameStore(str(folder)))


def test_a_game_is_taken_up_where_it_stopped_and_archived_when_it_ends(tmp_path):
    said = []
    c, resumed = console(tmp_path, said)
    assert not resumed
    for line in ("f3", "e5", "g4"):
        c.handle(line)
    fen = c.game.pos.fen()
    # The power goes; at the next start the game comes back.
    again, resumed = console(tmp_path, said)
    assert resumed and again.game.pos.fen() == fen
    assert any(line.startswith("Resuming your saved game (2 moves") for line in said)  # 2. g4
    again.handle("Qh4#")
    assert (tmp_path / "games.pgn").read_text().count("[Result \"0-1\"]") == 1
    # The summary says where it went, after the game's PGN.
    assert said[-1] == ("Finished games go to %s. Type new for another game."
                        % again.store.archive_path)
    assert again.store.archive_path.endswith("games.pgn")
    assert any(text.endswith("\n1. f3 e5 2. g4 Qh4# 0-1") for text in said)
    # A finished game is not offered again.
    _, resumed = console(tmp_path, said)
    assert not resumed


def test_micro960_play_keeps_its_game_between_runs(tmp_path):
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", "cpython", "--color", "both",
            "--sp", "518"]
    subprocess.run(play, input="e4\ne5\nquit\n", text=True, capture_output=True, cwd=REPO,
                   env=env, timeout=60, check=True)
    result = subprocess.run(play, input="fen\nquit\n", text=True, capture_output=True,
                            cwd=REPO, env=env, timeout=60, check=True)
    assert "Resuming your saved game (1 move played)" in result.stdout  # 1. e4 e5
    assert "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" in result.stdout \
        or "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in result.stdout


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_side_level_and_time_come_back_with_the_game(runtime, tmp_path):
    """They were lost: the engine came back playing the person's side at full
    strength. (quit arrives while the engine thinks: it moves, then ends.)"""
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", runtime]
    subprocess.run(play, input="new 100\nlevel 1500\ntime 0.5\nblack\nquit\n", text=True,
                   capture_output=True, cwd=REPO, env=env, timeout=120, check=True)
    result = subprocess.run(play, input="level\ntime\nfen\nquit\n", text=True,
                            capture_output=True, cwd=REPO, env=env, timeout=120, check=True)
    out = result.stdout
    assert "Resuming your saved game (1 move played)" in out, out
    assert "You play Black; micro960 plays White." in out, out
    assert "Level 1500: plays at about 1500 Elo." in out.split("Resuming")[1], out
    assert "The engine thinks 0.5 seconds a move." in out, out
    assert " b " in out.strip().split("\n")[-1], out  # Black, the person, to move


def test_a_finished_game_is_archived_once_and_not_taken_back(tmp_path):
    said = []
    c, _ = console(tmp_path, said)
    for line in ("f3", "e5", "g4", "Qh4#", "undo", "moves"):
        c.handle(line)
    assert said[-2:] == ["error: the game is over (checkmate); type new"] * 2, said[-2:]
    c.handle("new 518")
    for line in ("e4", "resign", "moves", "undo"):
        c.handle(line)
    assert said[-2:] == ["error: the game is over (Black resigns); type new"] * 2, said[-2:]
    archive = (tmp_path / "games.pgn").read_text()
    assert archive.count("[Result") == 2 and archive.count("Qh4#") == 1, archive


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_a_shuffle_game_ends_is_archived_and_its_rules_come_back(runtime, tmp_path):
    """A shuffle game once ended in an error about set-up numbers, with no PGN."""
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", runtime, "--color", "both"]
    first = subprocess.run(play + ["--rules", "shuffle", "--sp", "RNBQKBNR"],
                           input="e4\nquit\n", text=True, capture_output=True, cwd=REPO,
                           env=env, timeout=120)
    assert first.returncode == 0 and "shuffle game. Start position set-up 8" in first.stdout
    again = subprocess.run(play, input="resign\nquit\n", text=True, capture_output=True,
                           cwd=REPO, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "Game over: 1-0 (Black resigns)" in again.stdout and "error" not in again.stdout
    archive = (tmp_path / "games.pgn").read_text()
    assert '[Variant "Shuffle"]' in archive and "1. e4 1-0" in archive, archive


def test_play_help_lists_every_option_and_sp_takes_two_set_ups(tmp_path):
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", "cpython"]
    usage = subprocess.run(play + ["--help"], text=True, capture_output=True, cwd=REPO,
                           env=env, timeout=60).stdout
    for option in ("--rules", "--sp", "--fen", "--color", "--level", "--time", "--unicode",
                   "--ansi", "--runtime", "--heap"):
        assert option in usage, option
    out = subprocess.run(play + ["--rules", "double960", "--sp", "5 900", "--color", "both"],
                         input="quit\n", text=True, capture_output=True, cwd=REPO, env=env,
                         timeout=60).stdout
    assert "double960 game. Start position SP 5 / SP 900 (QNBBNRKR / RBBKQRNN)." in out, out
    bad = subprocess.run(play + ["--rules", "shuffle", "--sp", "549"], text=True,
                         capture_output=True, cwd=REPO, env=env, timeout=60)
    assert bad.returncode == 2 and "shuffle set-ups run from 0 to 17" in bad.stdout


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_a_game_on_a_clock_is_archived_with_its_clocks_for_python_chess(runtime, tmp_path):
    """The PGN of a game on a clock carries TimeControl and each move's %clk,
    as python-chess reads them; a power cut between runs keeps the clocks."""
    import chess.pgn
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", runtime, "--color", "both",
            "--sp", "518"]
    subprocess.run(play, input="clock 3+2\nf3\ne5\nquit\n", text=True, capture_output=True,
                   cwd=REPO, env=env, timeout=120, check=True)
    result = subprocess.run(play, input="g4\nQh4#\nquit\n", text=True, capture_output=True,
                            cwd=REPO, env=env, timeout=120, check=True)
    assert "Clock 3+2: White 3:0" in result.stdout, result.stdout[-2000:]
    game = chess.pgn.read_game(open(tmp_path / "games.pgn"))
    assert game.headers["TimeControl"] == "180+2" and game.headers["Result"] == "0-1"
    clocks = [node.clock() for node in game.mainline()]
    assert [str(move) for move in game.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    # Each move took well under a second and earned its 2 s: 3:02 left, or 3:01.
    assert all(180 < clock <= 182 for clock in clocks[:2]) and all(
        180 < clock <= 184 for clock in clocks[2:]), clocks


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_options_typed_for_a_resumed_game_are_applied_or_said_not_to_be(runtime, tmp_path):
    """They were dropped without a word: `play --rules lrs --level 5 --color
    black` took up a chess960 game as White at level 20."""
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", runtime]
    first = subprocess.run(play + ["--color", "both", "--sp", "518"], input="e4\ne5\nNf3\nquit\n",
                           text=True, capture_output=True, cwd=REPO, env=env, timeout=120,
                           check=True).stdout
    assert first.count("Level 20") == 1, first  # said once
    assert "Level 20; the engine thinks 5 seconds a move." in first, first
    result = subprocess.run(play + ["--rules", "lrs", "--level", "5", "--color", "both",
                                    "--time", "1", "--sp", "7", "--unicode"],
                            input="level\ntime\nquit\n", text=True, capture_output=True,
                            cwd=REPO, env=env, timeout=120, check=True)
    out = result.stdout
    start = out.index("Resuming")
    assert out[start:].split("\n")[:6] == [
        "Resuming your saved game (2 moves played); type new for a new game.",
        "chess960 game. Start position SP 518 (RNBQKBNR).",
        "--rules lrs not applied: a saved chess960 game was resumed; type rules lrs to start one.",
        "--sp 7 not applied: a saved chess960 game was resumed; type new 7 to start one.",
        "Two players: the engine moves only when you type go.",
        "Level 5; the engine thinks 1 second a move."], out
    assert out.count("Level 5") == 2 and "Level 20" not in out, out  # and `level`
    assert "The engine thinks 1 second a move." in out, out
    assert "1 | \u2656 \u2658 \u2657" in out, out  # --unicode: chess symbols


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_a_set_up_phase_left_by_quit_comes_back_on_the_default_heap(runtime, tmp_path):
    env = {"MICRO960_GAMES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    play = [sys.executable, "-m", "host_tools", "play", "--runtime", runtime, "--color", "both"]
    first = subprocess.run(play, input="new 518\nnew setup\nc1\nd1\nquit\n", text=True,
                           capture_output=True, cwd=REPO, env=env, timeout=120, check=True).stdout
    assert "error" not in first and "Black places a bishop: b1 d1 f1 h1" in first, first
    out = subprocess.run(play, input="a1\nquit\n", text=True, capture_output=True, cwd=REPO,
                         env=env, timeout=120, check=True).stdout
    assert "Resuming your set-up phase (chess960, 2 placed); type new for a new game." in out, out
    assert "White places a queen: a1 b1 e1 f1 g1 h1" in out and "error" not in out, out
    assert out.strip().endswith("Black places a knight: b1 e1 f1 g1 h1"), out

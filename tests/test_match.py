"""`micro960 match`: real short matches between real engines, and the ways a
game can end badly, played by a tiny scripted UCI engine that crashes,
dawdles or cheats on request.

Stockfish (and polyglot, for the XBoard side) come from Debian; .ci/run
installs them. Debian puts them in /usr/games, which is not on root's PATH,
so the matches run with /usr/games added to it.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest

from host_tools import elo, match

REPO = Path(__file__).resolve().parent.parent
PATH = os.environ.get("PATH", "") + os.pathsep + os.pathsep.join(match.GAME_DIRS)

PROGRESS = re.compile(
    r"game (\d+)/(\d+)  SP (\d+)  (.+) - (.+)  (1-0|0-1|1/2-1/2)  (.+)  "
    r"score \+(\d+) =(\d+) -(\d+) \(([0-9.]+)/(\d+)\)$")
SCORE = re.compile(
    r"Score of (.+) vs (.+): (\d+) wins?, (\d+) draws?, (\d+) loss(?:es)?; "
    r"([0-9.]+)/(\d+) \(([0-9.]+)%\)$")

# A UCI engine that plays the first legal move (in UCI order), and on request
# starts slowly, crashes on its Nth move of a game, sleeps before moving,
# sends an illegal move, or does not offer UCI_Chess960.
FAKE_ENGINE = r'''
import sys, time
import chess
args = sys.argv[1:]
def flag(name, default=None):
    return args[args.index(name) + 1] if name in args else default
crash_at = int(flag("--crash-at", 0))
sleep = float(flag("--sleep", 0))
time.sleep(float(flag("--start-delay", 0)))  # a slow start: nothing is read meanwhile
board = chess.Board(chess960=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake %s" % " ".join(args))
        if "--no960" not in args:
            print("option name UCI_Chess960 type check default false")
        print("uciok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position":
        fen = chess.STARTING_FEN
        if words[1] == "fen":
            fen = " ".join(words[2:8])
        board = chess.Board(fen, chess960=True)
        if "moves" in words:
            for uci in words[words.index("moves") + 1:]:
                board.push_uci(uci)
    elif words[0] == "go":
        my_moves = len(board.move_stack) // 2 + 1
        if crash_at and my_moves >= crash_at:
            sys.exit(3)
        time.sleep(sleep)
        move = min(board.legal_moves, key=lambda m: m.uci())
        if "--illegal" in args:
            move = chess.Move(move.from_square, board.king(board.turn))
        print("info depth 1 score cp 0")
        print("bestmove %s" % move.uci())
    elif words[0] == "quit":
        break
    sys.stdout.flush()
'''


def find_engine(name):
    return shutil.which(name, path=PATH)


def needs(*names):
    return pytest.mark.tools(*names)


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    """fake("--crash-at", "3") is a command line for the scripted engine."""
    script = tmp_path_factory.mktemp("engines") / "fake_uci.py"
    script.write_text(FAKE_ENGINE)
    return lambda *args: shlex.join([sys.executable, str(script)] + [str(arg) for arg in args])


def micro960_match(*args, timeout=120):
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "match"] + [str(arg) for arg in args],
        cwd=REPO, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        env=dict(os.environ, PATH=PATH))
    result.seconds = time.monotonic() - started
    return result


def read_pgn(path):
    games = []
    with open(path) as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return games
            assert not game.errors, game.errors
            games.append(game)


def progress_lines(stdout):
    return [PROGRESS.match(line) for line in stdout.splitlines() if line.startswith("game ")]


def start_positions(stdout):
    """The SP of each game, in game order, from the progress lines."""
    return [line.group(3) for line in sorted(progress_lines(stdout), key=lambda m: int(m.group(1)))]


def engine_score(games, engine_name):
    """(wins, draws, losses) of engine_name in the PGN games."""
    points = []
    for game in games:
        result = game.headers["Result"]
        if result == "1/2-1/2":
            points.append(0.5)
        else:
            points.append(1.0 if (result == "1-0") == (game.headers["White"] == engine_name) else 0.0)
    return points.count(1.0), points.count(0.5), points.count(0.0)


def check_match_output(result, pgn_path, games_wanted):
    """The checks every finished match passes; returns the PGN games and the score match."""
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    progress = progress_lines(result.stdout)
    assert len(progress) == games_wanted and all(progress), result.stdout
    score = SCORE.match(lines[-3])
    assert score, result.stdout
    engine_name, opponent_name = score.group(1), score.group(2)
    wins, draws, losses = (int(score.group(i)) for i in (3, 4, 5))
    assert lines[-2] == "Elo difference (95% confidence): " + elo.format_elo(wins, draws, losses)
    assert lines[-1] == "games written to %s" % pgn_path
    # The last progress line carries the final running score.
    last = progress[-1]
    assert (int(last.group(8)), int(last.group(9)), int(last.group(10))) == (wins, draws, losses)

    games = read_pgn(pgn_path)
    assert len(games) == games_wanted
    assert [game.headers["Round"] for game in games] == [str(n + 1) for n in range(games_wanted)]
    by_number = {int(line.group(1)): line for line in progress}
    for game in games:
        headers = game.headers
        line = by_number[int(headers["Round"])]
        sp = int(line.group(3))
        assert headers["Variant"] == "Chess960"
        assert headers["SetUp"] == "1"
        assert headers["FEN"] == chess.Board.from_chess960_pos(sp).fen()
        assert game.board().chess960
        assert (headers["White"], headers["Black"]) == (line.group(4), line.group(5))
        assert {headers["White"], headers["Black"]} == {engine_name, opponent_name}
        assert headers["Result"] == line.group(6)
        assert headers["Termination"]
        assert headers["TimeControl"]
        assert game.end().comment.endswith(line.group(7)) or game.comment == line.group(7)
        if headers["Termination"] == "normal" and "resigns" not in line.group(7):
            outcome = game.end().board().outcome(claim_draw=True)
            assert outcome is not None and outcome.result() == headers["Result"]
    # Each SP twice, the colours swapped.
    for first, second in zip(games[0::2], games[1::2]):
        assert first.headers["FEN"] == second.headers["FEN"]
        assert first.headers["White"] == second.headers["Black"] == engine_name
        assert first.headers["Black"] == second.headers["White"] == opponent_name
    assert engine_score(games, engine_name) == (wins, draws, losses)
    return games, score


# ------------------------------------------------------------ real matches


@needs("stockfish")
def test_stockfish_match_by_nodes(tmp_path):
    pgn = tmp_path / "games.pgn"
    result = micro960_match(
        "--engine", "stockfish", "--engine-option", "Skill Level=0",
        "--opponent", "stockfish", "--nodes", 200, "--games", 2, "--seed", 5, "--pgn", pgn)
    games, score = check_match_output(result, pgn, 2)
    assert result.stdout.splitlines()[0] == "%s vs %s: 2 games, 200 nodes, seed 5, 2 at a time" % (
        score.group(1), score.group(2))
    assert score.group(1).endswith("(engine)") and score.group(2).endswith("(opponent)")
    assert all(game.headers["TimeControl"] == "-" for game in games)
    # --seed repeats the draw of start positions.
    again = micro960_match("--engine", "stockfish", "--opponent", "stockfish",
                           "--depth", 1, "--max-moves", 1, "--games", 2, "--seed", 5)
    assert start_positions(again.stdout) == start_positions(result.stdout)


@needs("stockfish")
def test_stockfish_match_with_clocks_and_a_move_cap(tmp_path):
    pgn = tmp_path / "games.pgn"
    result = micro960_match(
        "--engine", "stockfish", "--opponent", "stockfish", "--opponent-option", "Skill Level=0",
        "--opponent-option", "UCI_LimitStrength=True", "--opponent-option", "UCI_Elo=1400",
        "--tc", "0.5+0.02", "--max-moves", 15, "--games", 2, "--seed", 11, "--pgn", pgn)
    games, _ = check_match_output(result, pgn, 2)
    for game in games:
        assert game.headers["TimeControl"] == "0.5+0.02"
        if game.headers["Termination"] == "adjudication":
            assert game.headers["Result"] == "1/2-1/2"
            assert len(list(game.mainline_moves())) == 30
            assert "--max-moves" in game.end().comment


def go_commands(stderr):
    """{engine name: the `go` lines --debug shows it was sent}; python-chess
    logs each line with the engine's pid, and each engine says its name."""
    names, goes = {}, {}
    for line in stderr.splitlines():
        found = re.search(r"\(pid=(\d+)\)>: (<<|>>) (.*)$", line)
        if not found:
            continue
        pid, direction, text = found.groups()
        if direction == ">>" and text.startswith("id name "):
            names[pid] = text[len("id name "):]
        elif direction == "<<" and text.startswith("go"):
            goes.setdefault(pid, []).append(text)
    by_name = {}
    for pid, lines in goes.items():
        by_name.setdefault(names[pid], []).extend(lines)
    return by_name


# Each case: the limit options, and the `go` line each side must be sent
# (a pattern), micro960 being the engine under test and Stockfish the opponent.
SIDE_LIMITS = {
    "shared nodes, the opponent's own move time": (
        ("--nodes", 300, "--opponent-movetime", 0.05), r"go nodes 300", r"go movetime 50",
        "300 nodes vs 0.05 s a move"),
    "each its own": (
        ("--engine-depth", 2, "--opponent-nodes", 500), r"go depth 2", r"go nodes 500",
        "depth 2 vs 500 nodes"),
    "shared move time, the engine's own clock": (
        ("--movetime", 0.05, "--engine-tc", "5+0.1"), r"go [wb]time \d+ [wb]inc 100",
        r"go movetime 50", "5+0.1 vs 0.05 s a move"),
}


@needs("stockfish")
@pytest.mark.parametrize("case", sorted(SIDE_LIMITS))
def test_each_side_plays_by_its_own_limit(tmp_path, case):
    """--engine-*/--opponent-* replace the shared limit for that side only:
    micro960 and Stockfish are sent different `go` commands, as the PGN says."""
    options, engine_go, opponent_go, described = SIDE_LIMITS[case]
    pgn = tmp_path / "games.pgn"
    # The time margin is wide: this test is about what each side is asked
    # for, not about delays of a loaded machine.
    result = micro960_match("--opponent", "stockfish", *options, "--max-moves", 3,
                            "--time-margin", 3, "--games", 2, "--seed", 2, "--pgn", pgn,
                            "--debug")
    games, score = check_match_output(result, pgn, 2)
    engine_name, opponent_name = score.group(1, 2)
    assert engine_name.startswith("micro960") and opponent_name.startswith("Stockfish")
    goes = go_commands(result.stderr)
    assert goes[engine_name] and goes[opponent_name], result.stderr
    assert all(re.fullmatch(engine_go, go) for go in goes[engine_name]), goes
    assert all(re.fullmatch(opponent_go, go) for go in goes[opponent_name]), goes
    assert result.stdout.splitlines()[0].startswith(
        "%s vs %s: 2 games, %s, seed 2" % (engine_name, opponent_name, described))
    engine_limit, opponent_limit = described.split(" vs ")
    for game in games:
        headers = game.headers
        assert headers["Event"] == "micro960 match, %s (%s) vs %s (%s)" % (
            engine_name, engine_limit, opponent_name, opponent_limit)
        by_colour = {headers["White"]: headers["WhiteLimit"],
                     headers["Black"]: headers["BlackLimit"]}
        assert by_colour == {engine_name: engine_limit, opponent_name: opponent_limit}
        # Limits that differ have no common PGN time control; nodes and depth no clock.
        assert headers["TimeControl"] == ("-" if "nodes" in opponent_limit else "?")
        game.time_control()  # python-chess reads the tag


@needs("stockfish")
def test_a_shared_move_time_is_sent_to_both_sides(tmp_path):
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", "stockfish", "--opponent", "stockfish",
                            "--movetime", 0.05, "--max-moves", 3, "--time-margin", 3,
                            "--games", 2, "--seed", 4, "--pgn", pgn, "--debug")
    games, _ = check_match_output(result, pgn, 2)
    assert ", 0.05 s a move, seed 4," in result.stdout.splitlines()[0]
    goes = [go for lines in go_commands(result.stderr).values() for go in lines]
    assert len(goes) == 12 and set(goes) == {"go movetime 50"}, result.stdout
    for game in games:
        assert game.headers["Event"] == "micro960 match, 0.05 s a move"
        assert game.headers["TimeControl"] == "?"  # PGN has no form for a time a move
        assert "WhiteLimit" not in game.headers and "BlackLimit" not in game.headers


@needs("stockfish")
def test_shared_limits_name_no_side(tmp_path):
    """The shared --nodes with --depth: both sides get both, as before."""
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", "stockfish", "--opponent", "stockfish", "--nodes", 300,
                            "--depth", 3, "--max-moves", 2, "--games", 2, "--seed", 4,
                            "--pgn", pgn, "--debug")
    games, _ = check_match_output(result, pgn, 2)
    goes = [go for lines in go_commands(result.stderr).values() for go in lines]
    assert len(goes) == 8 and set(goes) == {"go depth 3 nodes 300"}, goes
    for game in games:
        assert game.headers["Event"] == "micro960 match, 300 nodes, depth 3"
        assert game.headers["TimeControl"] == "-"
        assert "WhiteLimit" not in game.headers


@needs("stockfish", "polyglot")
def test_xboard_opponent(tmp_path):
    # Debian's fairymax cannot play Chess960 (no setboard, no fischerandom);
    # polyglot turns Stockfish into an XBoard engine that can.
    pgn = tmp_path / "games.pgn"
    polyglot = shlex.join([find_engine("polyglot"), "-noini", "-ec", find_engine("stockfish")])
    result = micro960_match(
        "--engine", "stockfish", "--opponent", polyglot, "--opponent-protocol", "xboard",
        "--nodes", 200, "--max-moves", 40, "--games", 2, "--seed", 3, "--pgn", pgn)
    check_match_output(result, pgn, 2)


@needs("fairymax")
def test_fairymax_is_refused_with_a_reason():
    result = micro960_match("--engine", "stockfish", "--opponent", "fairymax",
                            "--opponent-protocol", "xboard", "--nodes", 100, "--games", 2)
    assert result.returncode == 1
    assert "cannot start opponent" in result.stderr and "setboard" in result.stderr


def test_the_default_engine_is_micro960_uci(tmp_path, fake):
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--opponent", fake(), "--nodes", 50, "--max-moves", 4,
                            "--games", 2, "--seed", 1, "--pgn", pgn)
    check_match_output(result, pgn, 2)
    assert result.stdout.startswith("micro960")


def test_pondering_sends_ponderhit_for_each_hit(tmp_path):
    """--ponder: the engine under test ponders on each reply it expects; each
    hit the summary counts was a UCI ponderhit, as a GUI sends it."""
    pgn = tmp_path / "games.pgn"
    opponent = shlex.join([sys.executable, "-m", "host_tools", "uci"])
    result = micro960_match("--ponder", "--opponent", opponent, "--tc", "2+0.05",
                            "--max-moves", 8, "--games", 2, "--concurrency", 1, "--seed", 3,
                            "--pgn", pgn, "--debug")
    check_match_output(result, pgn, 2)
    hits = re.fullmatch(r"Ponder hits of .+ \(engine\): (\d+) of (\d+) replies \(\d+%\)",
                        result.stdout.splitlines()[-4])
    assert hits, result.stdout
    sent = [line.split(">> ")[-1] if ">> " in line else line.split("<< ")[-1]
            for line in result.stderr.splitlines() if "<< " in line]
    assert int(hits.group(1)) == sent.count("ponderhit") > 0
    # one `go ponder` for each reply it expected (and more for games that ended meanwhile)
    goes = len([line for line in sent if line.startswith("go ponder")])
    assert int(hits.group(2)) <= goes <= int(hits.group(2)) + 2


def test_ponder_needs_uci():
    result = micro960_match("--ponder", "--engine-protocol", "xboard", "--opponent", "stockfish",
                            "--nodes", 10)
    assert result.returncode == 2 and "--ponder needs a UCI engine" in result.stderr


# ------------------------------------------------------ games that go wrong


def test_a_crashing_engine_loses_and_the_match_goes_on(tmp_path, fake):
    pgn = tmp_path / "games.pgn"
    # One slot: the crashed opponent must be restarted for every next game.
    result = micro960_match("--engine", fake(), "--opponent", fake("--crash-at", 3),
                            "--nodes", 1, "--games", 4, "--concurrency", 1, "--pgn", pgn)
    games, score = check_match_output(result, pgn, 4)
    assert score.group(3, 4, 5) == ("4", "0", "0")
    for game in games:
        assert game.headers["Termination"] == "abandoned"
        assert "engine crashed" in game.end().comment
        opponent_white = game.headers["White"] == score.group(2)
        assert len(list(game.mainline_moves())) == (4 if opponent_white else 5)


def test_a_slow_engine_loses_on_time(tmp_path, fake):
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", fake(), "--opponent", fake("--sleep", 0.3),
                            "--tc", "0.5+0", "--games", 2, "--pgn", pgn)
    games, score = check_match_output(result, pgn, 2)
    assert score.group(3, 4, 5) == ("2", "0", "0")
    assert all(game.headers["Termination"] == "time forfeit" for game in games)


def test_a_move_over_its_move_time_loses_on_time(tmp_path, fake):
    """A time a move is a limit too: a move taking longer than it and
    --time-margin loses; the other side, limited by nodes, may take its time."""
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", fake("--sleep", 0.3), "--opponent", fake("--sleep", 0.3),
                            "--engine-nodes", 1, "--opponent-movetime", 0.1,
                            "--time-margin", 0.1, "--games", 2, "--pgn", pgn)
    games, score = check_match_output(result, pgn, 2)
    assert score.group(3, 4, 5) == ("2", "0", "0")
    for game in games:
        assert game.headers["Termination"] == "time forfeit"
        assert "no move in 0.20 s" in (game.end().comment or game.comment)


def test_an_illegal_move_loses(tmp_path, fake):
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", fake("--illegal"), "--opponent", fake(),
                            "--nodes", 1, "--games", 2, "--pgn", pgn)
    games, score = check_match_output(result, pgn, 2)
    assert score.group(3, 4, 5) == ("0", "0", "2")
    assert all(game.headers["Termination"] == "rules infraction" for game in games)
    assert "illegal" in games[0].end().comment or "illegal" in games[0].comment


def slow_xboard(seconds):
    """micro960 xboard that takes `seconds` to start, as MicroPython under
    load or a Pico behind the bridge may."""
    return shlex.join(["sh", "-c", "sleep %g; exec %s -m host_tools xboard"
                       % (seconds, shlex.quote(sys.executable))])


def test_a_slow_start_is_waited_for_over_xboard_and_uci(tmp_path, fake):
    """python-chess alone gives an XBoard engine 2 s to list its features:
    a bare clone's `make test` lost a match to "Timeout during
    initialization" on a loaded machine. The match's start-up wait counts."""
    pgn = tmp_path / "games.pgn"
    result = micro960_match("--engine", slow_xboard(3), "--engine-protocol", "xboard",
                            "--opponent", fake("--start-delay", 3), "--depth", 1,
                            "--max-moves", 2, "--games", 2, "--pgn", pgn)
    check_match_output(result, pgn, 2)


@pytest.mark.parametrize("protocol", ("xboard", "uci"))
def test_an_engine_slower_to_start_than_start_timeout_is_a_clear_error(fake, protocol):
    engine = slow_xboard(5) if protocol == "xboard" else fake("--start-delay", 5)
    result = micro960_match("--engine", engine, "--engine-protocol", protocol,
                            "--opponent", fake(), "--depth", 1, "--start-timeout", 1.5)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no answer to the %s handshake in 1.5 s (--start-timeout)" % protocol \
        in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.seconds < 10


def test_a_missing_engine_is_a_clear_error():
    result = micro960_match("--engine", "no-such-engine-xyz", "--opponent", "no-such-engine-xyz",
                            "--nodes", 100)
    assert result.returncode == 1
    assert "cannot start" in result.stderr and "no-such-engine-xyz" in result.stderr
    assert "command not found" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.seconds < 10


def test_an_engine_without_chess960_is_a_clear_error(fake):
    result = micro960_match("--engine", fake(), "--opponent", fake("--no960"), "--nodes", 1)
    assert result.returncode == 1
    assert "cannot play Chess960" in result.stderr and "UCI_Chess960" in result.stderr


def test_usage_errors():
    no_limit = micro960_match("--engine", "x", "--opponent", "y")
    assert no_limit.returncode == 2 and "--tc" in no_limit.stderr
    bad_tc = micro960_match("--opponent", "y", "--tc", "fast")
    assert bad_tc.returncode == 2 and "BASE+INC" in bad_tc.stderr
    for wait in ("0", "-1", "inf", "soon"):
        bad_wait = micro960_match("--opponent", "y", "--depth", 1, "--start-timeout", wait)
        assert bad_wait.returncode == 2 and "seconds above 0" in bad_wait.stderr, wait
    for options, message in (
            (("--engine-nodes", 5), "the opponent has no limit: give it --opponent-tc, "),
            (("--opponent-movetime", 1), "the engine has no limit: give it --engine-tc, "),
            (("--engine-nodes", 5, "--engine-movetime", 1, "--opponent-depth", 2),
             "--engine-movetime and --engine-nodes cannot go together"),
            (("--opponent-tc", "2+1", "--opponent-nodes", 5, "--depth", 2),
             "--opponent-tc and --opponent-nodes cannot go together"),
            (("--tc", "2+1", "--nodes", 5), "--tc and --nodes cannot go together"),
            (("--nodes", 5, "--engine-depth", 1, "--opponent-movetime", 1),
             "--nodes applies to neither side: both have their own limits"),
            (("--engine-movetime", 0, "--nodes", 5), "--engine-movetime: expected a number of "
                                                     "seconds above 0, not '0'"),
            (("--movetime", "inf"), "--movetime: expected a number of seconds above 0"),
            (("--opponent-nodes", -3, "--nodes", 5), "--opponent-nodes: expected a whole "
                                                     "number of at least 1"),
            (("--engine-depth", "deep", "--nodes", 5), "--engine-depth: expected a whole number"),
            (("--engine-tc", "fast", "--nodes", 5), "--engine-tc: a time control is BASE+INC")):
        bad = micro960_match("--engine", "x", "--opponent", "y", *options)
        last = bad.stderr.splitlines()[-1] if bad.stderr else ""
        assert bad.returncode == 2 and message in last, (options, bad.stderr)
        assert "Traceback" not in bad.stderr
    help_text = subprocess.run([sys.executable, "-m", "host_tools", "match", "--help"],
                               cwd=REPO, capture_output=True, text=True)
    assert help_text.returncode == 0 and help_text.stdout.startswith("usage: micro960 match")


# ------------------------------------------------------------- the pieces


def test_time_control_and_options():
    assert match.time_control("2+0.1") == (2.0, 0.1)
    assert match.time_control("60") == (60.0, 0.0)
    for bad in ("0+1", "2+-1", "fast", "nan", "+1"):
        with pytest.raises(Exception):
            match.time_control(bad)
    assert match.engine_option("UCI_Elo=1500") == ("UCI_Elo", "1500")
    assert match.engine_option("UCI_LimitStrength=True") == ("UCI_LimitStrength", "true")
    with pytest.raises(Exception):
        match.engine_option("Threads")


def test_schedule_plays_each_position_twice_with_colours_swapped():
    games = match.schedule(10, seed=42)
    assert [game.number for game in games] == list(range(1, 11))
    assert [game.engine_white for game in games] == [True, False] * 5
    sps = [game.sp for game in games]
    assert sps[0::2] == sps[1::2] and len(set(sps)) == 5
    assert all(0 <= sp <= 959 for sp in sps)
    assert [game.sp for game in match.schedule(10, seed=42)] == sps
    assert [game.sp for game in match.schedule(10, seed=43)] != sps
    odd = match.schedule(3, seed=42)
    assert [(game.sp, game.engine_white) for game in odd] == [
        (sps[0], True), (sps[0], False), (sps[2], True)]
    # More pairs than start positions: every SP once before any repeats.
    assert len(set(game.sp for game in match.schedule(1920, seed=1))) == 960


def test_endings():
    mate = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", chess960=True)
    assert match.result_by_rules(mate, None) == ("1-0", "normal", "White mates")
    board = chess.Board.from_chess960_pos(518)
    assert match.result_by_rules(board, None) is None
    for uci in ("g1f3", "g8f6"):
        board.push_uci(uci)
    assert match.result_by_rules(board, 1)[:2] == ("1/2-1/2", "adjudication")
    assert match.forfeit(board, chess.WHITE, "abandoned", "x") == ("0-1", "abandoned", "x")
    # Out of time against a lone king: a draw, since the king cannot mate.
    lone = chess.Board("8/8/8/4k3/8/8/8/QK6 w - - 0 1", chess960=True)
    assert match.forfeit(lone, chess.WHITE, "time forfeit", "White loses on time")[0] == "1/2-1/2"
    assert match.forfeit(lone, chess.BLACK, "time forfeit", "Black loses on time")[0] == "1-0"


def test_each_side_gets_its_own_limit_or_the_shared_one():
    def settings(*argv):
        args = match.build_parser().parse_args(["--opponent", "y"] + [str(a) for a in argv])
        return match.Settings.from_args(args)

    mixed = settings("--opponent-movetime", 1, "--engine-depth", 9)
    engine, opponent = mixed.limits["engine"], mixed.limits["opponent"]
    assert (engine.nodes, engine.depth, engine.movetime) == (None, 9, None)
    assert (opponent.nodes, opponent.depth, opponent.movetime) == (None, None, 1.0)
    assert not mixed.shared and mixed.describe() == "depth 9 vs 1 s a move"
    assert mixed.describe("A", "B") == "A (depth 9) vs B (1 s a move)"
    assert mixed.time_control_tag() == "?"
    # A side's own limit replaces the shared one for that side only, all of it.
    opponent_only = settings("--nodes", 16000, "--depth", 12, "--opponent-movetime", 1)
    assert opponent_only.limits["engine"].describe() == "16000 nodes, depth 12"
    assert opponent_only.limits["opponent"].describe() == "1 s a move"
    shared = settings("--tc", "2+0.1", "--depth", 5)
    assert shared.shared and shared.describe("A", "B") == "2+0.1, depth 5"
    assert shared.time_control_tag() == "2+0.1"
    odds = settings("--engine-tc", "10+0.1", "--opponent-tc", "5+0.1")
    assert odds.describe() == "10+0.1 vs 5+0.1" and odds.time_control_tag() == "?"
    assert settings("--engine-nodes", 5, "--opponent-depth", 3).time_control_tag() == "-"
    # The margins: 0.05 s over a clock, 1 s over a time a move; --time-margin sets both.
    assert (shared.time_margin, shared.movetime_margin) == (0.05, 1.0)
    tight = settings("--movetime", 1, "--time-margin", 0.2)
    assert (tight.time_margin, tight.movetime_margin) == (0.2, 0.2)
    # What each side's engine is sent.
    clocks = {chess.WHITE: 9.5, chess.BLACK: None}
    increments = {chess.WHITE: 0.1, chess.BLACK: None}
    assert odds.limits["engine"].for_move(clocks, increments, 1) == chess.engine.Limit(
        white_clock=9.5, white_inc=0.1, clock_id=1)
    assert opponent.for_move(clocks, increments, 1) == chess.engine.Limit(time=1.0)

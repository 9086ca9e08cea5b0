"""The event-script corpus (tests/eboard/*.txt) through `micro960 eboard-sim`.

Each script is a list of sensor events with a `# sim: ARGS` line (the
simulator's options), `# expect moves: SAN ...` (the moves the board must
recognise, in order; `-SAN` is a takeback), optionally `# expect errors: N`
(how many `error` lines), `# expect output: LINE` (lines that must appear,
in this order, among others), and `# expect fen X-FEN` (the final position).
python-chess checks each script's own expectations (the moves are legal and
lead to that FEN) before the simulator is held to them.
"""
import shlex
import subprocess
import sys
from pathlib import Path

import chess
import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((REPO / "tests" / "eboard").glob("*.txt"))
# These run on the MicroPython unix port too (224K heap, as the console).
ON_MICROPYTHON = ("castle-h-swap-sp3", "castle-a-king-step-sp709", "en-passant",
                  "promotion", "takeback", "engine-replies")


def read_script(path):
    spec = {"args": [], "moves": None, "errors": None, "fen": None, "output": []}
    for line in path.read_text().splitlines():
        if line.startswith("# sim:"):
            spec["args"] = shlex.split(line[len("# sim:"):])
        elif line.startswith("# expect moves:"):
            spec["moves"] = line[len("# expect moves:"):].split()
        elif line.startswith("# expect output: "):
            spec["output"].append(line[len("# expect output: "):])
        elif line.startswith("# expect errors:"):
            spec["errors"] = int(line[len("# expect errors:"):])
        elif line.startswith("# expect fen "):
            spec["fen"] = line[len("# expect fen "):].strip()
    assert spec["fen"] and spec["moves"] is not None, "%s lacks its expectations" % path.name
    return spec


def start_board(args):
    if "--fen" in args:
        return chess.Board(args[args.index("--fen") + 1], chess960=True)
    return chess.Board.from_chess960_pos(int(args[args.index("--sp") + 1]))


def run_sim(path, args, runtime="cpython"):
    command = [sys.executable, "-m", "host_tools", "eboard-sim", str(path)] + args + [
        "--runtime", runtime]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def recognised(lines):
    """The moves (and -takebacks) the simulator reported."""
    moves = []
    for line in lines:
        if line.startswith("move "):
            moves.append(line[5:])
        elif line.startswith("takeback "):
            moves.append("-" + line[9:])
    return moves


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_script_expectations_agree_with_python_chess(path):
    spec = read_script(path)
    board = start_board(spec["args"])
    for san in spec["moves"]:
        if san.startswith("-"):
            undone = board.pop()
            assert board.san(undone) == san[1:], path.name
        else:
            board.push_san(san)
    assert board.fen() == spec["fen"], path.name


def check_run(path, runtime):
    spec = read_script(path)
    lines = run_sim(path, spec["args"], runtime)
    assert lines[-1] == "fen " + spec["fen"], "\n".join(lines)
    assert recognised(lines) == spec["moves"], "\n".join(lines)
    if spec["errors"] is not None:
        errors = [line for line in lines if line.startswith("error")]
        assert len(errors) == spec["errors"], "\n".join(lines)
    rest = iter(lines)
    for wanted in spec["output"]:
        assert any(line == wanted for line in rest), (wanted, "\n".join(lines))


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_on_cpython(path):
    check_run(path, "cpython")


@pytest.mark.parametrize("path", [p for p in CORPUS if p.stem.startswith(ON_MICROPYTHON)],
                         ids=lambda p: p.stem)
def test_corpus_on_micropython(path):
    check_run(path, "micropython")


def test_corpus_covers_every_gesture():
    names = " ".join(p.stem for p in CORPUS)
    for gesture in ("castle-h-recommended", "castle-a-recommended", "both-up", "king-then-rook",
                    "rook-then-king", "king-step", "king-on-rook-dest", "rook-on-king-dest",
                    "swap", "king-still", "rook-still", "king-part-way", "king-onto-rook",
                    "en-passant", "promotion", "capture", "hover", "knock", "bounce",
                    "takeback", "snapshot", "setup", "impossible", "engine"):
        assert gesture in names, gesture


def test_interactive_mode_draws_the_board_as_the_sensors_see_it():
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--sp", "518", "--interactive"],
        cwd=REPO, input="lift e2\nNf3\nfen\n", capture_output=True, text=True, timeout=300)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "2  P  P  P  P  -  P  P  P" in out  # e2 up: a piece in the hand
    assert "move Nf3" not in out  # the pawn is still up, so Nf3 cannot be made
    assert out.rstrip().endswith("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


def test_bad_lines_and_options_are_reported():
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--sp", "518"], cwd=REPO,
        input="lift e9\njump e2\nNf6\npromote k\nsnapshot 8/8\nlift e2\nplace e4\n",
        capture_output=True, text=True, timeout=300)
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert [line.split()[0] for line in lines] == ["error"] * 5 + ["move", "fen"], lines
    bad = subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--engine", "maybe"], cwd=REPO,
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and "--engine is on or off" in bad.stderr


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_each_bad_event_gets_one_clear_error_and_changes_nothing(runtime):
    events = {
        "lift": "error lift needs a square or several, e.g. lift e2",
        "place": "error place needs a square or several, e.g. place e4",
        "promote": "error promote needs one piece letter, e.g. promote n",
        "snapshot 0xZZ": "error 0xZZ is not a mask of the 64 squares (a1 is bit 0, h8 bit 63; "
                         "at most 0xFFFFFFFFFFFFFFFF)",
        "snapshot 0x1" + "0" * 32: "error 0x1%s is not a mask of the 64 squares (a1 is bit 0, "
                                   "h8 bit 63; at most 0xFFFFFFFFFFFFFFFF)" % ("0" * 32),
        # Which squares are wrong, not just that something is.
        "lift e2\nplace e5": "error no legal move leads to this board: put a piece back on e2; "
                             "take the piece off e5",
    }
    for events_text, said in events.items():
        result = subprocess.run(
            [sys.executable, "-m", "host_tools", "eboard-sim", "--sp", "518", "--runtime",
             runtime], cwd=REPO, input=events_text + "\n", capture_output=True, text=True,
            timeout=300)
        assert result.stdout.splitlines() == [
            said, "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], result.stdout


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_all_pieces_up_and_back_in_snapshots_is_no_move(runtime):
    """Found by fuzzing. SP 305 has the king on f1 beside its rook on g1, so
    O-O swaps them: all the pieces lifted and put back once read as O-O,
    and a snapshot judged square by square passed through boards that looked
    like moves (a queen capture) on the way."""
    start = "bnqbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BNQBRKRN"
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--sp", "305", "--runtime", runtime],
        cwd=REPO, input="snapshot 0x0\nsnapshot %s\ne4\n" % start, capture_output=True,
        text=True, timeout=300)
    assert result.stdout.splitlines() == [
        "move e4", "fen bnqbrkrn/pppppppp/8/8/4P3/8/PPPP1PPP/BNQBRKRN b KQkq - 0 1"], result.stdout


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_all_pieces_up_and_back_after_a_swap_castling_takes_nothing_back(runtime):
    """Found by fuzzing: after O-O where king f8 and rook g8 swap squares,
    every piece lifted and put back looked like that castling undone."""
    events = ("e3\nlift f8\nlift g8\nplace g8\nplace f8\nwait\nsnapshot 0x0\n"
              "snapshot rnnbbrkq/pppppppp/8/8/8/4P3/PPPP1PPP/RNNBBKRQ\n")
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "eboard-sim", "--sp", "473", "--runtime", runtime],
        cwd=REPO, input=events, capture_output=True, text=True, timeout=300)
    assert result.stdout.splitlines() == [
        "move e3", "move O-O", "fen rnnbbrkq/pppppppp/8/8/8/4P3/PPPP1PPP/RNNBBKRQ w KQ - 1 2"], \
        result.stdout


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_each_rule_set_on_the_sensor_board(runtime, tmp_path):
    """Chess480's castlings as a person makes them (the king two squares on, the
    rook to the square it crossed; king and rook in the corner swap), and
    double960's two set-ups from --sp. python-chess plays neither, so the
    squares are Lewis's rules worked out by hand."""
    script = tmp_path / "chess480.txt"
    script.write_text("lift b1\nlift a1\nplace b1\nplace a1\n"  # swap: Ka1, Rb1
                      "lift b8\nlift h8\nplace c8\nplace d8\n")  # Kb8-d8, Rh8-c8
    out = run_sim(script, ["--rules", "chess480", "--fen",
                           "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"], runtime)
    assert "move O-O-O" in out and "move O-O" in out, out
    assert "fen r1rk4/pppppppp/8/8/8/8/PPPPPPPP/KR5R w - - 2 2" in out, out
    script.write_text("lift e2\nplace e4\n")
    out = run_sim(script, ["--rules", "double960", "--sp", "3 900"], runtime)
    assert "fen rbbkqrnn/pppppppp/8/8/4P3/8/PPPP1PPP/BQNNRKRB b KQkq - 0 1" in out, out
    for args, fen in (
            (["--rules", "lrs", "--sp", "RNBQKBNR"],
             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"),
            (["--rules", "shuffle", "--sp", "8"],
             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            (["--rules", "classical"],
             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            (["--rules", "transcendental", "--sp", "0 2879"],
             "rrqnnkbb/pppppppp/8/8/4P3/8/PPPP1PPP/BBKNNQRR b - - 0 1")):
        out = run_sim(script, args, runtime)
        assert "fen " + fen in out, (args, out)


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_shuffle_castling_from_the_king_on_d_on_the_sensor_board(runtime, tmp_path):
    """Shuffle with the king on d castles as the Internet Chess Servers do:
    Kd1-f1 with Rh1-e1, Kd8-b8 with Ra8-c8 (Chess960 would go to g1/f1)."""
    script = tmp_path / "shuffle.txt"
    script.write_text("lift d1\nlift h1\nplace f1\nplace e1\n"
                      "lift d8\nplace b8\nlift a8\nplace c8\n")
    out = run_sim(script, ["--rules", "shuffle", "--engine", "off", "--fen",
                           "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"], runtime)
    assert "move O-O" in out and "move O-O-O" in out, out
    assert "fen 1kr4r/pppppppp/8/8/8/8/PPPPPPPP/R3RK2 w - - 2 2" in out, out


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_an_unfinished_set_up_reports_the_board_so_far(runtime, tmp_path):
    """Input ending in the set-up phase gives no game position (there is none
    yet, and the game's stand-in is not what stands on the board): the board
    as set up so far and the pieces still to place. A piece on a wrong square
    (b1) is no part of it."""
    script = tmp_path / "unfinished.txt"
    script.write_text("place a1\nplace b1\nfen\n")
    out = run_sim(script, ["--setup"], runtime)
    report = ("setup not finished: set up so far 8/pppppppp/8/8/8/8/PPPPPPPP/B7; "
              "still to place: White B Q N N R K R, Black B B Q N N R K R")
    assert out[-2:] == [report, report], out
    assert not [line for line in out if line.startswith("fen")], out
    script.write_text("place a1\nplace a8\nlift b2\n")  # a pawn up: still part of the set-up
    out = run_sim(script, ["--setup", "--rules", "double960"], runtime)
    assert out[-1] == ("setup not finished: set up so far b7/pppppppp/8/8/8/8/PPPPPPPP/B7; "
                       "still to place: White B Q N N R K R, Black B Q N N R K R"), out


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_resign_draw_and_new_in_the_simulator(runtime, tmp_path):
    """The commands typed at a board are lines of the simulator too: a draw
    offered by Black (to move) and accepted by White after Black's move, not
    before; a move after the end only moves the pieces; then the next game,
    set up again, and a resignation."""
    script = tmp_path / "commands.txt"
    script.write_text("e4\ndraw\naccept\ne5\naccept\nNf3\nnew\nNf3\n"
                      "snapshot rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\nNf3\nresign\n")
    out = run_sim(script, ["--sp", "518"], runtime)
    assert out == [
        "move e4", "draw offered by Black; White may type accept before their next move",
        "error no draw offer to accept: the side offered a draw accepts it after the "
        "offer's move, before making their own",
        "move e5", "result 1/2-1/2 draw agreed",
        "new game: SP 518 (RNBQKBNR); set up g1 e2 f3 e4 e5 e7",  # (Nf3 was made anyway)
        "error set the board up first: a move counts once the game has begun",
        "move Nf3", "result 1-0 Black resigns",
        "fen rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"], out


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_a_set_up_phase_on_the_sensor_board(runtime, tmp_path):
    """--setup: the pieces placed in turn, the LEDs lighting where the piece in
    hand may go (then its mirror square), a wrong square an error until the
    piece is off it again; the game begins from what was set up."""
    script = tmp_path / "setup.txt"
    script.write_text("place c1\nplace c8\n"  # White's bishop, then Black's on the mirror
                      "place e8\nlift e8\n"  # Black's on e8: same colour as c8's
                      "place d8\nplace d1\nplace a1\nplace a8\nplace b8\nplace b1\n"
                      "place f1\nplace f8\nplace h8\nplace h1\nplace g1\nplace g8\n"
                      "place e8\nplace e1\nlift e2\nplace e4\n")
    out = run_sim(script, ["--setup"], runtime)
    assert out[:2] == ["setup White places a bishop: a1 b1 c1 d1 e1 f1 g1 h1",
                       "leds place a1 b1 c1 d1 e1 f1 g1 h1"], out
    assert out[2:4] == ["setup put Black's bishop on c8", "leds place c8"], out
    assert "setup Black places a bishop: b8 d8 f8 h8" in out
    assert "error the piece goes on b8 d8 f8 h8: take the piece off e8" in out
    assert "leds error e8" in out
    assert any(line.startswith("setup done: SP ") and "(QNBBRNKR)" in line for line in out), out
    assert out[-2:] == ["move e4",
                        "fen qnbbrnkr/pppppppp/8/8/4P3/8/PPPP1PPP/QNBBRNKR b KQkq - 0 1"], out

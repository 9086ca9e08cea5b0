"""UCI fuzzing: random and mutated command streams for `micro960 uci` on
CPython and on the MicroPython unix port, one engine process per runtime.

The engine must stay alive, answer every isready, never answer bestmove with
a move that is illegal in the position the GUI sent (0000 when it refused
that position), and never search past its budget by more than the overhead.
python-chess keeps the position the GUI meant.
"""
import sys
import time
from pathlib import Path

import chess
import pytest
from hypothesis import strategies as st

from fuzzing import LineProcess, fuzz_settings, mutate, random_game, tally, EXAMPLES

REPO = Path(__file__).resolve().parent.parent
# Slack over a search's budget for a busy 2-core machine (the overhead is 30 ms).
SLACK = {"cpython": 0.6, "micropython": 1.2}
DEFAULT_BUDGET = 1.0  # what go searches when it has no usable limit
GARBAGE = st.sampled_from(["", "garbage", "position", "position fen", "uci x",
                           "setoption", "setoption name", "debug on", "register later",
                           "\x01\x02", "\u2658f3", "stop", "ponderhit"])
ODD_STRINGS = st.sampled_from(["x", "1e3", "", "-0", "99999999999"])
ODD_NUMBERS = st.one_of(st.integers(-1000, 40), ODD_STRINGS)
# Depths and mates stay small: `go depth 40` is finite, but not within a test's wait.
ODD_DEPTHS = st.one_of(st.integers(-1000, 4), ODD_STRINGS)
BAD_MOVES = ["e2e5", "a1a1", "zz", "e7e8k", "0000", "e2e4e", "h9h1", "e1c3"]


@st.composite
def position_command(draw):
    """A position line from a random Chess960 game: as played, with a bad
    move, or its FEN mutated."""
    start, moves = random_game("chess960", draw(st.integers(0, 10 ** 9)),
                               draw(st.integers(0, 60)))
    cut = draw(st.integers(0, len(moves)))
    words = []
    board = start.copy()
    for move in moves[:cut]:
        words.append(board.uci(move, chess960=True))
        board.push(move)
    for move in moves[cut:]:
        board.push(move)
    head = "startpos" if start.fen() == chess.STARTING_FEN else "fen " + start.fen()
    kind = draw(st.integers(0, 3))
    if kind == 1 and words:  # a move replaced by a bad one
        words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(BAD_MOVES))
    elif kind == 2:  # the position itself mutated, no moves
        head, words = "fen " + mutate(board, draw), []
    line = "position " + head + (" moves " + " ".join(words) if words else "")
    return line


@st.composite
def go_command(draw):
    """A go line and what ends it: None, or `stop` / `ponderhit` sent after a while."""
    form = draw(st.integers(0, 8))
    number = draw(ODD_NUMBERS)
    if form == 0:
        return "go depth %s" % draw(st.one_of(st.integers(-5, 3), ODD_DEPTHS)), None
    if form == 1:
        return "go nodes %s" % draw(st.one_of(st.integers(-3, 2000), ODD_NUMBERS)), None
    if form == 2:
        return "go movetime %s" % draw(st.one_of(st.integers(-50, 200), ODD_NUMBERS)), None
    if form == 3:
        clocks = "go wtime %s btime %s" % (draw(st.integers(-1000, 3000)),
                                           draw(st.integers(-1000, 3000)))
        if draw(st.booleans()):
            clocks += " winc %s binc %s" % (number, draw(ODD_NUMBERS))
        if draw(st.booleans()):
            clocks += " movestogo %s" % draw(ODD_NUMBERS)
        return clocks, None
    if form == 4:
        return "go %s %s" % (draw(st.sampled_from(["wtime", "btime"])), number), None
    if form == 5:
        return "go mate %s" % draw(st.one_of(st.integers(-1000, 2), ODD_STRINGS)), None
    if form == 6:
        return "go infinite", "stop"
    if form == 7:
        return "go ponder movetime 100", draw(st.sampled_from(["stop", "ponderhit"]))
    return draw(st.sampled_from(["go", "go xyz 12", "go depth", "go nodes 1 nodes 2"])), None


def budget(go, board):
    """The longest the search of `go` may take, in seconds, before slack."""
    words = go.split()
    values = {}
    for name, value in zip(words[1:], words[2:]):
        try:
            values.setdefault(name, int(value))
        except ValueError:
            pass
    own = "wtime" if board is None or board.turn == chess.WHITE else "btime"
    limits = []
    if values.get("movetime", 0) > 0:
        limits.append(values["movetime"] / 1000)
    if own in values:
        limits.append(max(0, values[own]) / 1000)
    usable = limits or any(values.get(name, 0) > 0 for name in ("depth", "nodes", "mate"))
    if not usable:
        limits.append(DEFAULT_BUDGET)
    return min(limits) if limits else 5.0  # depth 3, 2,000 nodes or mate 2: quick


commands = st.lists(st.one_of(
    position_command().map(lambda line: ("position", line)),
    go_command().map(lambda go: ("go", go)),
    GARBAGE.map(lambda line: ("line", line)),
    st.sampled_from(["ucinewgame", "isready"]).map(lambda line: ("line", line)),
    st.tuples(st.sampled_from(["Hash", "Skill Level", "Move Overhead", "HashKB", "Threads",
                               "UCI_Elo", "Nonsense"]), ODD_NUMBERS).map(
        lambda option: ("line", "setoption name %s value %s" % option)),
    st.integers(2, 12).map(lambda n: ("flood", n))), min_size=1, max_size=6)


class Gui:
    """What a GUI knows: the position it sent, as python-chess sees it."""

    def __init__(self, engine, runtime):
        self.engine = engine
        self.runtime = runtime
        self.board = chess.Board(chess960=True)
        self.refused = False
        self.overhead = 30

    def ready(self):
        """isready, and every line the engine said before readyok."""
        self.engine.send("isready")
        said = self.engine.read_until(lambda line: line == "readyok", timeout=20)
        assert not [line for line in said if line.startswith("bestmove")], said
        return said

    def position(self, line):
        self.engine.send(line)
        said = self.ready()
        refused = any(text.startswith("info string position") for text in said)
        # The engine's line editor leaves out control characters (line
        # noise), as README says: python-chess reads the line as it arrives.
        line = "".join(ch for ch in line.replace("\t", " ") if ch >= " " and ch != "\x7f")
        board = gui_board(line)
        if not refused and board is None:
            fen = line.split(" moves ")[0][len("position fen "):]
            assert not line.startswith("position fen ") or fen_possible(fen), \
                "accepted an impossible position: %r" % line
        self.refused, self.board = refused, None if refused else board

    def go(self, go, ending):
        sent = time.monotonic()
        self.engine.send(go)
        if ending:
            time.sleep(0.2)
            self.engine.send(ending)
        said = self.engine.read_until(lambda line: line.startswith("bestmove"), timeout=30)
        took = time.monotonic() - sent
        move = said[-1].split()[1]
        if self.refused:
            assert move == "0000", (go, said)
        elif self.board is not None:
            legal = list(self.board.legal_moves)
            if move == "0000":
                assert not legal, (self.board.fen(), go, said)
            else:
                assert chess.Move.from_uci(move) in legal, (self.board.fen(), go, said)
        limit = 0.2 if ending else budget(go, self.board)
        assert took <= limit + SLACK[self.runtime], (go, took, limit)

    def line(self, line):
        if line.split()[:1] == ["position"]:
            return self.position(line)
        if line != "isready":  # ready() sends it: one readyok each
            self.engine.send(line)
        if line.strip() == "ucinewgame":
            self.board, self.refused = chess.Board(chess960=True), False
        self.ready()

    def flood(self, count):
        for _ in range(count):
            self.engine.send("isready")
        for _ in range(count):
            self.engine.read_until(lambda line: line == "readyok", timeout=20)


def gui_board(line):
    """The board a `position` line sets up for python-chess, or None if it cannot."""
    words = line.split(" moves ")
    head = words[0].split(None, 2)
    try:
        if head[1:] == ["startpos"]:
            board = chess.Board(chess960=True)
        elif len(head) == 3 and head[1] == "fen":
            board = chess.Board(head[2], chess960=True)
            if board.status() != chess.STATUS_VALID:
                return None
        else:
            return None
        for move in (words[1].split() if len(words) > 1 else ()):
            board.push(board.parse_uci(move))
    except (ValueError, IndexError):
        return None
    return board


def fen_possible(fen):
    try:
        return chess.Board(fen, chess960=True).status() == chess.STATUS_VALID
    except ValueError:
        return False


ENGINES = {}


def engine_for(runtime):
    if runtime not in ENGINES:
        ENGINES[runtime] = LineProcess([sys.executable, "-m", "host_tools", "uci", "--runtime",
                                        runtime], cwd=REPO)
    return ENGINES[runtime]


@pytest.fixture(scope="module", autouse=True)
def stop_engines():
    yield
    for engine in ENGINES.values():
        engine.stop()


@pytest.mark.parametrize("runtime", ("cpython", "micropython"))
def test_uci_fuzz(runtime):
    from hypothesis import given

    @fuzz_settings(examples=max(10, EXAMPLES // 2))
    @given(stream=commands)
    def case(stream):
        with tally("uci", runtime):
            engine = engine_for(runtime)
            engine.send("uci")
            engine.read_until(lambda line: line == "uciok", timeout=60)
            engine.send("setoption name UCI_Chess960 value true")
            engine.send("setoption name Move Overhead value 30")
            gui = Gui(engine, runtime)
            gui.line("ucinewgame")
            for kind, what in stream:
                if kind == "go":
                    gui.go(*what)
                else:
                    getattr(gui, kind)(what)
            gui.ready()  # alive and answering at the end
    case()

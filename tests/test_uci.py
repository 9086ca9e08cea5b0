"""`micro960 uci` speaks UCI the way GUIs expect, on both runtimes.

Most tests drive the engine through python-chess (chess.engine), an
independent implementation of the GUI side; the timing tests talk to it
through raw pipes to measure how fast `stop` and `isready` are answered.
The last test plays a Chess960 match (GAMES games) with real clocks and checks
that no side ever overstepped its time.
"""
import queue
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chess
import chess.engine
import pytest

import fuzzing
from micro960.engine.levels import HIGHEST, LOWEST, knobs

REPO = Path(__file__).resolve().parent.parent
RUNTIMES = ("cpython", "micropython")

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"  # Ra8#
MATE_IN_TWO = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"  # Nf6+
# Chess960: the king on b1 castles a-side (Kc1, Rd1) and mates; Ra1-d1 is
# impossible with the king in the way, so castling is the only mate.
CASTLING_MATE = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"


def command(runtime):
    return [sys.executable, "-m", "host_tools", "uci", "--runtime", runtime]


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    return request.param


@pytest.fixture
def engine(runtime):
    uci = chess.engine.SimpleEngine.popen_uci(command(runtime), cwd=REPO, timeout=30)
    yield uci
    uci.quit()


class RawEngine:
    """The engine on plain pipes, each line of its output timestamped."""

    def __init__(self, runtime, argv=None, hello=(("uci",), "uciok")):
        """argv: the engine's command (micro960 uci on `runtime`); hello: the
        lines that start it and the start of its answer."""
        self.process = subprocess.Popen(argv or command(runtime), cwd=REPO,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        for line in hello[0]:
            self.send(line)
        self.expect(hello[1])

    def _read(self):
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return time.monotonic()

    def expect(self, prefix, timeout=10):
        """(time, line) of the first line starting with prefix; fail on anything
        starting with `bestmove` that was not asked for, and on a timeout."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                when, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no %r within %s s" % (prefix, timeout))
            assert line is not None, "the engine ended while waiting for %r" % prefix
            if line.startswith(prefix):
                return when, line
            assert not line.startswith("bestmove"), "unexpected %r" % line

    def drain(self):
        """Every line already written, without waiting."""
        lines = []
        while True:
            try:
                lines.append(self.lines.get_nowait()[1])
            except queue.Empty:
                return lines

    def close(self):
        if self.process.poll() is None:
            self.send("quit")
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def raw(runtime):
    engine = RawEngine(runtime)
    yield engine
    engine.close()


# ------------------------------------------------------------ handshake, options


def test_handshake_and_options(engine):
    assert engine.id["name"].startswith("micro960")
    assert engine.id["author"]
    options = engine.options
    expected = {
        "Hash": ("spin", 0, 1024), "HashKB": ("spin", 1, None), "UCI_Chess960": ("check", None, None),
        "Skill Level": ("spin", 0, 20), "UCI_LimitStrength": ("check", None, None),
        "UCI_Elo": ("spin", LOWEST, HIGHEST), "Move Overhead": ("spin", 0, None),
        "Threads": ("spin", 1, None), "Ponder": ("check", None, None),
    }
    for name, (kind, low, high) in expected.items():
        assert name in options, name
        assert options[name].type == kind, name
        if low is not None:
            assert options[name].min == low, name
        if high is not None:
            assert options[name].max == high, name
    assert options["Skill Level"].default == 20
    assert options["UCI_Elo"].default == HIGHEST and options["UCI_LimitStrength"].default is False
    assert options["UCI_Chess960"].default is False
    engine.ping()


def test_configured_options_take_effect(engine):
    board = chess.Board()
    engine.configure({"Hash": 1, "Threads": 1, "Move Overhead": 10})
    assert engine.play(board, chess.engine.Limit(depth=3)).move in board.legal_moves
    # A 1 KB table (113 entries) fills up in a small search; 16 KB do not.
    engine.configure({"HashKB": 1})
    assert engine.analyse(board, chess.engine.Limit(depth=3))["hashfull"] >= 250
    engine.configure({"HashKB": 16})
    assert engine.analyse(board, chess.engine.Limit(depth=3))["hashfull"] < 100
    # Skill Level 0 searches as the lowest rating (one ply), whatever depth
    # is asked for; a UCI_Elo as its level; UCI_LimitStrength off, Skill Level.
    engine.configure({"Skill Level": 0})
    assert engine.analyse(board, chess.engine.Limit(depth=6))["depth"] == knobs(LOWEST)[1] == 1
    engine.configure({"Skill Level": 20, "UCI_LimitStrength": True, "UCI_Elo": 1500})
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    assert info["depth"] <= knobs(1500)[1] < 6 and info["nodes"] <= knobs(1500)[0] + 16, info
    engine.configure({"UCI_LimitStrength": False})
    assert engine.analyse(board, chess.engine.Limit(depth=6))["depth"] == 6


def test_bad_option_values_get_an_info_string_and_change_nothing(raw):
    for line in ("setoption name Skill Level value 99", "setoption name Nope value 3",
                 "setoption name UCI_Elo value 99999",
                 "setoption name UCI_Elo value %d" % (LOWEST - 1),
                 "setoption", "setoption name Hash value -5", "setoption name Hash value big",
                 "setoption name UCI_Chess960 value maybe"):
        raw.send(line)
        raw.expect("info string")
    # Still at full strength (Skill Level 99 did not become anything): Skill
    # Level 0 would search one ply only; and UCI_Elo is still the highest
    # (the lowest's depth is 1).
    raw.send("setoption name UCI_LimitStrength value true")
    raw.send("position fen " + MATE_IN_TWO)
    raw.send("go depth 3")
    raw.expect("info depth 3 ")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "d5f6"]


def test_threads_2_searches_on_a_second_thread(raw):
    """Threads 2 (engine/smp.py): a helper searches beside the main search;
    `go nodes` counts both, a `stop` ends both, and 3 is refused."""
    raw.send("uci")
    raw.expect("uciok")
    raw.send("setoption name Threads value 3")
    assert raw.expect("info string")[1] == "info string setoption: 3 is outside 1..2"
    raw.send("setoption name Threads value 2")
    raw.send("position startpos moves e2e4 e7e5")
    raw.send("go nodes 6000")
    infos = []
    while True:
        line = raw.expect("")[1]
        if line.startswith("bestmove"):
            break
        infos.append(line)
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves, line
    nodes = [int(info.split(" nodes ")[1].split()[0]) for info in infos if " nodes " in info]
    assert nodes and nodes[-1] <= 6000 + 200, infos
    raw.send("go infinite")
    raw.expect("info depth 3 ")
    raw.send("stop")
    assert chess.Move.from_uci(raw.expect("bestmove")[1].split()[1]) in board.legal_moves
    raw.send("isready")
    raw.expect("readyok")


# ------------------------------------------------------------ go


def test_go_depth(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["depth"] == 4
    assert info["pv"][0] in board.legal_moves
    board.push(info["pv"][0])
    assert engine.play(board, chess.engine.Limit(depth=2)).move in board.legal_moves


def test_go_nodes(engine):
    board = chess.Board()
    for nodes in (500, 5000):
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
        # The budget is checked every 1024 nodes.
        assert 0 < info["nodes"] <= nodes + 1024, (nodes, info)
    # Once the mate is certain, the search does not use up the budget.
    info = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(nodes=100000))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["nodes"] < 10000


def test_go_movetime(engine):
    board = chess.Board()
    for seconds in (0.2, 0.6):
        started = time.monotonic()
        result = engine.play(board, chess.engine.Limit(time=seconds))
        elapsed = time.monotonic() - started
        assert result.move in board.legal_moves
        assert elapsed <= seconds + 0.15, (seconds, elapsed)
        # All of the time given, less the 30 ms Move Overhead (it stopped
        # between iterations after 50-90% of it before).
        assert elapsed >= seconds - 0.05, (seconds, elapsed)


def test_go_with_clocks(engine):
    board = chess.Board()
    # 5 s left: a small share of it.
    started = time.monotonic()
    engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1,
                                          black_inc=0.1))
    assert time.monotonic() - started < 1.5
    # Black to move with 80 ms left: move at once; White's clock is not ours.
    board.push_san("e4")
    started = time.monotonic()
    result = engine.play(board, chess.engine.Limit(white_clock=60, black_clock=0.08))
    assert result.move in board.legal_moves
    assert time.monotonic() - started < 0.08


def test_go_movestogo_spreads_the_clock_over_the_moves(engine):
    board = chess.Board()
    timings = {}
    for moves_to_go in (40, 2):
        started = time.monotonic()
        engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2,
                                              remaining_moves=moves_to_go))
        timings[moves_to_go] = time.monotonic() - started
    # 2 s for 40 moves is 50 ms a move; for two moves, about one second.
    assert timings[40] < 0.3, timings
    assert 0.45 < timings[2] < 1.6, timings


def test_go_mate(engine):
    board = chess.Board(MATE_IN_TWO)
    started = time.monotonic()
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    assert time.monotonic() - started < 10
    assert info["score"].relative == chess.engine.Mate(2)
    assert info["pv"][0] == chess.Move.from_uci("d5f6")
    assert engine.play(chess.Board(MATE_IN_ONE), chess.engine.Limit(mate=1)).move == \
        chess.Move.from_uci("a1a8")


def test_go_infinite_until_stop(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
    best = analysis.wait()  # leaving the block sent `stop`
    assert best.move in board.legal_moves


def test_go_infinite_waits_for_stop_even_after_a_mate(raw):
    raw.send("position fen " + MATE_IN_ONE)
    raw.send("go infinite")
    raw.expect("info depth 1 ")
    time.sleep(0.5)
    assert not [line for line in raw.drain() if line.startswith("bestmove")]
    raw.send("stop")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "a1a8"]


POSITIONS = (
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)


@pytest.mark.parametrize("position", POSITIONS, ids=("start", "kiwipete", "endgame"))
def test_stop_and_isready_are_answered_within_100_ms_during_a_search(raw, position):
    raw.send("position " + position)
    raw.send("go infinite")
    raw.expect("info depth 4 ")  # searching for a while now
    sent = raw.send("isready")
    answered, _ = raw.expect("readyok")
    assert answered - sent < 0.1, answered - sent
    time.sleep(0.2)
    raw.drain()
    sent = raw.send("stop")
    answered, line = raw.expect("bestmove")
    assert answered - sent < 0.1, answered - sent
    board = chess.Board(position[4:] if position != "startpos" else chess.STARTING_FEN)
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves
    # And ready for more.
    raw.send("isready")
    raw.expect("readyok")


def test_stop_during_a_timed_search(raw):
    raw.send("position startpos")
    raw.send("go wtime 600000 btime 600000")
    raw.expect("info depth 3 ")
    sent = raw.send("stop")
    answered, _ = raw.expect("bestmove")
    assert answered - sent < 0.1


# ------------------------------------------------------------ Chess960


def test_chess960_castling_is_king_takes_rook(engine):
    board = chess.Board(CASTLING_MATE, chess960=True)
    result = engine.play(board, chess.engine.Limit(depth=3))
    assert board.is_castling(result.move) and board.is_legal(result.move)
    assert result.move == chess.Move.from_uci("b1a1")
    board.push(result.move)
    assert board.is_checkmate()


def test_chess960_game_with_castling_in_the_move_list(engine):
    # SP 399 (QRNNKRBB): White castles h-side with the king beside its rook,
    # Black a-side with the king and rook moving past each other.
    board = chess.Board.from_chess960_pos(399)
    for san in ("f3", "Nb6", "Be3", "Ne6", "O-O", "O-O-O"):
        board.push_san(san)
    # King takes rook, as python-chess sends them to the engine.
    assert [move.uci() for move in board.move_stack[4:]] == ["e1f1", "e8b8"]
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(depth=2))
        assert board.is_legal(result.move), result.move
        board.push(result.move)


def test_chess960_engine_castles_when_it_is_best(engine):
    # The king on g1 castles h-side without moving: the rook goes h1-f1 and mates.
    board = chess.Board("4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1", chess960=True)
    result = engine.play(board, chess.engine.Limit(depth=2))
    assert result.move == chess.Move.from_uci("g1h1") and board.is_castling(result.move)


def test_classical_castling_in_the_move_list(raw):
    raw.send("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8")
    raw.send("go depth 1")
    move = raw.expect("bestmove")[1].split()[1]
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    board.push_uci("e1g1")
    board.push_uci("e8c8")
    assert chess.Move.from_uci(move) in board.legal_moves


def test_uci_variant_sets_the_rules_of_the_position(raw):
    # Chess480: Kb1 beside Ra1 in the corner castles by swapping with it, and
    # the rook on b1 mates; in Chess960 the king would go to c1, the rook to d1.
    mate = "rkr5/p1p5/8/8/8/8/8/RK6 w A - 0 1"
    raw.send("setoption name UCI_Chess960 value true")
    raw.send("setoption name UCI_Variant value chess480")
    for variant, mates in (("chess480", True), ("chess", False)):
        raw.send("setoption name UCI_Variant value " + variant)
        raw.send("position fen " + mate)
        raw.send("go depth 2")
        lines = []
        while not lines or not lines[-1].startswith("bestmove"):
            lines.append(raw.expect("")[1])
        assert ("score mate 1" in " ".join(lines)) == mates, (variant, lines)
        if mates:
            assert lines[-1].split()[:2] == ["bestmove", "b1a1"]
    raw.send("setoption name UCI_Variant value chess480")
    raw.send("position fen %s moves b1a1" % mate)
    raw.send("go depth 1")
    assert raw.expect("bestmove")[1] == "bestmove 0000"  # mated: no move
    # LRS: no castling, so e1g1 is refused; the king can be taken.
    raw.send("setoption name UCI_Variant value lrs")
    raw.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1")
    assert "refused" in raw.expect("info string")[1]
    raw.send("position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1")
    raw.send("go depth 1")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "e1e8"]  # takes the king
    # A bad value lists every value the option takes, chess (the default) first.
    raw.send("setoption name UCI_Variant value atomic")
    assert raw.expect("info string")[1] == (
        "info string setoption: unknown variant 'atomic'; choose one of chess, chess960, "
        "classical, double960, shuffle, chess480, transcendental, lrs")
    # "chess" goes back to what UCI_Chess960 says.
    raw.send("setoption name UCI_Variant value chess")
    raw.send("position fen 2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1")
    raw.send("go depth 3")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "b1a1"]


# ------------------------------------------------------------ bad input


def test_malformed_input_gets_an_info_string_and_keeps_the_position(raw):
    raw.send("position fen " + MATE_IN_ONE)
    for line in ("garbage", "hello world 123", "setoption name Hash value x"):
        raw.send(line)
        raw.expect("info string")
    raw.send("isready")
    raw.expect("readyok")
    raw.send("go depth 2")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "a1a8"]


def test_a_refused_position_leaves_no_position_to_play_in(raw):
    """A move for the position before a refused one could be illegal in the
    position the GUI meant: until a good position comes, go answers 0000."""
    for line in ("position fen garbage", "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                 "position fen rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                 "position startpos moves e2e5", "position startpos moves e2e4 e2e4",
                 "position startpos moves e2e4 zz", "position", "position sideways",
                 "position fen nonsense moves a1a8"):
        raw.send("position fen " + MATE_IN_ONE)
        raw.send(line)
        assert "refused" in raw.expect("info string")[1] or line in ("position",
                                                                        "position sideways")
        raw.send("go depth 2")
        assert "no position to search" in raw.expect("info string")[1], line
        assert raw.expect("bestmove")[1] == "bestmove 0000", line
    raw.send("position fen " + MATE_IN_ONE)
    raw.send("go depth 2")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "a1a8"]


def test_a_flood_of_lines_during_a_search_is_cut_off_not_kept(raw):
    """Lines that come during a search wait for its end, MAX_PENDING of them;
    more (a paste, line noise) are refused with an info string, so that they
    cannot fill the heap mid-search: 150 KB of them stopped MicroPython with
    MemoryError when all were kept."""
    from micro960.text.uci import MAX_PENDING
    raw.send("position fen " + MATE_IN_ONE)
    raw.send("go infinite")
    raw.expect("info depth")
    for i in range(300):
        raw.send("bogus %d %s" % (i, "x" * 500))
    raw.send("stop")
    raw.send("isready")
    said = []  # everything from the first line of the flood on
    while not said or said[-1] != "readyok":
        said.append(raw.expect("")[1])
    assert "bestmove a1a8" in said
    refused = [line for line in said if "lines wait already" in line]
    kept = [line for line in said if line.startswith("info string unknown command: bogus")]
    assert len(refused) == 300 - MAX_PENDING and len(kept) == MAX_PENDING, said[-3:]
    assert kept[0].startswith("info string unknown command: bogus 0 xxx")


# Words of UCI and of positions, for random command lines.
FUZZ_COMMANDS = ("uci", "isready", "ucinewgame", "position", "go", "stop", "ponderhit", "setoption")
FUZZ_WORDS = (
    "uci isready ucinewgame position startpos fen moves go stop ponderhit setoption name "
    "value Hash UCI_Chess960 Skill Level UCI_Elo UCI_LimitStrength Move Overhead Threads "
    "true false depth nodes movetime wtime btime winc binc movestogo mate infinite searchmoves "
    "e2e4 e7e5 a1a8 e1g1 e1h1 O-O -1 0 1 3 99999999999999999999 3.5 abc KQkq HAha w b - e3 "
    "8/8/8/8/8/8/8/8 k7/8/8/8/8/8/8/K7 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").split()


@pytest.mark.parametrize("seed", (1, 2))
def test_random_command_lines_never_stop_the_engine(runtime, seed):
    """Lines of random UCI words (and now and then random bytes), all sent at
    once as a flood would come: the engine answers every `go` and `isready`
    and is still there at the end."""
    rng = random.Random(seed)
    lines = []
    while len(lines) < 300:
        line = " ".join(rng.choice(FUZZ_WORDS) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.7:  # mostly a command, with random words after it
            line = rng.choice(FUZZ_COMMANDS) + " " + line
        if rng.random() < 0.1:
            line = "".join(chr(rng.randint(1, 255)) for _ in range(rng.randint(0, 30)))
        line = line.replace("\n", " ").replace("\r", " ")
        if "quit" not in line:
            lines.append(line + ("\nstop" if "infinite" in line else ""))
    script = "\n".join(lines) + "\nisready\n"
    result = subprocess.run(command(runtime), input=script.encode("latin-1"), capture_output=True,
                            cwd=REPO, timeout=300)
    out = result.stdout.decode("latin-1")
    # It read to the end of its input and quit, having answered each
    # `isready` (during a search too: then at once) and each `go` but those
    # refused as one line too many during a search.
    assert result.returncode == 0, (out + result.stderr.decode("latin-1"))[-2000:]

    def answered(command):
        sent = sum(1 for line in lines if line.split()[:1] == [command])
        return sent - out.count("lines wait already: " + command)
    assert out.count("\nbestmove ") == answered("go")
    assert out.count("readyok") == 1 + answered("isready")


def test_line_noise_makes_no_new_names_on_micropython():
    """Every byte that is not ASCII, read from a serial line, leaves
    MicroPython's table of interned names (qstrs) as it was: chr() of such a
    byte made a new one, kept for good, and a UCI flood of noise ended in a
    MemoryError once their pool could not grow in a fragmented heap."""
    from host_tools import runtime
    code = ("import sys, micropython\n"
            "sys.path.insert(0, %r)\n"
            "from micro960.lines import StdinLines\n"
            "lines = StdinLines(raw=True)\n"
            "micropython.qstr_info()\n"
            "while lines.readline() is not None:\n"
            "    pass\n"
            "micropython.qstr_info()\n" % str(runtime.build_firmware()))
    noise = bytes(b for b in range(128, 256) for _ in range(2)) + b"\n"
    result = subprocess.run([str(runtime.micropython_executable()), "-X", "heapsize=64K", "-c",
                             code], input=noise * 3, capture_output=True, timeout=60)
    counts = [int(line.split(b"n_qstr=")[1].split(b",")[0])
              for line in result.stdout.splitlines() if b"n_qstr=" in line]
    assert result.returncode == 0 and len(counts) == 2, result
    assert counts[1] == counts[0], counts


def test_line_noise_that_is_not_utf8_is_ignored(raw):
    """Bytes that are not UTF-8 (a noisy serial line) are dropped, as any
    character that is not ASCII: no crash, and no line is swallowed."""
    raw.send("position fen " + MATE_IN_ONE)
    raw.process.stdin.buffer.write(b"\xff\xfe\x80isready\n\xc3hello\n")
    raw.process.stdin.buffer.flush()
    raw.expect("readyok")
    assert raw.expect("info string")[1] == "info string unknown command: hello"
    raw.send("go depth 2")
    assert raw.expect("bestmove")[1].split()[:2] == ["bestmove", "a1a8"]


def test_a_line_too_long_is_refused_even_when_cut_after_a_whole_move(raw):
    """The line reader keeps LIMIT characters and one more: spaces after
    `startpos` put that last one just after a whole move, so the cut line
    would read as an earlier position of the game. It is refused instead."""
    from micro960.lines import LIMIT
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 210 + ["e2e4"]
    head = "position startpos"
    line = head + " moves " + " ".join(moves)
    pad = next(p for p in range(1, 6) if (head + " " * p + line[len(head):])[LIMIT] == " ")
    raw.send(head + " " * pad + line[len(head):])
    assert raw.expect("info string")[1] == TOO_LONG_POSITION % LIMIT
    raw.send("position startpos moves e2e4")  # and the next line is read whole
    raw.send("go depth 1")
    move = chess.Move.from_uci(raw.expect("bestmove")[1].split()[1])
    board = chess.Board()
    board.push_uci("e2e4")
    assert move in board.legal_moves


TOO_LONG_POSITION = ("info string position: line too long (more than %d characters); "
                     "refused: no position until the next good one")


def test_a_position_line_too_long_is_refused_and_go_has_no_position(raw):
    """A position line cut short is no position, and the one before it may
    not be the GUI's: `go` answers `bestmove 0000` after an info string, as
    after any refused position, until a good position line comes."""
    from micro960.lines import LIMIT
    raw.send("position fen " + MATE_IN_ONE)
    raw.send("position startpos moves " + " ".join(["g1f3", "g8f6", "f3g1", "f6g8"] * 210))
    assert raw.expect("info string")[1] == TOO_LONG_POSITION % LIMIT
    raw.send("go depth 2")
    assert raw.expect("info string")[1] == ("info string go: no position to search (the last "
                                            "position command was refused)")
    assert raw.expect("bestmove")[1] == "bestmove 0000"
    raw.send("position fen " + MATE_IN_ONE)  # a good line: a position again
    raw.send("go depth 2")
    assert raw.expect("bestmove")[1].split()[1] == "a1a8"
    # Any other line too long is ignored with an info string, and changes nothing.
    raw.send("setoption name Skill Level value 20" + " " * LIMIT)
    assert raw.expect("info string")[1] == \
        "info string line too long (more than %d characters): ignored" % LIMIT
    raw.send("go depth 2")
    assert raw.expect("bestmove")[1].split()[1] == "a1a8"


def _random_game(sp, plies, seed=1):
    board = chess.Board.from_chess960_pos(sp)
    rng = random.Random(seed)
    fen = board.fen()
    moves = []
    while len(moves) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        moves.append(board.uci(move, chess960=True))
        board.push(move)
    return fen, moves, board


def test_position_lines_of_a_growing_game_are_read_in_place():
    from micro960.text.uci import Uci
    out = []
    engine = Uci(None, out.append)
    engine.handle("setoption name UCI_Chess960 value true")
    fen, moves, board = _random_game(314, 120)
    game = engine.game
    for k in range(len(moves) + 1):  # as a GUI sends them: the whole game each time
        engine.handle("position fen %s moves %s" % (fen, " ".join(moves[:k])))
        assert len(engine.game.moves) == k
    assert engine.game is game and not out
    assert engine.game.pos.fen().split()[:4] == board.fen().split()[:4]
    # Spaces and tabs between words do not matter; a changed earlier move
    # starts the game again from its set-up.
    engine.handle("position  fen\t%s   moves %s " % (fen, "  ".join(moves)))
    assert len(engine.game.moves) == len(moves) and not out
    other = _random_game(314, 40, seed=2)[1]
    engine.handle("position fen %s moves %s" % (fen, " ".join(other)))
    assert len(engine.game.moves) == len(other)
    # A bad move leaves the position as it was, and says which move it was.
    engine.handle("position fen %s moves %s e2e5" % (fen, " ".join(other)))
    assert out and "move 41 (e2e5)" in out[-1] and len(engine.game.moves) == len(other)


def test_with_no_memory_to_keep_the_old_game_a_new_one_is_still_set_up(monkeypatch):
    """In a small heap, a long game may leave no room for the copy that a
    bad move of a new game would go back to (test_small_heap.py meets this
    at 96K). The new game is set up all the same; a bad move in it leaves
    the moves before it, and the info string says so."""
    from micro960.text import uci
    out = []
    engine = uci.Uci(None, out.append)
    engine.handle("position startpos moves e2e4 e7e5 g1f3")

    def no_memory(*args):
        raise MemoryError

    def played(*moves):
        board = chess.Board()
        for move in moves:
            board.push_uci(move)
        return (len(engine.game.moves), engine.game.pos.fen().split()[:4]) == \
            (len(moves), board.fen().split()[:4])

    monkeypatch.setattr(uci, "array", no_memory)  # the copy of the old game's moves
    engine.handle("position startpos moves d2d4 d7d5")
    assert not out and played("d2d4", "d7d5")
    engine.handle("position startpos moves c2c4 c7c5 c4c5 b1c3")
    assert len(out) == 1 and "move 3 (c4c5)" in out[0], out
    assert "no memory left to keep the previous game, the position is this line's before " \
        "move 3" in out[0], out
    assert played("c2c4", "c7c5")
    # A bad set-up changes nothing, its rules included.
    engine.handle("setoption name UCI_Chess960 value true")
    engine.handle("position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves a1a2")
    assert "refused: no position" in out[-1], out
    assert played("c2c4", "c7c5") and engine.game.rules.name == "classical"
    # The next line is read from its set-up, as for any other game.
    engine.handle("position startpos moves c2c4 c7c5 b1c3")
    assert len(out) == 2 and played("c2c4", "c7c5", "b1c3")


def test_a_long_position_line_costs_little_heap_on_micropython():
    """A move on in a 150-ply game: no list of words, no replay."""
    sys.path.insert(0, str(REPO))
    from host_tools.runtime import build_firmware, run_micropython
    fen, moves, _ = _random_game(314, 150)
    code = (
        "import gc, sys\n"
        "sys.path.insert(0, %r)\n"
        "from micro960.text.uci import Uci\n"
        "engine = Uci(None, print)\n"
        "engine.handle('setoption name UCI_Chess960 value true')\n"
        "line = %r\n"
        "engine.handle(line[:line.rindex(' ')])\n"
        "raw = bytearray(line + '\\n' + 'junk' * 100, 'ascii')\n"  # as lines.py hands it over
        "gc.collect()\n"
        "before = gc.mem_alloc()\n"
        "gc.disable()\n"
        "engine.handle(raw)\n"
        "print(gc.mem_alloc() - before, len(engine.game.moves))\n"
    ) % (str(build_firmware()), "position fen %s moves %s" % (fen, " ".join(moves)))
    result = run_micropython(code, heap="160K")
    assert result.returncode == 0, result.stdout + result.stderr
    allocated, plies = result.stdout.split()[-2:]
    assert int(plies) == len(moves), result.stdout
    # (split() and a replay made some 16 KB of garbage here; now ~1 KB of small objects)
    assert int(allocated) < 2000, result.stdout


def test_unknown_go_words_are_reported_and_the_search_runs(raw):
    raw.send("position startpos")
    raw.send("go depth 2 sideways")
    raw.expect("info string")
    assert chess.Move.from_uci(raw.expect("bestmove")[1].split()[1]) in chess.Board().legal_moves


@pytest.mark.parametrize("go, said", [
    ("go wtime -1000 btime 1000", "wtime -1000: read as 0"),  # flagged: move at once
    ("go btime 1000", "no limit for the side to move"),  # White's clock is missing
    ("go depth -5", "depth: -5 is too small"),
    ("go nodes -3", "nodes: -3 is too small"),
    ("go mate -1", "mate: -1 is too small"),
    ("go movetime 0", "movetime: 0 is too small"),
    ("go movestogo 0 wtime 300 btime 300", "movestogo: 0 is too small"),
    ("go depth 99999999999", "outside"),
    ("go wtime 99999999999 btime 1000", "wtime: 99999999999 is outside")])
def test_odd_numbers_in_go_get_an_info_string_and_a_finite_search(raw, go, said):
    """Each once searched until `stop`, or answered at once with the first
    legal move: now each is said and the search has a budget."""
    raw.send("position startpos")
    sent = raw.send(go)
    assert said in raw.expect("info string")[1], go
    answered, line = raw.expect("bestmove", timeout=5)
    assert chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves
    assert answered - sent < 2.5, go  # the one-second default, at most


def test_go_ponder_waits_for_ponderhit_then_keeps_to_its_time(raw):
    raw.send("position startpos moves e2e4 e7e5")
    raw.send("go ponder movetime 300")
    raw.expect("info depth 2 ")
    time.sleep(0.8)  # far past its 300 ms: still pondering
    assert not [line for line in raw.drain() if line.startswith("bestmove")]
    sent = raw.send("ponderhit")
    answered, line = raw.expect("bestmove", timeout=5)
    assert 0.2 < answered - sent < 0.6, answered - sent  # the 300 ms, counted from ponderhit
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves
    # A ponder search stopped instead of hit answers at once.
    raw.send("go ponder wtime 60000 btime 60000")
    raw.expect("info depth 2 ")
    sent = raw.send("stop")
    assert raw.expect("bestmove")[0] - sent < 0.1


def test_bestmove_names_the_reply_to_ponder_on_and_a_gui_ponders_with_it(engine):
    """Each bestmove carries `ponder MOVE`, the reply the search expects, legal
    after the best move (in Chess960, castling king-takes-rook); python-chess
    ponders on it between moves (go ponder) and the game goes on."""
    board = chess.Board.from_chess960_pos(314)
    ponders = 0
    for _ in range(4):
        result = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)
        if result.ponder is not None:
            ponders += 1
            assert result.ponder in board.legal_moves, (result.ponder, board.fen())
            board.push(result.ponder)  # the reply it expected: a ponder hit next
        else:
            board.push(next(iter(board.legal_moves)))
    assert ponders >= 3


def test_times_with_a_fraction_are_read_and_nan_is_not(raw):
    """UCI's times are whole milliseconds, but a client may send 1500.5: it
    is read (rounded), with no info string; a time that is no number is."""
    raw.send("position startpos")
    for go in ("go movetime 200.5", "go wtime 1000.7 btime 900.2 winc 10.5 binc 0.5"):
        said, move = searched_moves(raw, go)
        assert said == [] and chess.Move.from_uci(move) in chess.Board().legal_moves, go
    for go, said in (("go movetime nan", "go movetime: 'nan' is not a number"),
                     ("go wtime inf btime 1000", "go wtime: 'inf' is not a number"),
                     ("go depth 2.5", "go depth: '2.5' is not a whole number")):
        raw.send(go)
        assert raw.expect("info string")[1].startswith("info string " + said), go
        raw.expect("bestmove", timeout=5)


def searched_moves(raw, go):
    """The info strings and the bestmove of a go line."""
    raw.send(go)
    said = []
    while not said or not said[-1].startswith("bestmove"):
        line = raw.expect("", timeout=10)[1]
        if line.startswith("info string") or line.startswith("bestmove"):
            said.append(line)
    return said[:-1], said[-1].split()[1]


def test_go_searchmoves_answers_with_one_of_the_moves_listed(raw):
    """Ra8 mates, but the root searches only the moves listed; a move that is
    not legal (or no move) is named and left out; none left: all moves."""
    raw.send("position fen " + MATE_IN_ONE)
    said, move = searched_moves(raw, "go depth 3 searchmoves a1a2 g1f1 e2e4 zz")
    assert move in ("a1a2", "g1f1")
    assert said == ["info string go searchmoves e2e4: illegal move: e2e4; left out",
                    "info string go searchmoves zz: not a UCI move: 'zz'; left out"]
    # The list ends at the next go word; a move given twice is one move.
    assert searched_moves(raw, "go searchmoves a1a3 a1a3 depth 2") == ([], "a1a3")
    said, move = searched_moves(raw, "go nodes 1 searchmoves g1h1 g1f1")
    assert said == [] and move in ("g1h1", "g1f1")
    said, move = searched_moves(raw, "go depth 3 searchmoves 0000")  # python-chess's empty list
    assert said[-1] == "info string go searchmoves: no legal move listed; searching all"
    assert move == "a1a8"
    assert searched_moves(raw, "go depth 3") == ([], "a1a8")  # the next go: all again
    # Chess960 castling, as king takes rook (the mate) or as the king's square.
    raw.send("setoption name UCI_Chess960 value true")
    raw.send("position fen " + CASTLING_MATE)
    assert searched_moves(raw, "go depth 3 searchmoves a1a2 b1a1") == ([], "b1a1")
    assert searched_moves(raw, "go depth 3 searchmoves b1b2 a1a2")[1] in ("b1b2", "a1a2")


def test_stop_and_ponderhit_with_no_search_get_an_info_string(raw):
    raw.send("position fen " + MATE_IN_ONE)
    raw.send("stop")
    assert raw.expect("info string")[1] == "info string stop: no search is running"
    raw.send("ponderhit")
    assert raw.expect("info string")[1] == "info string ponderhit: no search is running"
    # A search that is not pondering is not hit either, searching or done
    # and waiting for stop (here it finds the mate at once); stop still stops it.
    for position in ("fen " + MATE_IN_ONE, "startpos"):
        raw.send("position " + position)
        raw.send("go infinite")
        raw.expect("info depth 1 ")
        raw.send("ponderhit")
        assert raw.expect("info string")[1] == \
            "info string ponderhit: this search is not pondering; ignored"
        raw.send("stop")
        raw.expect("bestmove")
    raw.send("position fen " + MATE_IN_ONE)
    assert searched_moves(raw, "go depth 2") == ([], "a1a8")  # nothing else changed


@pytest.mark.parametrize("go", ["go depth abc", "go wtime"])
def test_a_malformed_go_is_still_answered_with_bestmove(raw, go):
    # A GUI waits for bestmove after every go.
    raw.send("position startpos")
    raw.send(go)
    raw.expect("info string")
    line = raw.expect("bestmove", timeout=5)[1]
    assert chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves


# ------------------------------------------------------------ time management


# Games at 2 s + 0.1 s each: 2 in `make test` (a quarter of a minute, side
# by side: each game still runs from a full clock down to moves on the
# increment alone), 20 in `make fuzz` (tests/fuzzing.py's long budget): a
# long match is a benchmark's work more than a test's.
GAMES = 20 if fuzzing.LONG else 2
BASE = 2.0
INCREMENT = 0.1
MAX_PLIES = 120  # adjudicated a draw after this


def play_timed_game(sp):
    """micro960 against itself from SP `sp` at BASE + INCREMENT, both on CPython.

    The clocks are kept here from measured wall time. Returns (lowest clock
    left after a move, with the increment not yet added; plies; result)."""
    board = chess.Board.from_chess960_pos(sp)
    clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
    lowest = (BASE, "")
    engines = {colour: chess.engine.SimpleEngine.popen_uci(command("cpython"), cwd=REPO)
               for colour in (chess.WHITE, chess.BLACK)}
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                       black_clock=clocks[chess.BLACK],
                                       white_inc=INCREMENT, black_inc=INCREMENT)
            started = time.monotonic()
            result = engines[board.turn].play(board, limit)
            used = time.monotonic() - started
            clocks[board.turn] -= used
            if clocks[board.turn] < lowest[0]:
                lowest = (clocks[board.turn], "ply %d: %.3f s used of %.3f s" % (
                    board.ply() + 1, used, clocks[board.turn] + used))
            if lowest[0] < 0:
                break
            clocks[board.turn] += INCREMENT
            assert board.is_legal(result.move), (board.fen(), result.move)
            board.push(result.move)
    finally:
        for uci in engines.values():
            uci.quit()
    outcome = board.outcome(claim_draw=True)
    return lowest, board.ply(), outcome.result() if outcome else "1/2-1/2 (adjudicated)"


@pytest.mark.slow
def test_time_is_never_exceeded_over_a_match():
    rng = random.Random(960)
    positions = [rng.randrange(960) for _ in range(GAMES)]
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:  # two games at a time, one per core
        games = list(pool.map(play_timed_game, positions))
    elapsed = time.monotonic() - started
    report = ["SP %d: %d plies, %s, lowest clock %.3f s (%s)" % (sp, plies, result, lowest, how)
              for sp, ((lowest, how), plies, result) in zip(positions, games)]
    print("%d games in %.0f s" % (GAMES, elapsed))
    print("\n".join(report))
    assert all(lowest >= 0 for (lowest, _), _, _ in games), "\n".join(report)


@pytest.mark.parametrize("variant", ("chess960", "classical", "double960", "shuffle",
                                     "chess480", "transcendental", "lrs"))
def test_every_uci_variant_plays_from_its_own_set_up(raw, variant):
    from micro960.rules.variants import Rules
    from micro960.rules.startpos import setup_fen
    rules = Rules(variant)
    numbers = (518,) if variant == "classical" else (5, 900) if rules.two_ranks else (8,)
    fen = setup_fen(rules, *numbers)
    raw.send("setoption name UCI_Chess960 value true")
    raw.send("setoption name UCI_Variant value " + variant)
    raw.send("position fen %s moves e2e4" % fen)
    raw.send("go depth 2")
    move = raw.expect("bestmove")[1].split()[1]
    board = chess.Board(fen, chess960=True)
    board.push_uci("e2e4")
    assert chess.Move.from_uci(move) in board.legal_moves, (variant, move)

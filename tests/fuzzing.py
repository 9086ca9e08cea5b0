"""What every fuzz test shares: its budget, its settings and its tally.

The fuzz tests (tests/test_fuzz_*.py) throw random and mutated input at each
way into micro960 (FENs, UCI, the console, PGN, the sensor board, saves), on
CPython and on the MicroPython unix port, and check the answers against
python-chess or against the state before the input.

Budget: MICRO960_FUZZ_EXAMPLES cases per surface and runtime. Unset (CI, a
plain `make test`) it is a short run with a fixed seed, so the suite stays
quick and a green CI stays green; `make fuzz` sets a large budget and lets
hypothesis pick new cases every run.

Tally: `tally(surface, runtime)` counts the cases a test tried and how many
failed; pytest prints the table at the end of the run (see conftest.py), so
`make fuzz` says how much was tried, per surface and runtime.

    @fuzz_settings()
    @given(fen=fens())
    def test_perft_agrees(fen):
        with tally("fen", "cpython"):
            ...
"""
import os
from contextlib import contextmanager

from hypothesis import HealthCheck, settings

LONG = "MICRO960_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("MICRO960_FUZZ_EXAMPLES", "40"))

# (surface, runtime) -> [tried, failed]
COUNTS = {}


def fuzz_settings(examples=None, **overrides):
    """hypothesis settings for a fuzz test: the budget, no deadline (a
    MicroPython process answers at its own pace), and in a short run a fixed
    seed and no example database, so CI runs the same cases every time."""
    options = dict(max_examples=examples or EXAMPLES, deadline=None,
                   derandomize=not LONG, database=None if not LONG else settings().database,
                   suppress_health_check=list(HealthCheck))
    options.update(overrides)
    return settings(**options)


@contextmanager
def tally(surface, runtime):
    """Count one case of `surface` on `runtime`, and whether it failed."""
    counts = COUNTS.setdefault((surface, runtime), [0, 0])
    counts[0] += 1
    try:
        yield
    except BaseException:
        counts[1] += 1
        raise


def report_lines():
    """The table pytest prints at the end: one line per surface and runtime."""
    if not COUNTS:
        return []
    lines = ["%-12s %-12s %8s %8s" % ("surface", "runtime", "tried", "failed")]
    for (surface, runtime), (tried, failed) in sorted(COUNTS.items()):
        lines.append("%-12s %-12s %8d %8d" % (surface, runtime, tried, failed))
    return lines


class LineProcess:
    """A long-lived program answering lines, for the fuzz tests' MicroPython runs:
    one process for many cases, started again (and the case failed) if it dies.

        proc = LineProcess(["micropython", ...])
        proc.send("isready")
        proc.read_until(lambda line: line == "readyok", timeout=5)
    """

    def __init__(self, argv, **popen):
        import queue
        self.argv = argv
        self.popen = popen
        self.queue_class = queue.Queue
        self.process = None

    def start(self):
        import subprocess
        import threading
        self.lines = self.queue_class()
        self.process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", errors="replace", bufsize=1, **self.popen)
        threading.Thread(target=self._pump, args=(self.process, self.lines), daemon=True).start()

    @staticmethod
    def _pump(process, lines):
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def send(self, text):
        if self.process is None or self.process.poll() is not None:
            self.start()
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def read_until(self, done, timeout=10):
        """The lines up to and including the first for which done(line) is true.
        AssertionError (and a fresh process next time) if the program ends,
        prints a traceback or takes longer than `timeout` seconds."""
        import queue
        import time
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                raise AssertionError("no answer within %s s after %r" % (timeout, seen[-5:]))
            if line is None:
                self.process = None
                raise AssertionError("the program ended: %r" % seen[-10:])
            seen.append(line)
            if line.startswith("Traceback"):
                while line is not None:  # the rest of it, to say what went wrong
                    try:
                        line = self.lines.get(timeout=2)
                    except queue.Empty:
                        break
                    if line is not None:  # (None: the program has ended)
                        seen.append(line)
                self.stop()
                raise AssertionError("a traceback: %s" % "\n".join(seen[-12:]))
            if done(line):
                return seen

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def micropython_command(*args, heap="64K"):
    """The argv that runs `micro960 ARGS` on the MicroPython unix port in one
    process, as `--runtime micropython` does (the firmware compiled to .mpy)."""
    from host_tools import runtime
    build = runtime.build_firmware()
    return [runtime.micropython_executable(), "-X", "heapsize=%s" % heap, "-c",
            runtime.COMMANDS_BOOT % str(build)] + list(args)


# Rule sets a random game can be played in, with python-chess making the moves.
RULES = ("chess960", "classical", "double960", "shuffle", "lrs")


def start_board(rules, rng):
    """A python-chess board at a random start position of `rules` (LRS: a
    random back row with no castling, as micro960's LRS set-ups)."""
    import chess
    if rules == "classical":
        return chess.Board(chess960=True)
    if rules == "chess960":
        return chess.Board.from_chess960_pos(rng.randrange(960))
    if rules == "shuffle":  # rooks in the corners, the king on e
        while True:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            rank = board.board_fen().split("/")[-1]
            if rank[0] == "R" and rank[4] == "K" and rank[7] == "R":
                return board
    if rules == "double960":
        white = chess.Board.from_chess960_pos(rng.randrange(960)).board_fen().split("/")[-1]
        black = chess.Board.from_chess960_pos(rng.randrange(960)).board_fen().split("/")[0]
        return chess.Board("%s/pppppppp/8/8/8/8/PPPPPPPP/%s w - - 0 1" % (black, white),
                           chess960=True)
    row = list("RNBQKBNR")
    rng.shuffle(row)
    row = "".join(row)
    return chess.Board("%s/pppppppp/8/8/8/8/PPPPPPPP/%s w - - 0 1" % (row.lower(), row),
                       chess960=True)


def random_game(rules, seed, plies):
    """(start board, moves): up to `plies` random legal moves from a random
    start position of `rules`; the board is left at the start."""
    import random
    rng = random.Random(seed)
    board = start_board(rules, rng)
    start = board.copy()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return start, moves


PIECES = "PNBRQKpnbrqk"
# Odd characters a FEN may come with: no line ends or tabs (they end a batch line).
ODD = "\x00\x01\x1b\x7f\xe9\u2658\u265a\x0b\x0c /-0123456789abcdefghKQkqwxyz!?*"


FIELD_VALUES = {
    1: ["w", "b", "W", "x", ""],  # side to move
    2: ["-", "KQkq", "Qk", "HAha", "AH", "BGbg", "kK", "KKk", "Q", "q", "C", "Hh"],  # castling
    3: ["-"] + [f + r for f in "abcdeh" for r in "3456"] + ["e9", "z3"],  # en passant
    4: ["0", "1", "49", "100", "-1", "9999", "10000", "x"],  # halfmove clock
    5: ["0", "1", "2", "-3", "x"],  # move number
}


def mutate(board, draw):
    """A FEN of `board` with one random change (`draw`: hypothesis's, in a composite)."""
    import chess
    from hypothesis import strategies as st
    fen = board.fen() if draw(st.booleans()) else board.shredder_fen()
    kind = draw(st.integers(0, 8))
    if kind <= 2:  # a piece added, removed or moved
        changed = board.copy(stack=False)
        square = draw(st.integers(0, 63))
        if kind == 0:
            changed.set_piece_at(square, chess.Piece.from_symbol(draw(st.sampled_from(PIECES))))
        else:
            piece = changed.remove_piece_at(square)
            if kind == 2 and piece:
                changed.set_piece_at(draw(st.integers(0, 63)), piece)
        return changed.board_fen() + fen[fen.index(" "):]
    if kind <= 5:  # a field changed
        fields = fen.split(" ")
        index = draw(st.integers(1, 5))
        fields[index] = draw(st.sampled_from(FIELD_VALUES[index]))
        return " ".join(fields)
    if kind == 6:  # cut short
        return fen[:draw(st.integers(0, len(fen) - 1))]
    # odd characters put in (7) or over (8) others
    at = draw(st.integers(0, len(fen)))
    odd = draw(st.text(alphabet=ODD, min_size=1, max_size=3))
    return fen[:at] + odd + fen[at + (kind == 8):]


def console_driver_command(*args, heap="224K", module="console_driver"):
    """The argv that runs tests/firmware/console_driver.py's main(ARGS) (or
    another driver `module` there) on the MicroPython unix port, from the
    .mpy builds of the firmware and its tests."""
    from pathlib import Path
    from host_tools import runtime
    firmware = runtime.build_firmware()
    runtime.compile_tree(Path(__file__).resolve().parent / "firmware", runtime.TESTS_MPY)
    boot = ("import sys\nsys.path[0:0] = [%r, %r]\nimport %s\n%s.main(*sys.argv[1:])\n"
            % (str(firmware), str(runtime.TESTS_MPY), module, module))
    return [runtime.micropython_executable(), "-X", "heapsize=%s" % heap, "-c", boot] + list(args)

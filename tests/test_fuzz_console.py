"""Console fuzzing: random command lines, moves and control bytes typed at the
console (through the line editor, as from a serial port), on CPython and on
the MicroPython unix port: no traceback, and a refused line leaves the game
exactly as it was (its position, its moves and its result).
"""
import pytest
from hypothesis import given, strategies as st

from console_driver import make_console, person_typing, type_bytes
from fuzzing import LineProcess, console_driver_command, fuzz_settings, tally

WORDS = ["new", "new 518", "new 0", "new 959", "new 960", "new -1", "new random", "new dice 1 2 3",
         "new dice 1 1 1 1 1", "new classical", "new RNBQKBNR", "new RNBQKBNX", "new fen",
         "new fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1", "new fen 8/8/8/8/8/8/8/8 w - - 0 1",
         "rules", "rules lrs", "rules chess960", "rules shuffle", "rules atomic", "both",
         "go", "hint", "level", "level 0", "level 21", "level x", "time", "time 0.1", "time 0",
         "time -1", "time x", "threads 2", "threads 1", "threads 3", "moves", "undo", "fen", "fen shredder", "pgn", "draw", "resign",
         "board", "flip", "unicode", "ascii", "color", "color off", "help", "O-O", "O-O-O",
         "e4", "e5", "Nf3", "Nc6", "e2e4", "e7e5", "g1f3", "a7a8", "a7a8q", "Ke2", "0-0",
         "e9", "xyz", "\u2658f3", "Qh4#", "f3", "g4", "d4", "d5", "Bb5", "exd5"]
CONTROL = st.sampled_from(["\x1b", "\x1b[A", "\x1b[B", "\x1bOA", "\x08", "\x7f", "\x15", "\x00",
                           "\x03", "\t", "\r", "\r\n", "\x1b[3~", "\u265e", "\xe9"])
lines = st.lists(st.one_of(
    st.sampled_from(WORDS),
    st.text(min_size=0, max_size=20),
    st.tuples(st.sampled_from(WORDS), CONTROL, st.sampled_from(WORDS)).map("".join),
    st.integers(100, 300).map(lambda n: "e4" * n)), min_size=1, max_size=12)


def typed(batch):
    """What a person typed: the lines, each ended by Enter."""
    return "".join(line + "\n" for line in batch).encode("utf-8")


@fuzz_settings()
@given(batch=lines)
def test_console_fuzz_on_cpython(batch):
    with tally("console", "cpython"):
        said = []
        console = make_console(said)
        editor = person_typing()
        assert type_bytes(console, said, editor, typed(batch)) == []


@pytest.fixture(scope="module")
def driver():
    process = LineProcess(console_driver_command())
    yield process
    process.stop()


def test_console_fuzz_on_micropython(driver):
    @fuzz_settings()
    @given(batch=lines)
    def case(batch):
        with tally("console", "micropython"):
            driver.send("new 518\n".encode().hex())  # each case from the same start
            driver.read_until(lambda line: line == "END", timeout=30)
            driver.send(typed(batch).hex())
            said = driver.read_until(lambda line: line == "END", timeout=120)
            assert [line for line in said if line.startswith("PROBLEM")] == [], said
    case()

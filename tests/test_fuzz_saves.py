"""Save fuzzing: the saved game (game.txt) cut short or with a byte flipped,
at any place, then the console started again, on CPython and on the
MicroPython unix port. The game comes back as it was, or the console warns
and starts a fresh game; it never crashes, and the game goes on.
"""
import pytest
from hypothesis import given, strategies as st

from console_driver import make_console, person_typing, state, type_bytes
from fuzzing import LineProcess, console_driver_command, fuzz_settings, random_game, tally


def saved_game(folder, seed, plies):
    """Play a random game from SP 518 on a console that saves to `folder`;
    its state and the saved file's bytes (None if the game ended, archived)."""
    said = []
    console = make_console(said, str(folder))
    start, moves = random_game("classical", seed, plies)
    board = start
    typed = []
    for move in moves:
        typed.append(board.uci(move, chess960=True))
        board.push(move)
    type_bytes(console, said, person_typing(),
               "".join(line + "\n" for line in ["new 518"] + typed).encode())
    saved = folder / "game.txt"
    return state(console), saved.read_bytes() if saved.exists() else None


damage = st.tuples(st.integers(0, 10 ** 9), st.integers(1, 40), st.sampled_from(["cut", "flip"]),
                   st.floats(0, 1), st.integers(1, 255))


def damaged(data, kind, where, mask):
    at = min(len(data) - 1, int(where * len(data)))
    if kind == "cut":
        return data[:at]
    return data[:at] + bytes([data[at] ^ mask]) + data[at + 1:]


def check(said, before):
    """What the console said on starting: resumed as it was, or warned and fresh."""
    assert "RESUMED" in said or "FRESH" in said, said
    if "FRESH" in said:
        assert [line for line in said if line.startswith("warning")], said
    return "RESUMED" in said


@fuzz_settings()
@given(case=damage)
def test_save_fuzz_on_cpython(case, tmp_path_factory):
    seed, plies, kind, where, mask = case
    with tally("saves", "cpython"):
        folder = tmp_path_factory.mktemp("save")
        before, data = saved_game(folder, seed, plies)
        if data is None:
            return  # the game ended: archived, nothing saved to damage
        (folder / "game.txt").write_bytes(damaged(data, kind, where, mask))
        said = []
        console = make_console(said, str(folder))
        if check(said, before):
            assert state(console) == before
        else:
            assert len(console.game.moves) == 0  # a fresh game
        type_bytes(console, said, person_typing(), b"moves\nfen\n")


@pytest.mark.parametrize("runtime", ["micropython"])
def test_save_fuzz_on_micropython(runtime, tmp_path_factory):
    @fuzz_settings()
    @given(case=damage)
    def case(case):
        seed, plies, kind, where, mask = case
        with tally("saves", runtime):
            folder = tmp_path_factory.mktemp("save")
            before, data = saved_game(folder, seed, plies)
            if data is None:
                return  # the game ended: archived, nothing saved to damage
            (folder / "game.txt").write_bytes(damaged(data, kind, where, mask))
            driver = LineProcess(console_driver_command(str(folder)))
            try:
                driver.send(b"fen\nmoves\n".hex())
                said = driver.read_until(lambda line: line == "END", timeout=30)
                check(said, before)
                driver.read_until(lambda line: line == "END", timeout=30)
            finally:
                driver.stop()
    case()

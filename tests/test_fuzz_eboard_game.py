"""The sensor board's game as a property: random sequences of what a person
does at the board (moves made with any gesture, castling and captures
included, the engine's replies carried out or not, stray pieces, pieces held,
bounces, takebacks, pauses, power cuts, promotion choices, misread board
readings, the board put right; a set-up phase first, sometimes), through
the device loop with the engine at
a tiny node budget, on CPython in-process and on the MicroPython unix port
through tests/firmware/eboard_driver.py. After every step the driver checks
the rules its text lists (the engine has answered, the save is the game, the
game follows the board, a power cut takes the same game up again).

(The sensor board has no commands for a new game, a draw offer or
resignation: a game ends by the rules or on time, and a power cut starts the
next one; those rules are the console's to test.)
"""
from hypothesis import given, strategies as st

from eboard_driver import STEPS, Driver
from fuzzing import LineProcess, console_driver_command, fuzz_settings, tally

RULES = ("chess960", "chess960", "classical", "double960", "lrs")
# Chess960 positions where games end soon or the rare moves come: mates,
# stalemates, a bare king, the 75-move rule, promotion, en passant, castling
# with king and rook swapping squares or the king not moving.
ENDINGS = ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "k7/8/1K6/8/8/8/8/7R w - - 0 1",
           "k7/8/1Q6/8/8/8/8/K7 w - - 0 1", "k7/8/8/8/8/8/8/K7 w - - 0 1",
           "k7/8/8/8/8/8/1R6/K7 w - - 147 100", "8/P5k1/8/8/8/8/1p4K1/8 w - - 0 1",
           "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w Gg - 0 1",
           "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1")
# A step: its kind, then two numbers choosing the move, square or gesture.
steps = st.lists(st.tuples(st.integers(0, len(STEPS) - 1), st.integers(0, 999),
                           st.integers(0, 3)), min_size=1, max_size=40)
cases = st.tuples(st.sampled_from(RULES), st.integers(0, 5039),
                  st.sampled_from(["black", "white", "none"]), st.sampled_from(["-", "-", "1+1"]),
                  st.one_of(st.none(), st.just("setup"), st.sampled_from(ENDINGS)), steps)


def start_line(case, folder):
    rules, number, engine, clock, fen, _ = case
    if fen == "setup":  # a set-up phase first
        return "start %s %d %s %s setup %s" % (rules, number, engine, clock, folder)
    if fen:
        return "start chess960 0 %s %s - %s %s" % (engine, clock, folder, fen)
    return "start %s %d %s %s - %s" % (rules, number, engine, clock, folder)


def step_lines(case):
    return ["%d %d %d" % step for step in case[-1]]


def test_the_sensor_board_game_on_cpython(tmp_path_factory):
    @fuzz_settings()
    @given(case=cases)
    def case(case):
        with tally("eboard game", "cpython"):
            driver = Driver()
            folder = tmp_path_factory.mktemp("board")
            done = []
            for line in [start_line(case, folder)] + step_lines(case):
                problems = driver.run_line(line)
                assert not problems, (done + [line], problems, driver.said[-8:])
                done.append(line)
    case()


def driver_command():
    """The MicroPython unix port running eboard_driver.main() (firmware and
    tests compiled, as console_driver_command has them). One process plays
    every case, a new game and its engine at each power cut, where a board
    would start afresh: a heap twice the sensor board's leaves room for that."""
    command = console_driver_command(heap="448K")
    command[-1] = command[-1].replace("console_driver", "eboard_driver").replace(
        "main(*sys.argv[1:])", "main()")
    return command


def test_the_sensor_board_game_on_micropython(tmp_path_factory):
    driver = LineProcess(driver_command())

    @fuzz_settings()
    @given(case=cases)
    def case(case):
        with tally("eboard game", "micropython"):
            folder = tmp_path_factory.mktemp("board")
            done = []
            for line in [start_line(case, folder)] + step_lines(case):
                driver.send(line)
                said = driver.read_until(lambda text: text == "END", timeout=30)
                problems = [text for text in said if text.startswith("PROBLEM")]
                assert not problems, (done + [line], said)
                done.append(line)
    try:
        case()
    finally:
        driver.stop()

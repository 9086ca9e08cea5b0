"""Console flows: random sequences of what a player does at the console
(legal moves, the reply the engine expects, new, undo, rules, go, both,
black, white, draw, accept, resign, setup, Ctrl-C, and the program started
again), on CPython and on the MicroPython unix port, the engine at a tiny
fixed budget. After every step the engine has moved if its side is to move,
the saved game holds every move played (also whenever the engine starts to
think: a power cut then loses nothing), only the other side may accept a
draw offer (accept is typed after every step where it must be refused), and
a resume gives the same game. See tests/firmware/console_flows.py.
"""
import pytest
from hypothesis import given, strategies as st

from console_flows import Flows
from fuzzing import EXAMPLES, LineProcess, console_driver_command, fuzz_settings, tally
from micro960.rules.variants import NAMES
from power_cut import empty_folder

COMMANDS = ["new", "undo", "go", "both", "black", "white", "draw", "accept", "resign",
            "setup", "^C", "resume"]
# Mostly moves (legal ones, so that games go on to their ends); x: the reply
# the engine expects, a ponder hit when it ponders.
KINDS = {
    "move": st.integers(0, 99).map(lambda k: "m%d" % k), "x": st.just("x"),
    "command": st.sampled_from(COMMANDS), "offer": st.sampled_from(["draw", "accept"]),
    "new": st.integers(0, 959).map(lambda n: "new %d" % n),
    "rules": st.sampled_from(NAMES).map(lambda name: "rules " + name)}
step = st.sampled_from(["move"] * 6 + ["x"] * 2 + ["command"] * 3 +
                       ["offer", "offer", "new", "rules"]).flatmap(KINDS.get)
# Each case begins by choosing the engine's side (or two players).
flows = st.tuples(st.sampled_from(["white", "black", "both"]),
                  st.lists(step, min_size=1, max_size=40)).map(lambda case: [case[0]] + case[1])
# 60 cases found each of issue 40's three defects on the code before it
# (first failures at cases 9 to 49 on the two runtimes).
BUDGET = max(60, EXAMPLES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return str(tmp_path_factory.mktemp("flows"))


@pytest.fixture(scope="module")
def driver(folder):
    """console_flows.main in one MicroPython process for all the cases."""
    process = LineProcess(console_driver_command(folder, module="console_flows"))
    yield process
    process.stop()


def problems_on_cpython(folder, steps):
    empty_folder(folder)
    return Flows(folder).run(steps)


def problems_on_micropython(driver, steps):
    driver.send("|".join(steps))
    said = driver.read_until(lambda line: line == "END", timeout=120)
    return [line for line in said if line.startswith("PROBLEM")]


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_console_flows_fuzz(runtime, request):
    if runtime == "cpython":
        where, problems = request.getfixturevalue("folder"), problems_on_cpython
    else:
        where, problems = request.getfixturevalue("driver"), problems_on_micropython

    @fuzz_settings(examples=BUDGET)  # (one function: the same cases on both runtimes)
    @given(steps=flows)
    def case(steps):
        with tally("flows", runtime):
            assert problems(where, steps) == []
    case()

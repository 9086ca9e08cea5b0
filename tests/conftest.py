"""Shared set-up for the whole suite.

Puts firmware/ (the micro960 package) and tests/firmware/ (the firmware test
modules, in folders by package, and their helpers) on sys.path, and tells
firmware tests where the reference data is through the MICRO960_DATA
environment variable, the same way tests/mprun.py does on MicroPython. The data lives in tests/data (made
by tests/data/make_reference_data.py) unless MICRO960_DATA says otherwise.
"""
import os
import shutil
import tempfile
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
FIRMWARE_TESTS = REPO / "tests" / "firmware"
DATA = Path(os.environ.get("MICRO960_DATA") or REPO / "tests" / "data").resolve()

# The firmware tests' folders too (tests/firmware/rules, ...): a test module
# imports another of its folder by name, as mprun.py lets it on MicroPython.
_FOLDERS = sorted(str(path) for path in FIRMWARE_TESTS.iterdir()
                  if path.is_dir() and any(path.glob("test_*.py")))
for _path in _FOLDERS + [str(FIRMWARE), str(FIRMWARE_TESTS), str(REPO), str(REPO / "tests")]:
    if _path not in sys.path:
        sys.path.insert(0, _path)
os.environ["MICRO960_DATA"] = str(DATA)
# Games that `micro960 play` keeps go to a scratch folder, not the user's own.
os.environ.setdefault("MICRO960_GAMES", tempfile.mkdtemp(prefix="micro960-games-"))


# CI (CI=true) installs every tool the tests use (.ci/run): there a missing
# tool is a broken set-up and fails its tests; elsewhere they skip, saying why.
IN_CI = os.environ.get("CI", "").lower() == "true"
# Debian installs Stockfish, polyglot, XBoard and Fairy-Max here, off root's PATH.
GAME_DIRS = "/usr/games"


def find_tool(name):
    """The path of the program `name` (on PATH or in /usr/games), or None."""
    return shutil.which(name) or shutil.which(name, path=GAME_DIRS)


def tool_missing(reason):
    """Skip the calling test for want of a tool; in CI, fail it."""
    if IN_CI:
        pytest.fail("%s (CI=true: .ci/run must install it)" % reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def stock_pico():
    """The emulated Pico on stock MicroPython with nothing flashed, at its
    prompt (one a test module)."""
    from host_tools import emulator
    if emulator.missing():
        tool_missing(emulator.missing())
    with emulator.EmulatedPico(board=None) as pico:
        yield pico


def said(pico, code, word, timeout=1800):
    """The numbers of each line that `code`, run at the prompt, printed
    after `word`: a list of lists of ints."""
    from host_tools import pico_bench
    return [[int(n) for n in line.split()[1:]]
            for line in pico_bench.run_code(pico, code, timeout=timeout) if line.startswith(word + " ")]


def need_tool(name, package=None):
    """The path of `name`; skips the test (fails it in CI) where it is missing."""
    path = find_tool(name)
    if not path:
        tool_missing("%s is not installed (apt install %s)" % (name, package or name))
    return path


def pytest_configure(config):
    config.addinivalue_line("markers", "tools(*names): the programs a test needs; "
                            "it skips without them (fails in CI)")
    config.addinivalue_line("markers", "slow: takes a minute or more; run first")


def pytest_runtest_setup(item):
    for marker in item.iter_markers("tools"):
        for name in marker.args:
            need_tool(name)


@pytest.fixture(scope="session")
def stockfish_path():
    return need_tool("stockfish")


@pytest.fixture(scope="session")
def repo_root():
    return REPO


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.fail("reference data not found at %s (set MICRO960_DATA)" % DATA)
    return DATA



# `make test` runs the tests in parallel (pytest-xdist, -n): the main process
# compiles the firmware, the firmware tests and the emulated Pico's bundle
# once before the workers start, so no two workers compile the same files,
# and each worker hands its fuzz tally back to it at the end.

def in_worker(config):
    return hasattr(config, "workerinput")


def pytest_sessionstart(session):
    if not in_worker(session.config):
        from host_tools import runtime
        runtime.build_firmware()
        runtime.compile_tree(FIRMWARE_TESTS, runtime.TESTS_MPY)
        from host_tools import emulator
        if not emulator.missing():
            emulator.bundle()  # the emulated Pico's, compiled once for every worker


def pytest_collection_modifyitems(config, items):
    """The slow tests first, so that in a parallel run none is left to run
    alone at the end (a stable sort: each worker sees the same order)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_sessionfinish(session):
    if in_worker(session.config):
        import fuzzing
        session.config.workeroutput["fuzz_counts"] = [
            [surface, runtime, tried, failed]
            for (surface, runtime), (tried, failed) in fuzzing.COUNTS.items()]


@pytest.hookimpl(optionalhook=True)  # an xdist hook: without -n it is never called
def pytest_testnodedown(node, error):
    import fuzzing
    for surface, runtime, tried, failed in getattr(node, "workeroutput", {}).get("fuzz_counts", ()):
        counts = fuzzing.COUNTS.setdefault((surface, runtime), [0, 0])
        counts[0] += tried
        counts[1] += failed


def pytest_terminal_summary(terminalreporter):
    """After a run with fuzz tests, how many cases each surface tried (tests/fuzzing.py)."""
    import fuzzing
    lines = fuzzing.report_lines()
    if lines:
        terminalreporter.section("fuzz cases")
        for line in lines:
            terminalreporter.line(line)

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

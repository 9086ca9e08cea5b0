"""`micro960 bench --clock`: does the engine keep to its time at a Pico's speed?

A Pico searches about 1,000 nodes a second (`micro960 bench` estimates it).
The MicroPython unix port run under valgrind's lackey tool is slowed to about
that rate, so how the engine keeps time there (how often it looks at the
clock, what it does before and after its search) can be measured on a PC.
Each `go` is sent through the UCI, as a GUI sends it, in a few middlegames,
and the time from `go` to `bestmove` is set against the time given: the
`movetime`, or the clock of the side to move. A board's serial link adds
its own delay, which is what `Move Overhead` is for.
"""
import re
import shutil
import subprocess
import time

from . import runtime

POSITIONS = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1b1kbnr/pp1n1ppp/2q1p3/2ppP3/3P4/2PB1N2/PP3PPP/RNBQK2R w KQkq - 3 7",
)
GOS = ("movetime 100", "movetime 250", "movetime 1000", "wtime 300 btime 300",
       "wtime 2000 btime 2000 winc 100 binc 100")


def given_ms(go):
    """The time a `go` line gives White: its movetime, else White's clock."""
    words = go.split()
    key = "movetime" if "movetime" in words else "wtime"
    return int(words[words.index(key) + 1])


class SlowEngine:
    """The UCI engine on the unix port under lackey; ask() sends lines.

    (Not python-chess, as `micro960 match` uses: it sends `position` with
    every `go`. Here the position is sent first, with `isready`, so that only
    the search's own time is measured. Reading and setting up a position line
    takes some 50 ms more at this rate, half of it reading the line one
    character at a time; a GUI counts that too, and Move Overhead covers it.)"""

    def __init__(self, heap="192K"):
        valgrind = shutil.which("valgrind")
        if not valgrind:
            raise runtime.ToolMissing("valgrind not found; install the Debian package valgrind")
        boot = runtime.UCI_BOOT % str(runtime.build_firmware())
        self.process = subprocess.Popen(
            [valgrind, "--tool=lackey", "-q", runtime.micropython_executable(),
             "-X", "heapsize=%s" % heap, "-c", boot],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1)
        try:
            self.ask("uci", "uciok")
        except (RuntimeError, OSError) as e:  # e.g. an instruction valgrind does not know
            self.process.kill()
            raise runtime.ToolMissing("valgrind could not run the engine here (%s)" % e)
        self.ask("setoption name UCI_Chess960 value true\nisready", "readyok")

    def ask(self, lines, until):
        """Send `lines`; the engine's lines up to one starting with `until`."""
        self.process.stdin.write(lines + "\n")
        self.process.stdin.flush()
        seen = []
        while not seen or not seen[-1].startswith(until):
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped after: %s" % seen[-3:])
            seen.append(line.strip())
        return seen

    def go(self, fen, go):
        """(milliseconds from `go` to `bestmove`, nodes/s of the last info line)."""
        self.ask("position fen %s\nisready" % fen, "readyok")
        start = time.monotonic()
        seen = self.ask("go " + go, "bestmove")
        took = (time.monotonic() - start) * 1000
        rates = [int(m.group(1)) for m in (re.search(r" nps (\d+)", s) for s in seen) if m]
        return took, rates[-1] if rates else 0

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def measure(gos=GOS, positions=POSITIONS, heap="192K"):
    """[(go, ms given, longest ms it took, nodes/s)] for each `go`."""
    engine = SlowEngine(heap)
    try:
        for fen in positions:  # valgrind translates code the first time it runs
            engine.go(fen, "depth 2")
        rows = []
        for go in gos:
            runs = [engine.go(fen, go) for fen in positions]
            rows.append((go, given_ms(go), max(took for took, _ in runs),
                         max(nps for _, nps in runs)))
        return rows
    finally:
        engine.close()


def run(heap="192K"):
    """Print the table; 1 if a `go` took longer than it was given."""
    rows = measure(heap=heap)
    print("go at a Pico's node rate (the unix port under valgrind's lackey), "
          "%d positions each" % len(POSITIONS))
    print("%-44s %8s %12s %8s" % ("go", "given ms", "longest ms", "nodes/s"))
    for go, given, longest, rate in rows:
        print("%-44s %8d %12.0f %8d%s" % (go, given, longest, rate,
                                          "  OVER" if longest > given else ""))
    return 1 if any(longest > given for _, given, longest, _ in rows) else 0

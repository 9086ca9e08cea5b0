"""Benchmarks: `micro960 bench --perft` times perft on both runtimes.

micro960's perft runs in this CPython process and on the MicroPython unix
port; python-chess's perft runs beside it in the same run, so the ratios
compare like with like on whatever machine this is.
"""
import platform
import sys
import time

from . import runtime

PERFT_CASES = (
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862),
)

MICROPYTHON_PERFT = """
import sys, time
sys.path.insert(0, %(build)r)
from micro960.rules import movegen
from micro960.rules.position import Position
buf = movegen.move_buffer(movegen.MAX_MOVES * 8)
for fen, depth in %(cases)r:
    pos = Position(fen)
    best = 0
    for _ in range(%(repeat)d):
        start = time.ticks_us()
        nodes = movegen.perft(pos, depth, buf)
        took = time.ticks_diff(time.ticks_us(), start)
        if not best or took < best:
            best = took
    print(nodes, best)
"""


def chess_perft(board, depth):
    """perft with python-chess, counting the last ply in bulk as its docs suggest."""
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def _best_of(repeat, function):
    """(result, fastest seconds) of `repeat` calls."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        took = time.perf_counter() - start
        if best is None or took < best:
            best = took
    return result, best


def perft_cpython(repeat):
    firmware = str(runtime.FIRMWARE)
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
    from micro960.rules import movegen
    from micro960.rules.position import Position
    buf = movegen.move_buffer(movegen.MAX_MOVES * 8)
    rows = []
    for _, fen, depth, _ in PERFT_CASES:
        pos = Position(fen)
        rows.append(_best_of(repeat, lambda: movegen.perft(pos, depth, buf)))
    return rows


def perft_micropython(repeat, heap):
    build = runtime.build_firmware()
    cases = [(fen, depth) for _, fen, depth, _ in PERFT_CASES]
    code = MICROPYTHON_PERFT % {"build": str(build), "cases": cases, "repeat": repeat}
    result = runtime.run_micropython(code, heap=heap)
    if result.returncode != 0:
        raise RuntimeError("MicroPython perft failed:\n" + result.stdout + result.stderr)
    rows = []
    for line in result.stdout.split("\n"):
        if line.strip():
            nodes, micros = line.split()
            rows.append((int(nodes), int(micros) / 1e6))
    return rows


def perft_python_chess(repeat):
    import chess
    rows = []
    for _, fen, depth, _ in PERFT_CASES:
        board = chess.Board(fen)
        rows.append(_best_of(repeat, lambda: chess_perft(board, depth)))
    return rows


def bench_perft(repeat=3, heap="64K", out=sys.stdout):
    import chess
    python = "CPython %s" % platform.python_version()
    runs = [
        ("micro960, %s" % python, perft_cpython(repeat)),
        ("micro960, MicroPython %s unix" % runtime.micropython_version(),
         perft_micropython(repeat, heap)),
        ("python-chess %s, %s" % (chess.__version__, python), perft_python_chess(repeat)),
    ]
    for name, rows in runs:
        for (nodes, _), (case, _, depth, expected) in zip(rows, PERFT_CASES):
            if nodes != expected:
                raise RuntimeError("%s: perft(%s, %d) = %d, expected %d"
                                   % (name, case, depth, nodes, expected))
    speeds = [[nodes / seconds for nodes, seconds in rows] for _, rows in runs]
    label = 42
    header = "".join("%16s" % ("%s d%d" % (case, depth)) for case, _, depth, _ in PERFT_CASES)
    write = out.write
    write("perft, leaf nodes per second (best of %d; last ply counted in bulk)\n" % repeat)
    write("%-*s%s\n" % (label, "", header))
    for (name, _), row in zip(runs, speeds):
        write("%-*s%s\n" % (label, name, "".join("%16s" % format(round(s), ",") for s in row)))
    cpython, micropython, python_chess = speeds
    ratios = (
        ("micro960 CPython / python-chess", cpython, python_chess),
        ("micro960 MicroPython / python-chess", micropython, python_chess),
        ("micro960 CPython / micro960 MicroPython", cpython, micropython),
    )
    for name, top, bottom in ratios:
        write("%-*s%s\n" % (label, name, "".join("%15.2fx" % (a / b) for a, b in zip(top, bottom))))
    write("For the Pico itself: micro960 bench --pico (an emulated board, its own clock).\n")
    return 0


def _firmware_bench(runtime_name, depth, heap):
    """Output lines of the firmware's `bench DEPTH` on one runtime."""
    import subprocess
    args = ["bench", str(depth)]
    if runtime_name == "micropython":
        runtime.build_firmware()
        result = runtime.run_micropython(
            ["-c", runtime.COMMANDS_BOOT % str(runtime.FIRMWARE_MPY)] + args, heap=heap)
    else:
        result = subprocess.run(
            [sys.executable, "-c", runtime.COMMANDS_BOOT % str(runtime.FIRMWARE)] + args,
            capture_output=True, text=True)
    if result.returncode:
        raise SystemExit("bench failed on %s:\n%s%s" % (runtime_name, result.stdout,
                                                        result.stderr))
    return result.stdout.strip().split("\n")


def _fastest(runs):
    """The run (the output lines of one firmware bench) that took least time."""
    return min(runs, key=lambda lines: _fields(lines[-1])["ms"])


def _fields(line):
    """'total nodes 5 ms 7' -> {'nodes': 5, 'ms': 7}"""
    words = line.split()
    return {words[i]: int(words[i + 1]) for i in range(len(words) - 1)
            if words[i + 1].lstrip("-").isdigit()}


def bench_search(depth=5, heap="192K", repeat=3):
    """Search the benchmark positions on both runtimes; print nodes, speed and memory.

    Each runtime runs the bench `repeat` times and the fastest run counts:
    one run takes a fraction of a second on the unix port, short enough for
    a busy moment of the machine to skew it."""
    cp = _fastest([_firmware_bench("cpython", depth, heap) for _ in range(repeat)])
    mp = _fastest([_firmware_bench("micropython", depth, heap) for _ in range(repeat)])
    print("search benchmark: %d positions to depth %d, best of %d runs" % (
        len(cp) - 1, depth, repeat))
    print("%-10s %10s %12s %14s" % ("position", "nodes", "CPython ms", "MicroPython ms"))
    for a, b in zip(cp[:-1], mp[:-1]):
        fa, fb = _fields(a), _fields(b)
        same = "" if fa["nodes"] == fb["nodes"] else "  (MicroPython: %d nodes)" % fb["nodes"]
        print("%-10s %10d %12d %14d%s" % (fa["position"], fa["nodes"], fa["ms"], fb["ms"], same))
    tc, tm = _fields(cp[-1]), _fields(mp[-1])
    print("total nodes (signature): %d%s" % (
        tc["nodes"], "" if tc["nodes"] == tm["nodes"] else
        " CPython, %d MicroPython: the runtimes disagree!" % tm["nodes"]))
    print("nodes/s: CPython %s, MicroPython unix port %s (%.2fx CPython)" % (
        format(tc["nps"], ","), format(tm["nps"], ","), tm["nps"] / max(1, tc["nps"])))
    print("For the Pico itself: micro960 bench --pico (an emulated board, its own clock)")
    print("MicroPython peak heap in use: %s bytes of %s; deepest C stack: %d bytes" % (
        format(tm["heap"], ","), heap, tm["stack"]))
    return 0 if tc["nodes"] == tm["nodes"] else 1


def perft_suite(depth, runtime_name="cpython", heap="64K", every=1, interval=10.0, out=None):
    """Check perft of the 960 start positions and the standard positions against
    tests/data up to `depth`: the deep check that CI cannot afford. A run
    takes hours at depth 5 and more, so a line tells how far it is after
    each position, at most one every `interval` seconds; a wrong count is
    said when it comes."""
    out = out or sys.stdout
    cases = perft_suite_cases(depth, every, out)
    out.flush()
    batch = "".join("%s\t%d\n" % (fen, d) for _, fen, d, _ in cases)
    if runtime_name == "micropython":
        command = [runtime.micropython_executable(), "-X", "heapsize=%s" % heap, "-c",
                   runtime.COMMANDS_BOOT % str(runtime.build_firmware())]
    else:
        command = [sys.executable, "-c", runtime.COMMANDS_BOOT % str(runtime.FIRMWARE)]
    start = time.perf_counter()
    answers = _perft_answers(command + ["perft", "--batch"], batch)
    done = wrong = nodes = 0
    shown = start
    for (name, _, d, want), got in zip(cases, answers):
        done += 1
        nodes += want
        if got != str(want):
            wrong += 1
            out.write("MISMATCH %s depth %d: expected %d, got %s\n" % (name, d, want, got))
        now = time.perf_counter()
        if now - shown >= interval and done < len(cases):
            shown = now
            out.write("%d/%d positions (%s depth %d), %s nodes, %d wrong, %.1f s so far\n" % (
                done, len(cases), name, d, format(nodes, ","), wrong, now - start))
        out.flush()
    took = time.perf_counter() - start
    out.write("perft suite on %s: %d positions, %s nodes in %.1f s, %d wrong\n" % (
        runtime_name, len(cases), format(nodes, ","), took, wrong + len(cases) - done))
    return 1 if wrong or done != len(cases) else 0


def perft_suite_cases(depth, every, out):
    """(name, FEN, depth, count) of every position the suite checks at `depth`;
    one line on `out` if the start positions have no counts that deep."""
    data = runtime.REPO / "tests" / "data"
    lines = (data / "perft960.tsv").read_text().splitlines()
    deepest = len(lines[0].split("\t")) - 2  # sp, fen, d1, d2, ...
    cases = []
    if 1 <= depth <= deepest:
        for line in lines[1::every]:
            fields = line.split("\t")
            cases.append(("SP " + fields[0], fields[1], depth, int(fields[1 + depth])))
    else:
        out.write("skipped: the 960 start positions (tests/data/perft960.tsv counts depths "
                  "1-%d, not %d); the standard positions run\n" % (deepest, depth))
    for line in (data / "perft_std.tsv").read_text().splitlines()[1:]:
        fields = line.split("\t")
        if int(fields[2]) <= depth:
            cases.append((fields[0], fields[1], int(fields[2]), int(fields[3])))
    return cases


def _perft_answers(command, batch):
    """The lines `perft --batch` answers to `batch`, each as it comes."""
    import subprocess
    import threading
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)

    def feed():
        try:
            process.stdin.write(batch)
            process.stdin.close()
        except BrokenPipeError:  # it ended early; its answers say how far it came
            pass

    threading.Thread(target=feed, daemon=True).start()
    try:
        for line in process.stdout:
            yield line.strip()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()

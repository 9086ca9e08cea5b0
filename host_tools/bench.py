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

# The unix port runs interpreted code about 165 times faster than a Pico at
# 125 MHz (shared/DESIGN.md, "What a Pico really is").
PICO_SLOWDOWN = 165

MICROPYTHON_PERFT = """
import sys, time
sys.path.insert(0, %(build)r)
from micro960 import movegen
from micro960.position import Position
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
    from micro960 import movegen
    from micro960.position import Position
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
    write("%-*s%s\n" % (label, "Pico estimate (MicroPython / %d)" % PICO_SLOWDOWN,
                        "".join("%16s" % format(round(s / PICO_SLOWDOWN), ",") for s in micropython)))
    return 0

"""The self-test: does this build of micro960 work on this board?

`micro960 flash` runs it on the device after copying the files; by hand:

    >>> from micro960.device import selftest
    >>> summary = selftest.run()  # doctest: +SKIP
    micropython 1.28.0 on Raspberry Pi Pico with RP2040 (board: Raspberry Pi Pico)
    free heap 226832 bytes
    perft startpos depth 3: 8902 ok (952 ms)
    ...
    search 1 s: depth 4, 1232 nodes, 1259 nodes/s, best move e2e4
    self-test passed

(as it ran on the emulated Pico at 125 MHz, tests/test_pico.py.)

The last line is `self-test passed` or `FAILED: ...` with every check that
failed; run() also returns those facts as a dict.
"""
import gc
import sys

from micro960.compat import ticks_diff, ticks_ms

# (name, FEN, depth, leaf nodes): published perft counts, as in ../shared/data.
PERFT = (
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8902),
    ("SP 0", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 3, 9006),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     2, 2039),
)


def run(seconds=1, out=print):
    """Run every check; print one line each and return the summary dict."""
    failures = []
    summary = {"version": version(), "board": None, "free": None, "perft": {},
               "depth": 0, "nodes": 0, "free_after_search": None, "failures": failures,
               "passed": False}
    try:
        from .board import load
        summary["board"] = load().NAME
    except Exception as e:  # a broken board.py is a finding, not a crash
        failures.append("board.py: %s" % _reason(e))
    machine = getattr(sys.implementation, "_machine", None)
    out("%s%s (board: %s)" % (summary["version"], " on " + machine if machine else "",
                              summary["board"]))
    summary["free"] = free_heap()
    if summary["free"] is not None:
        out("free heap %d bytes" % summary["free"])
    for name, fen, depth, expected in PERFT:
        try:
            count, ms = _perft(fen, depth)
        except Exception as e:
            failures.append("perft %s: %s" % (name, _reason(e)))
            out("perft %s depth %d: %s" % (name, depth, _reason(e)))
            continue
        summary["perft"][name] = count
        verdict = "ok" if count == expected else "WRONG, expected %d" % expected
        out("perft %s depth %d: %d %s (%d ms)" % (name, depth, count, verdict, ms))
        if count != expected:
            failures.append("perft %s depth %d gave %d, not %d" % (name, depth, count, expected))
    from ..compat import load, release
    try:
        net = load("engine.netfile").read()  # what the search would stop on, as a finding
        out("network: N=%d, ok" % net.hidden)
        net = None
    except Exception as e:
        failures.append("network: %s" % _reason(e))
        out("network: %s" % _reason(e))
        summary["passed"] = False
        out("FAILED: " + "; ".join(failures))
        return summary
    finally:
        release("engine.netfile")
    try:
        _search(seconds, summary, out)
    except Exception as e:
        failures.append("search: %s" % _reason(e))
        out("search: %s" % _reason(e))
    summary["passed"] = not failures
    out("self-test passed" if not failures else "FAILED: " + "; ".join(failures))
    return summary


def version():
    """e.g. 'micropython 1.28.0' or 'cpython 3.11.2'."""
    v = sys.implementation.version
    text = "%s %d.%d.%d" % (sys.implementation.name, v[0], v[1], v[2])
    if sys.implementation.name == "micropython" and len(v) > 3 and v[3]:
        text += "-" + v[3]  # e.g. 1.29.0-preview
    return text


def free_heap():
    """Free heap bytes after a collection; None on CPython."""
    gc.collect()
    return gc.mem_free() if hasattr(gc, "mem_free") else None


def _perft(fen, depth):
    from ..rules import movegen
    from micro960.rules.position import Position
    pos = Position(fen)
    buf = movegen.move_buffer(movegen.MAX_MOVES * (depth + 1))
    start = ticks_ms()
    count = movegen.perft(pos, depth, buf)
    return count, ticks_diff(ticks_ms(), start)


def _search(seconds, summary, out):
    from .board import load
    from micro960.rules.game import Game
    from micro960.rules.notation import uci_text
    from micro960.engine.search import Limits, Search
    try:
        hash_kb = load().HASH_KB
    except Exception:
        hash_kb = None
    engine = Search(hash_kb)
    reached = [0]

    def on_info(depth, seldepth, score, nodes, ms, pv):
        reached[0] = depth

    engine.on_info = on_info
    game = Game("chess960", None, 518)
    start = ticks_ms()
    move, score = engine.think(game, Limits(movetime=seconds * 1000))
    ms = max(1, ticks_diff(ticks_ms(), start))
    summary["depth"] = reached[0]
    summary["nodes"] = engine.nodes
    legal = game.legal_moves()
    text = uci_text(game.pos, move) if move in legal else "none"
    out("search %d s: depth %d, %d nodes, %d nodes/s, best move %s" % (
        seconds, reached[0], engine.nodes, engine.nodes * 1000 // ms, text))
    if move not in legal or reached[0] < 1:
        summary["failures"].append("search found no legal move in %d s" % seconds)
    summary["free_after_search"] = free_heap()  # with the engine's tables made
    if summary["free_after_search"] is not None:
        out("free heap with the engine loaded %d bytes" % summary["free_after_search"])


def _reason(e):
    return "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__

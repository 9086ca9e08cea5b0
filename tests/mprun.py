"""A tiny test runner for the firmware tests, for MicroPython (and CPython).

    micropython -X heapsize=64K tests/mprun.py [--path DIR]... MODULE [TEST]...

imports MODULE (e.g. test_perft, a file of tests/firmware; rules/test_perft
for one in the folder rules/, then searched below each path too) and calls
each of its `test_*` functions (or only the TESTs named), printing `ok NAME`,
`FAIL NAME: error` (followed by the traceback) or `skip NAME: reason`, and
last `N passed, M failed` (`, K skipped` when some were). Exit status 1 when
any test failed.

--path DIR (repeatable) puts DIR in front of the module search path, e.g. the
.mpy builds of the firmware and of the tests. Without any, the runner looks
in tests/firmware and firmware beside itself, i.e. the source files.

Environment: MICRO960_DATA is the directory of the reference data
(perft960.tsv, sp960.tsv, ...); firmware tests read it with os.getenv.

A test skips by raising an exception class named SkipTest, e.g.
`from unittest import SkipTest` on CPython (pytest skips on it too) or a
class of that name on MicroPython, which has no unittest.
"""
import gc
import sys

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(end, start):
        return end - start


def _print_exception(e):
    if hasattr(sys, "print_exception"):
        sys.print_exception(e)
    else:
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__)


def _here():
    script = sys.argv[0]
    cut = script.rfind("/")
    return script[:cut] if cut >= 0 else "."


def _parse(args):
    paths = []
    names = []
    i = 0
    while i < len(args):
        if args[i] == "--path" and i + 1 < len(args):
            paths.append(args[i + 1])
            i += 2
        else:
            names.append(args[i])
            i += 1
    return paths, names


def run(module_name, only=()):
    """Run the tests of one module; return (passed, failed, skipped)."""
    try:
        module = __import__(module_name)
    except Exception as e:
        print("FAIL import %s: %r" % (module_name, e))
        _print_exception(e)
        return 0, 1, 0
    names = only or sorted(n for n in dir(module) if n.startswith("test_"))
    passed = failed = skipped = 0
    for name in names:
        test = getattr(module, name, None)
        if not callable(test):
            print("FAIL %s: no such test" % name)
            failed += 1
            continue
        gc.collect()
        start = ticks_ms()
        try:
            test()
        except Exception as e:
            if type(e).__name__ == "SkipTest":
                print("skip %s: %s" % (name, e))
                skipped += 1
                continue
            print("FAIL %s: %r" % (name, e))
            _print_exception(e)
            failed += 1
            continue
        passed += 1
        print("ok %s (%d ms)" % (name, ticks_diff(ticks_ms(), start)))
    return passed, failed, skipped


def main(args):
    paths, names = _parse(args)
    if not names:
        print("usage: mprun.py [--path DIR]... MODULE [TEST]...")
        return 2
    if not paths:
        here = _here()
        paths = [here + "/firmware", here + "/../firmware"]
    folder, _, module = names[0].rpartition("/")
    for path in reversed(paths):
        sys.path.insert(0, path)
        if folder:
            sys.path.insert(1, path + "/" + folder)
    passed, failed, skipped = run(module, names[1:])
    summary = "%d passed, %d failed" % (passed, failed)
    if skipped:
        summary += ", %d skipped" % skipped
    print(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

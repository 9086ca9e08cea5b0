"""`micro960 pull`: copy the finished games from a board to the PC.

    micro960 pull [--port PORT] [--to FILE]

runs `mpremote connect PORT cp :games.pgn FILE`. PORT is `auto` (the first
board found on USB) unless named, e.g. /dev/ttyACM0 or COM3; FILE is
games.pgn in the current folder (or in FILE when that is a folder). The copy
lands in FILE.part and replaces FILE only once complete, so a pull that fails
half-way leaves an earlier copy as it was.
"""
import argparse
import os
import subprocess
import sys

from . import runtime

# The board keeps its games in the root of its flash (micro960.device.storage,
# default_folder() and ARCHIVE).
BOARD_FILE = "games.pgn"


def build_parser():
    parser = argparse.ArgumentParser(
        prog="micro960 pull", allow_abbrev=False,
        description="Copy the finished games (games.pgn) from a board running micro960, "
                    "with mpremote.")
    parser.add_argument("--port", default="auto",
                        help="the board's serial port, e.g. /dev/ttyACM0 or COM3 "
                             "(default: auto, the first board found on USB)")
    parser.add_argument("--to", default=BOARD_FILE, metavar="FILE",
                        help="where to put the games (default: games.pgn here)")
    return parser


def main(argv=None, run=subprocess.run):
    """The exit code: 0 when the games were copied. `run` runs mpremote
    (subprocess.run; tests pass a stand-in)."""
    args = build_parser().parse_args(argv)
    target = args.to
    if os.path.isdir(target):
        target = os.path.join(target, BOARD_FILE)
    try:
        mpremote = runtime.find_tool("mpremote")
    except runtime.ToolMissing as e:
        return _fail(str(e))
    partial = target + ".part"
    command = [mpremote, "connect", args.port, "cp", ":" + BOARD_FILE, partial]
    try:
        result = run(command, capture_output=True, text=True)
    except OSError as e:
        return _fail("cannot run mpremote: %s" % e)
    if result.returncode != 0 or not os.path.exists(partial):
        _remove(partial)
        return _fail(explain(result.stdout + result.stderr, args.port))
    os.replace(partial, target)
    with open(target, errors="replace") as f:
        games = sum(1 for line in f if line.startswith("[Event "))
    print("%d game%s copied to %s" % (games, "" if games == 1 else "s", target))
    return 0


def explain(output, port):
    """What went wrong, from mpremote's output, in the user's terms."""
    if "no device found" in output:
        return ("no board found on USB: plug in the board running micro960, or name its "
                "port with --port (e.g. /dev/ttyACM0 or COM3)")
    if "failed to access" in output:
        return ("cannot open %s: is it the board's port, and is no terminal program "
                "using it?" % port)
    if "No such file" in output or "ENOENT" in output:
        return "the board has no games.pgn yet: a game is added to it when it ends"
    lines = [line for line in output.strip().split("\n") if line.strip()]
    return "mpremote failed: " + (lines[-1] if lines else "no output")


def _fail(message):
    sys.stderr.write("micro960 pull: %s\n" % message)
    return 1


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
